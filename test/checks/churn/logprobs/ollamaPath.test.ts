/**
 * The logprobs estimator through the Ollama provider: the real client asks the simulator for
 * token logprobs, the scorer turns them into letter probabilities. The simulated model's
 * distribution at temperature 1 is known (src/simulator/behaviours/churn.ts, letterLogprobs),
 * so every number below is computed by hand.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { churnCheck } from '../../../../src/checks/churn/index.js';
import type { CheckContext } from '../../../../src/checks/types.js';
import { CHECKS, type BuiltInConfig } from '../../../../src/checks/builtIn.js';
import { configSchema } from '../../../../src/config/schema.js';
import { InputError } from '../../../../src/errors.js';
import { OllamaProvider } from '../../../../src/providers/ollama.js';
import { runPlan } from '../../../../src/runner/run.js';
import { parseScenario } from '../../../../src/simulator/scenario.js';
import { type RunningSimulator, startSimulator } from '../../../../src/simulator/server.js';
import type { ChurnCallRecord } from '../../../../src/checks/churn/records.js';

const ITEMS = `
- {id: law-a, domain: law, question: "Who carries the burden of proof?", choices: [judge, prosecution, jury, clerk], answer: B}
- {id: phys-a, domain: physics, question: "What is the unit of force?", choices: [joule, watt, newton, pascal], answer: C}
`;

let dir: string;
let itemsFile: string;

/**
 * Spread 0, so an item's logit is logit(accuracy) + its domain shift: logit(0.8) = ln 4, and
 * law's −ln 4 brings law-a to logit 0, p = 0.5; phys-a keeps p = 0.8.
 */
function scenarioYaml(version: string): string {
  const block = `
    churn:
      items: ${JSON.stringify(itemsFile)}
      accuracy: 0.8
      spread: 0
      domains: {law: ${-Math.log(4)}}`;
  return `
version: ${version}
parallel: 2
models:
  - name: sim-base:1b${block}
  - name: sim-next:1b${block}
`;
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'churn-exact-ollama-'));
  itemsFile = path.join(dir, 'items.yml');
  writeFileSync(itemsFile, ITEMS);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function runExact(
  version: string,
  churn: Record<string, unknown> = {},
): Promise<ChurnCallRecord[]> {
  const simulator: RunningSimulator = await startSimulator({
    scenario: parseScenario(scenarioYaml(version)),
  });
  try {
    const models = ['sim-base:1b', 'sim-next:1b'];
    const config = configSchema(CHECKS).parse({
      models: { baseline: models[0], candidate: models[1] },
      provider: { kind: 'ollama', host: simulator.url },
      checks: ['churn'],
      churn: { items: itemsFile, estimator: 'logprobs', ...churn },
    });
    const ctx: CheckContext<BuiltInConfig> = {
      config,
      baseDir: dir,
      models: { baseline: 'sim-base:1b', candidate: 'sim-next:1b' },
    };
    const definitions = await churnCheck.load(ctx);
    const units = models.flatMap((model) => churnCheck.plan(definitions, ctx, model));
    const provider = new OllamaProvider({ host: simulator.url, timeoutMs: 5000, keepAlive: '1m' });
    const result = await runPlan({
      provider,
      units,
      models,
      logPath: path.join(mkdtempSync(path.join(dir, 'run-')), 'samples.jsonl'),
      concurrency: 2,
      warmup: false,
    });
    return result.records.filter(
      (r): r is ChurnCallRecord => r.kind === 'call' && r.check === 'churn',
    );
  } finally {
    await simulator.close();
  }
}

describe('logprobs estimator over Ollama token logprobs', () => {
  it('gives the letter probabilities computed by hand from the simulated distribution', async () => {
    const records = await runExact('0.12.11-simulated');
    expect(records).toHaveLength(4);
    const law = records.find((r) => r.model === 'sim-base:1b' && r.item === 'law-a');
    const phys = records.find((r) => r.model === 'sim-base:1b' && r.item === 'phys-a');
    // One greedy request per item; the estimator applies churn.temperature (0.7) itself.
    expect(law).toMatchObject({
      key: 'law-a#exact',
      mode: 'exact',
      status: 'ok',
      estimator: 'ollama-logprobs',
      estimate_temperature: 0.7,
      options: { temperature: 0, seed: 42 },
      answer: 'B',
      correct: true,
    });
    // law-a at T = 1: B 1/2, A, C, D 1/6 each. At T = 0.7 each probability is raised to
    // 1/0.7 and renormalised: B ∝ (1/2)^(1/0.7), others ∝ (1/6)^(1/0.7), so
    // P(B) = 1 / (1 + 3·(1/3)^(1/0.7)) = 1 / (1 + 3·0.2081604) = 0.6155811,
    // P(A) = P(C) = P(D) = 0.2081604 / 1.6244813 = 0.1281396.
    expect(law?.p_correct).toBeCloseTo(0.6155811, 6);
    expect(law?.letters?.['A']).toBeCloseTo(0.1281396, 6);
    expect(law?.letters?.['D']).toBeCloseTo(0.1281396, 6);
    // phys-a at T = 1: C 0.8, the others 0.2/3. 0.8^(1/0.7) = 0.7270380 and
    // (0.2/3)^(1/0.7) = 0.0208867, so P(C) = 0.7270380 / (0.7270380 + 3·0.0208867) = 0.9206531.
    expect(phys?.p_correct).toBeCloseTo(0.9206531, 6);
    expect(phys?.letters?.['B']).toBeCloseTo(0.026449, 6);
    for (const record of records) {
      const sum = Object.values(record.letters ?? {}).reduce((a, b) => a + b, 0);
      expect(sum).toBeCloseTo(1, 12);
    }
  });

  it('refuses churn.top-logprobs below the number of answer choices before any request', () => {
    const config = configSchema(CHECKS).parse({
      models: { baseline: 'a', candidate: 'b' },
      provider: { kind: 'ollama', host: 'http://127.0.0.1:9' },
      churn: { items: itemsFile, estimator: 'logprobs', topLogprobs: 3 },
    });
    const ctx: CheckContext<BuiltInConfig> = {
      config,
      baseDir: dir,
      models: { baseline: 'a', candidate: 'b' },
    };
    const items = [
      { id: 'two', domain: 'd', question: 'q', choices: ['x', 'y'], answer: 'A', line: 1 },
      {
        id: 'five',
        domain: 'd',
        question: 'q',
        choices: ['v', 'w', 'x', 'y', 'z'],
        answer: 'A',
        line: 2,
      },
      {
        id: 'four',
        domain: 'd',
        question: 'q',
        choices: ['w', 'x', 'y', 'z'],
        answer: 'A',
        line: 3,
      },
    ];
    const definitions = { items, file: itemsFile, warnings: [] };
    const plan = () => churnCheck.plan(definitions, ctx, 'a');
    expect(plan).toThrow(InputError);
    expect(plan).toThrow(
      `churn.top-logprobs: 3 is below the 5 answer choices of item five (${itemsFile}, line 2); 2 item(s) have more choices than that`,
    );
    // Enough alternatives for the widest item: planned. The embedded provider reads every
    // letter's probability whatever top-logprobs says.
    const wide = { ...config, churn: { ...config.churn, topLogprobs: 5 } };
    expect(churnCheck.plan(definitions, { ...ctx, config: wide }, 'a')).toHaveLength(3);
    const embedded = { ...config, provider: { ...config.provider, kind: 'embedded' as const } };
    expect(churnCheck.plan(definitions, { ...ctx, config: embedded }, 'a')).toHaveLength(3);
  });

  it('stops with an InputError naming churn.estimator when the server returns no logprobs', async () => {
    // Ollama before 0.12.11 ignores `logprobs`; the simulator does the same.
    const run = runExact('0.12.6-simulated');
    await expect(run).rejects.toBeInstanceOf(InputError);
    await expect(run).rejects.toThrow(
      'churn.estimator: logprobs: sim-base:1b answered without token probabilities',
    );
  });

  it('refuses a provider kind that cannot return probabilities before any request', async () => {
    const config = configSchema(CHECKS).parse({
      models: { baseline: 'a', candidate: 'b' },
      provider: { kind: 'openai', host: 'http://127.0.0.1:9' },
      churn: { items: itemsFile, estimator: 'logprobs' },
    });
    const ctx: CheckContext<BuiltInConfig> = {
      config,
      baseDir: dir,
      models: { baseline: 'a', candidate: 'b' },
    };
    const definitions = await churnCheck.load(ctx);
    expect(() => churnCheck.plan(definitions, ctx, 'a')).toThrow(InputError);
    expect(() => churnCheck.plan(definitions, ctx, 'a')).toThrow(
      'churn.estimator: logprobs needs the probability of each answer letter, which provider.kind openai cannot return',
    );
  });
});
