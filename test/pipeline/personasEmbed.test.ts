/**
 * personas `vectors: embed`: the runner asks the server's embedding endpoint for each answer,
 * the vector is stored in the sample log, and the analysis uses it (still a pure function of
 * the log: `analyze` needs no server).
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { analyseLogs } from '../../src/pipeline/analyse.js';
import { runJob } from '../../src/pipeline/run.js';
import { readSampleLogs } from '../../src/sampleLog/index.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import type { PersonasCallRecord } from '../../src/checks/personas/records.js';

const quiet = { write: () => true } as unknown as NodeJS.WritableStream;
let simulator: RunningSimulator;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, scenario: 'fixtures/simulator/demo.yml' });
});
afterAll(async () => {
  await simulator.close();
});

describe('personas with vectors: embed', () => {
  it('stores one embedding per answer and analyses with it, from the log alone', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-embed-'));
    const loaded = loadConfig({
      checks: CHECKS,
      file: 'fixtures/demo/model-gate.yml',
      env: {},
      overrides: [
        { path: ['provider', 'host'], value: simulator.url, source: 'test' },
        { path: ['checks'], value: ['personas'], source: 'test' },
        { path: ['personas', 'vectors'], value: 'embed', source: 'test' },
        { path: ['output', 'dir'], value: dir, source: 'test' },
      ],
    });
    const outcome = await runJob({ loaded, progress: quiet });
    const { records } = await readSampleLogs(outcome.files.logs);
    const answers = records.filter(
      (r): r is PersonasCallRecord =>
        r.kind === 'call' && r.check === 'personas' && r.status === 'ok',
    );
    // 2 models × 6 assistants × 8 probes × 4 samples (personas.samples).
    expect(answers.length).toBe(2 * 6 * 8 * 4);
    for (const answer of answers) {
      expect(answer.vector?.length).toBeGreaterThan(0);
      // Each model embeds with itself unless personas.embed-model names another.
      expect(answer.embed_model).toBe(answer.model);
    }
    expect(outcome.report.checks.personas?.models.map((m) => m.vectors)).toEqual([
      'embed',
      'embed',
    ]);

    const again = await analyseLogs({
      loaded,
      logs: outcome.files.logs,
      outDir: path.join(dir, 'again'),
    });
    expect(again.report.checks.personas).toEqual(outcome.report.checks.personas);
  });
});
