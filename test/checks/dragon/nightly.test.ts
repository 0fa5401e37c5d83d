/**
 * Nightly mode through the whole job: one model, compared with a stored report. A comparison
 * that cannot be made is inconclusive with a sentence, never a silent pass; a previous report
 * given with a candidate is bad input.
 */
import { CHECKS } from '../../../src/checks/builtIn.js';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ConfigOverride, loadConfig } from '../../../src/config/load.js';
import { InputError } from '../../../src/errors.js';
import { analyseLogs } from '../../../src/pipeline/analyse.js';
import { runJob } from '../../../src/pipeline/run.js';
import { at, quiet, simulatedJob } from '../../pipeline/simulatedJob.js';

const job = simulatedJob('fixtures/simulator/demo.yml', 'model-gate-nightly-');

function nightly(dir: string, extra: ConfigOverride[] = []) {
  return loadConfig({
    checks: CHECKS,
    file: null,
    env: {},
    overrides: [
      at(job.simulator.url, 'provider', 'host'),
      at('demo-base:1b', 'models', 'baseline'),
      at(['dragon'], 'checks'),
      at([0], 'dragon', 'seeds'),
      at(100, 'dragon', 'bootstrap'),
      at(path.join(job.root, dir), 'output', 'dir'),
      ...extra,
    ],
  });
}

describe('nightly mode through the job', () => {
  it('passes the same model against its own report, and is inconclusive against a report without a dragon section', async () => {
    const first = await runJob({ loaded: nightly('first'), progress: quiet });
    const report = first.files.report;
    const logs = first.files.logs;

    const again = await analyseLogs({ loaded: nightly('again'), logs, previousReport: report });
    expect(again.report.verdict.status).toBe('pass');
    expect(again.exitCode).toBe(0);
    // The comparison's rules are shown as tests, since a previous report was given.
    expect(again.report.verdict.rules.map((r) => `${r.rule}:${r.outcome}`)).toEqual([
      'ece-increase:pass',
      'brier-above-chance:pass',
    ]);

    const noDragon = path.join(job.root, 'no-dragon.json');
    writeFileSync(noDragon, JSON.stringify({ ...first.report, checks: {} }));
    const blind = await analyseLogs({ loaded: nightly('blind'), logs, previousReport: noDragon });
    expect(blind.report.verdict.status).toBe('inconclusive');
    expect(blind.exitCode).toBe(3);
    const said = blind.report.verdict.reasons.filter((f) => f.rule === 'previous-report');
    expect(said.map((f) => f.message)).toEqual([
      'The previous report has no dragon section. Nothing was compared (ECE, Brier score, known-wall moves): the nightly comparison is inconclusive, not passed.',
    ]);
  });

  it('refuses a previous report with a candidate: flag or config key, named', async () => {
    const withCandidate = nightly('candidate', [at('demo-cand:1b', 'models', 'candidate')]);
    await expect(
      analyseLogs({ loaded: withCandidate, logs: [], previousReport: 'old/report.json' }),
    ).rejects.toThrow(InputError);
    await expect(
      analyseLogs({ loaded: withCandidate, logs: [], previousReport: 'old/report.json' }),
    ).rejects.toThrow(/^flag --previous: a previous report is compared with in nightly mode/);
    const keyed = nightly('keyed', [
      at('demo-cand:1b', 'models', 'candidate'),
      at('old/report.json', 'dragon', 'gate', 'previousReport'),
    ]);
    await expect(runJob({ loaded: keyed, progress: quiet })).rejects.toThrow(
      /^dragon\.gate\.previous-report: .*this config has candidate demo-cand:1b/,
    );
  });
});
