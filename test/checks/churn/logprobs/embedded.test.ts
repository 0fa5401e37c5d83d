/**
 * An exact-estimator series on a real engine: the churn plan and the runner against the
 * embedded provider (llama.cpp in process) on two generated tiny models. The models know
 * nothing; what is checked is that every item yields a proper distribution over its letters
 * and that the analysis reads it. One thread, as in the provider tests (shared cores).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { churnCheck } from '../../../../src/checks/churn/index.js';
import { isChoiceItem } from '../../../../src/checks/churn/items.js';
import type { CheckContext } from '../../../../src/checks/types.js';
import { CHECKS, type BuiltInConfig } from '../../../../src/checks/builtIn.js';
import { configSchema } from '../../../../src/config/schema.js';
import { EmbeddedProvider } from '../../../../src/providers/embedded/provider.js';
import { runPlan } from '../../../../src/runner/run.js';
import { writeTinyGguf } from '../../../support/tinyGguf.js';
import type { ChurnCallRecord } from '../../../../src/checks/churn/records.js';
import { foldRecords } from '../../../../src/checks/fold.js';

const ITEMS = `
- {id: law-a, domain: law, question: "Who carries the burden of proof?", choices: [judge, prosecution, jury, clerk], answer: B}
- {id: phys-a, domain: physics, question: "What is the unit of force?", choices: [joule, watt, newton, pascal], answer: C}
- {id: geo-a, domain: geography, question: "Which city is the capital of Japan?", choices: [Osaka, Tokyo, Kyoto], answer: B}
`;

let dir: string;
let provider: EmbeddedProvider;

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'churn-exact-embedded-'));
  writeFileSync(path.join(dir, 'items.yml'), ITEMS);
  writeTinyGguf(path.join(dir, 'base.gguf'), { seed: 7 });
  writeTinyGguf(path.join(dir, 'cand.gguf'), { seed: 11 });
  provider = new EmbeddedProvider({
    timeoutMs: 60_000,
    threads: 1,
    ollamaStore: path.join(dir, 'no-store'),
    baseDir: dir,
  });
});

afterAll(async () => {
  await provider?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('exact series on the embedded provider', () => {
  it('measures every item with letter probabilities that sum to 1', async () => {
    const models = ['./base.gguf', './cand.gguf'];
    const config = configSchema(CHECKS).parse({
      models: { baseline: models[0], candidate: models[1] },
      provider: { kind: 'embedded', threads: 1 },
      runner: { numCtx: 1024 },
      checks: ['churn'],
      churn: { items: 'items.yml', estimator: 'logprobs' },
    });
    const ctx: CheckContext<BuiltInConfig> = {
      config,
      baseDir: dir,
      models: { baseline: './base.gguf', candidate: './cand.gguf' },
    };
    const definitions = await churnCheck.load(ctx);
    const units = models.flatMap((model) => churnCheck.plan(definitions, ctx, model));
    const result = await runPlan({
      provider,
      units,
      models,
      logPath: path.join(dir, 'samples.jsonl'),
      warmup: false,
      numCtx: 1024,
    });
    const records = result.records.filter(
      (r): r is ChurnCallRecord => r.kind === 'call' && r.check === 'churn',
    );
    expect(records).toHaveLength(6);
    for (const record of records) {
      expect(record).toMatchObject({
        status: 'ok',
        mode: 'exact',
        estimator: 'embedded-logits',
        estimate_temperature: 0.7,
      });
      const item = definitions.items.filter(isChoiceItem).find((i) => i.id === record.item);
      const letters = record.letters ?? {};
      expect(Object.keys(letters)).toEqual('ABCD'.slice(0, item?.choices.length).split(''));
      const total = Object.values(letters).reduce((a, b) => a + b, 0);
      expect(total).toBeCloseTo(1, 12);
      expect(Object.values(letters).every((p) => p >= 0 && p <= 1)).toBe(true);
      expect(record.p_correct).toBe(letters[item?.answer ?? '']);
      expect(letters[record.answer ?? '']).toBe(Math.max(...Object.values(letters)));
    }

    const section = foldRecords(churnCheck.fold, result.records, definitions, ctx);
    if (section.estimator !== 'logprobs' || !section.comparison)
      throw new Error('exact comparison');
    expect(section.baseline.sources).toEqual(['embedded-logits']);
    expect(section.itemCounts).toEqual({ total: 3, measured: 3, unmeasured: 0 });
    for (const row of section.comparison.items) {
      const p = (model: string) =>
        records.find((r) => r.model === model && r.item === row.id)?.p_correct;
      expect(row.delta).toBeCloseTo((p('./cand.gguf') ?? 0) - (p('./base.gguf') ?? 0), 12);
    }
    // Two models with different weights do not give identical distributions.
    expect(section.comparison.items.some((row) => row.delta !== 0)).toBe(true);
  });
});
