/**
 * A model re-pulled between two runs on one sample log: the log holds its records under two
 * digests. A report never mixes them: every check uses the records of the current digest,
 * provenance names that digest, and a warning counts the records left out.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { analyseLogs } from '../../src/pipeline/analyse.js';
import { runJob } from '../../src/pipeline/run.js';
import { readSampleLogs } from '../../src/sampleLog/index.js';
import { parseScenario } from '../../src/simulator/scenario.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { comparableReport } from '../support/comparableReport.js';
import { writeKillConfig } from '../support/killRerun.js';

const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
const OLD = 'a'.repeat(64);
const NEW = 'b'.repeat(64);

/** The demo models; the candidate under `digest`. */
function simulator(digest: string): Promise<RunningSimulator> {
  const text = readFileSync('fixtures/simulator/demo.yml', 'utf8').replace(
    '  - name: demo-cand:1b\n',
    `  - name: demo-cand:1b\n    digest: ${digest}\n`,
  );
  return startSimulator({ port: 0, scenario: parseScenario(text, 'test scenario') });
}

let root: string;
let config: string;
let before: RunningSimulator;
let after: RunningSimulator;
beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'model-gate-digests-'));
  config = writeKillConfig(root);
  before = await simulator(OLD);
  after = await simulator(NEW);
});
afterAll(async () => {
  await before.close();
  await after.close();
});

function load(sim: RunningSimulator, dir: string) {
  return loadConfig({
    checks: CHECKS,
    file: config,
    env: {},
    overrides: [
      { path: ['provider', 'host'], value: sim.url, source: 'test' },
      { path: ['output', 'dir'], value: path.join(root, dir), source: 'test' },
    ],
  });
}

describe('one model under two digests in one sample log', () => {
  it('is never mixed: every check reports the current digest only, and says what it left out', async () => {
    const first = await runJob({ loaded: load(before, 'mixed'), progress: quiet });
    const log = first.files.logs[0] as string;
    const mixed = await runJob({ loaded: load(after, 'mixed'), progress: quiet });
    const fresh = await runJob({ loaded: load(after, 'fresh'), progress: quiet });

    const { records } = await readSampleLogs([log]);
    const oldRecords = records.filter((r) => r.model === 'demo-cand:1b' && r.digest === OLD);
    const newRecords = records.filter((r) => r.model === 'demo-cand:1b' && r.digest === NEW);
    // Every candidate request was asked again under the new weights.
    expect(oldRecords.length).toBeGreaterThan(0);
    expect(new Set(newRecords.map((r) => r.check))).toEqual(
      new Set(['churn', 'dragon', 'personas']),
    );

    expect(mixed.report.run.models.candidate?.digest).toBe(NEW);
    const note = `${oldRecords.length} records of demo-cand:1b from earlier weights (digest ${OLD.slice(0, 12)}) left out: this report uses digest ${NEW.slice(0, 12)} only, never two versions of a model`;
    expect(mixed.report.run.warnings).toContain(note);

    // Apart from that warning, the report is the one a log of the new weights alone gives.
    const withoutNote = {
      ...mixed.report,
      run: { ...mixed.report.run, warnings: mixed.report.run.warnings.filter((w) => w !== note) },
    };
    expect(comparableReport(withoutNote)).toEqual(comparableReport(fresh.report));

    // analyze reads the same log the same way.
    const again = await analyseLogs({
      loaded: load(after, 'mixed-analyze'),
      logs: [log],
      requireMatchingLogs: true,
    });
    expect(comparableReport(again.report)).toEqual(comparableReport(mixed.report));
  }, 180_000);
});
