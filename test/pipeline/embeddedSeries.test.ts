/**
 * Every check through the embedded provider on real llama.cpp inference: two generated tiny
 * GGUF models (random weights, so the answers mean nothing) play a small series of each check
 * through the runner, and every answer the engine produced parses and validates against the
 * check's schema (a grammar constrains it, the scorer re-validates it).
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadConfig } from '../../src/config/load.js';
import { runJob } from '../../src/pipeline/run.js';
import type { CallRecord } from '../../src/sampleLog/index.js';
import { readSampleLogs } from '../../src/sampleLog/index.js';
import { writeItemsFile } from '../support/itemsFile.js';
import { writeTinyGguf } from '../support/tinyGguf.js';

const quiet = { write: () => true } as unknown as NodeJS.WritableStream;

/**
 * The built-in catalogue cut to three assistants and two probes: what is checked is that every
 * persona answer comes back, not what the analysis makes of them (the catalogue's 48 prompts
 * per model were two thirds of this run's requests).
 */
function writeSmallCatalogue(dir: string): string {
  const catalogue = parse(readFileSync('fixtures/personas/catalogue.yml', 'utf8')) as {
    assistants: Record<string, unknown>;
    probes: string[];
  };
  const file = path.join(dir, 'catalogue.yml');
  writeFileSync(
    file,
    stringify({
      ...catalogue,
      assistants: Object.fromEntries(Object.entries(catalogue.assistants).slice(0, 3)),
      probes: catalogue.probes.slice(0, 2),
    }),
  );
  return file;
}

describe('a small series of each check on the embedded provider', () => {
  it('churn, dragon and personas complete and every answer is valid', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-embedded-'));
    const baseline = writeTinyGguf(path.join(dir, 'base.gguf'), { seed: 17 });
    const candidate = writeTinyGguf(path.join(dir, 'cand.gguf'), { seed: 3 });
    const { items } = writeItemsFile('model-gate-embedded-items-', 12, 3);
    const loaded = loadConfig({
      checks: CHECKS,
      file: 'fixtures/demo/model-gate.yml',
      env: {},
      overrides: [
        { path: ['provider', 'kind'], value: 'embedded', source: 'test' },
        { path: ['provider', 'threads'], value: 1, source: 'test' },
        { path: ['models', 'baseline'], value: baseline, source: 'test' },
        { path: ['models', 'candidate'], value: candidate, source: 'test' },
        // Multiple-choice items: constrained decoding (the demo's open items are free text);
        // a dozen of them, since every answer is a real inference on one thread.
        { path: ['churn', 'items'], value: items, source: 'test' },
        { path: ['churn', 'samples'], value: 2, source: 'test' },
        { path: ['churn', 'greedy'], value: false, source: 'test' },
        // One maze: on this one both models' games end within a few moves (most tiny-model
        // games run to the 150-turn cap, over ten seconds on one thread, each decision a prompt
        // of a thousand tokens). Nothing below depends on how long the games last.
        { path: ['dragon', 'seeds'], value: [7], source: 'test' },
        { path: ['dragon', 'referencePlayers'], value: [], source: 'test' },
        { path: ['personas', 'catalogue'], value: writeSmallCatalogue(dir), source: 'test' },
        { path: ['personas', 'maxTokens'], value: 16, source: 'test' },
        { path: ['personas', 'samples'], value: 1, source: 'test' },
        { path: ['runner', 'concurrency'], value: 1, source: 'test' },
        { path: ['runner', 'warmup'], value: false, source: 'test' },
        { path: ['output', 'dir'], value: dir, source: 'test' },
      ],
    });
    const outcome = await runJob({ loaded, progress: quiet });
    const { records } = await readSampleLogs(outcome.files.logs);
    const calls = records.filter((r): r is CallRecord => r.kind === 'call');

    for (const check of ['churn', 'dragon', 'personas'] as const) {
      const own = calls.filter((r) => r.check === check);
      expect(own.length, check).toBeGreaterThan(0);
      // Constrained decoding: no invalid answer, no timeout, no error.
      expect(
        own.filter((r) => r.status !== 'ok').map((r) => `${r.key}: ${r.reason}`),
        check,
      ).toEqual([]);
    }
    for (const r of calls) {
      if (r.check === 'churn') expect(['A', 'B', 'C', 'D']).toContain(r.answer);
      if (r.check === 'dragon' && r.move !== 'pass') {
        expect(r.confidence).toBeGreaterThanOrEqual(0);
        expect(r.confidence).toBeLessThanOrEqual(1);
      }
    }
    // One finished game per model, and provenance read from the files.
    expect(records.filter((r) => r.kind === 'game')).toHaveLength(2);
    expect(outcome.report.run.provider.provider).toBe('embedded');
    expect(outcome.report.run.models.baseline?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(outcome.report.run.models.baseline?.quantization).toBe('F32');
    expect(outcome.report.checks.dragon?.baseline?.moves).toBeGreaterThanOrEqual(0);
  }, 180_000);
});
