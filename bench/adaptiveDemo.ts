/**
 * The demo's churn pair (`model-gate demo`: the candidate gains 1.5 logits in four domains and
 * loses 4 in law, so most items move) run against the simulator with fixed K = 20, fixed K = 10
 * and adaptive sampling (the default, the previous default, and older adaptive defaults):
 * requests (stochastic, and with the greedy sample of each item and model counted as well, as
 * fixed K = 20's share is quoted), and the churn verdict. Each design runs on the demo's items
 * (63 multiple-choice items and 12 open items that do not move) and on its 63 multiple-choice
 * items alone (fixtures/items/general.yml: the pair as another harness draws it, every item
 * moving).
 *
 *   npx tsx bench/adaptiveDemo.ts            (or: npm run bench -- adaptiveDemo)
 */
import { CHECKS } from '../src/checks/builtIn.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { SampledChurnSection } from '../src/checks/churn/section.js';
import { loadConfig } from '../src/config/load.js';
import { runJob } from '../src/pipeline/run.js';
import { readSampleLogs } from '../src/sampleLog/index.js';
import { startSimulator } from '../src/simulator/server.js';
import { FIRST_ADAPTIVE_DEFAULT } from './oc/churn.js';

const quiet = new Writable({ write: (_c, _e, done) => done() });
const simulator = await startSimulator({ port: 0, scenario: 'fixtures/simulator/demo.yml' });
const root = mkdtempSync(path.join(tmpdir(), 'model-gate-adaptive-demo-'));
const designs: [string, Record<string, unknown>][] = [
  ['fixed K = 20', { sampling: 'fixed', samples: 20 }],
  ['fixed K = 10', { sampling: 'fixed', samples: 10 }],
  [
    'adaptive 3 + 5 up to 23 (the previous adaptive defaults)',
    {
      sampling: 'adaptive',
      samplesFirst: 3,
      samplesStep: 5,
      samplesMax: 23,
      futilityP: 0.05,
      futilityFrom: 14,
      futilityTighten: 1,
    },
  ],
  ['adaptive 4 + 8 up to 20 (the previous default)', FIRST_ADAPTIVE_DEFAULT],
  // Nothing set: the sampling a user gets by default.
  ['adaptive 4 + 4 up to 20 (the default)', { sampling: 'adaptive' }],
];
const itemSets: [string, string][] = [
  ['demo items (75)', '../items/demo.yml'],
  ['choice items (63)', '../items/general.yml'],
];
const rows: string[] = [];
try {
  for (const [set, items] of itemSets) {
    let reference = 0;
    let referenceAll = 0;
    for (const [name, churn] of designs) {
      const measured = await measure(name, set, { ...churn, items });
      if (reference === 0) {
        reference = measured.stochastic;
        referenceAll = measured.all;
      }
      rows.push(
        `| ${set} | ${name} | ${measured.stochastic} | ${(measured.stochastic / reference).toFixed(3)} | ${measured.all} | ${(measured.all / referenceAll).toFixed(3)} | ${measured.verdict} | ${measured.flagged} | ${measured.stops} |`,
      );
    }
  }
} finally {
  await simulator.close();
}
process.stdout.write(
  `| items | design | stochastic requests (both models) | / fixed K = 20 | with greedy | / fixed K = 20 | verdict (churn) | items flagged | where items stopped |\n|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
);

async function measure(
  name: string,
  set: string,
  churn: Record<string, unknown>,
): Promise<{
  stochastic: number;
  all: number;
  verdict: string;
  flagged: number;
  stops: string;
}> {
  const loaded = loadConfig({
    checks: CHECKS,
    file: 'fixtures/demo/model-gate.yml',
    env: {},
    overrides: [
      { path: ['provider', 'host'], value: simulator.url, source: 'bench' },
      { path: ['checks'], value: ['churn'], source: 'bench' },
      {
        path: ['output', 'dir'],
        value: path.join(root, `${set}-${name}`.replace(/\W+/g, '-')),
        source: 'bench',
      },
      ...Object.entries(churn).map(([key, value]) => ({
        path: ['churn', key],
        value,
        source: 'bench',
      })),
    ],
  });
  const outcome = await runJob({ loaded, progress: quiet });
  const log = await readSampleLogs(outcome.files.logs);
  const calls = log.records.filter((r) => r.kind === 'call' && r.check === 'churn');
  const stochastic = calls.filter((r) => r.mode === 'stochastic').length;
  const section = outcome.report.checks.churn as SampledChurnSection;
  const flagged = (section.comparison?.items ?? []).filter(
    (r) => r.fisherBh === 'improved' || r.fisherBh === 'deteriorated',
  );
  const stops = section.sampling
    ? section.sampling.stopped
        .map(
          (s) =>
            `${s.items} at ${s.samples} (settled ${s.settled}, decided ${s.decided}, futile ${s.futility}, max ${s.samplesMax})`,
        )
        .join('; ')
    : '';
  return {
    stochastic,
    all: calls.length,
    verdict: outcome.report.verdict.status.toUpperCase(),
    flagged: flagged.length,
    stops,
  };
}
