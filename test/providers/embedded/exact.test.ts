/**
 * Exact mode on a real engine: the letter probabilities read at the answer position must be
 * the distribution the provider actually samples from. Checked against K = 400 sampled
 * answers (seeds 0…399) at the churn default temperature 0.7.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { letterProbabilities } from '../../../src/checks/churn/logprobs/letterProbabilities.js';
import { EmbeddedProvider } from '../../../src/providers/embedded/provider.js';
import { writeTinyGguf } from '../../support/tinyGguf.js';
import { LETTERS, letterDistribution, letterRequest } from './requests.js';

let dir: string;
let model: string;
let provider: EmbeddedProvider;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'embedded-exact-'));
  // Model seed 17 on this question spreads its answer over three letters (about
  // 0.21 / 0.42 / 0.01 / 0.36 at T = 0.7), so the comparison below tests something.
  model = writeTinyGguf(join(dir, 'tiny.gguf'), { seed: 17 });
  provider = new EmbeddedProvider({
    timeoutMs: 60_000,
    threads: 1,
    ollamaStore: join(dir, 'none'),
    baseDir: dir,
  });
});

afterAll(async () => {
  await provider.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('logprobs estimator on the embedded provider', () => {
  it('gives letter probabilities that sum to 1 over the valid letters', async () => {
    for (const temperature of [0.3, 0.7, 1]) {
      const letters = await letterDistribution(provider, letterRequest(model, temperature, 0));
      const total = Object.values(letters ?? {}).reduce((a, b) => a + b, 0);
      expect(total).toBeCloseTo(1, 12);
    }
    const greedy = await letterDistribution(provider, letterRequest(model, 0, 0));
    const answer = JSON.parse((await provider.chat(letterRequest(model, 0, 42))).content).answer;
    expect(greedy?.[answer]).toBe(1);
  });

  it('agrees with the frequency of 400 sampled answers within sampling error', async () => {
    const K = 400;
    const p = await letterDistribution(provider, letterRequest(model, 0.7, 0));
    if (!p) throw new Error('no letter reachable');
    // The comparison says something only if the model is unsure: at least two letters carry
    // real probability on the generated weights.
    const unsure = LETTERS.filter((l) => (p[l] ?? 0) > 0.1 && (p[l] ?? 0) < 0.9);
    expect(unsure.length).toBeGreaterThanOrEqual(2);
    const counts: Record<string, number> = { A: 0, B: 0, C: 0, D: 0 };
    for (let k = 0; k < K; k++) {
      const answer = JSON.parse((await provider.chat(letterRequest(model, 0.7, k))).content)
        .answer as string;
      counts[answer] = (counts[answer] ?? 0) + 1;
    }
    for (const letter of LETTERS) {
      const expected = p[letter] as number;
      // Four standard errors of a binomial proportion (plus a floor for p ≈ 0): a true
      // estimator fails this with probability < 1e-4 per letter.
      const tolerance = 4 * Math.sqrt((expected * (1 - expected)) / K) + 1 / K;
      expect(Math.abs((counts[letter] as number) / K - expected)).toBeLessThanOrEqual(tolerance);
    }
    // The distribution of the answer position is the one letterProbabilities receives.
    const raw = await provider.answerDistribution(letterRequest(model, 0.7, 0));
    expect(raw.prefix).toBe('{"answer": "');
    expect(letterProbabilities({ lead: '', candidates: raw.candidates }, LETTERS, 0.7)).toEqual(p);
  });
});
