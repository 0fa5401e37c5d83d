/**
 * Real llama.cpp inference (node-llama-cpp, prebuilt CPU binary) on a generated tiny model:
 * the model knows nothing, so these tests check the engine path — templates, grammars,
 * seeds, budgets, metadata — not answer quality. One thread: the suite runs test files in
 * parallel on few cores, and a llama.cpp thread pool wider than the free cores stalls.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedProvider } from '../../../src/providers/embedded/provider.js';
import { validateAnswer } from '../../../src/providers/embedded/schemaGrammar.js';
import { ProviderFailure } from '../../../src/providers/types.js';
import { bundled } from '../../support/bundled.js';
import { tinyParameterCount, writeTinyGguf } from '../../support/tinyGguf.js';
import {
  childRequests,
  LETTERS,
  letterRequest,
  letterSchema,
  moveRequest,
  moveSchema,
  personaRequest,
} from './requests.js';

const run = promisify(execFile);
let dir: string;
let model: string;
let provider: EmbeddedProvider;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'embedded-'));
  model = writeTinyGguf(join(dir, 'tiny.gguf'), { seed: 7 });
  provider = new EmbeddedProvider({
    timeoutMs: 60_000,
    threads: 1,
    ollamaStore: join(dir, 'no-store'),
    baseDir: dir,
  });
});

afterAll(async () => {
  await provider.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('embedded provider on a generated model', () => {
  it('answers a churn series with a valid letter every time', async () => {
    for (let k = 0; k < 12; k++) {
      const response = await provider.chat(letterRequest(model, 0.7, 1000 + k));
      const parsed: unknown = JSON.parse(response.content);
      expect(validateAnswer(parsed, letterSchema)).toEqual([]);
      expect(LETTERS).toContain((parsed as { answer: string }).answer);
      expect(response.doneReason).toBe('stop');
      expect(response.promptTokens).toBeGreaterThan(20);
    }
  });

  it('answers dragon decisions with a move and a confidence inside [0, 1]', async () => {
    for (let turn = 1; turn <= 8; turn++) {
      const response = await provider.chat(
        moveRequest(model, turn % 2 === 0 ? 0 : 0.7, turn, turn),
      );
      const parsed = JSON.parse(response.content) as { move: string; confidence: number };
      expect(validateAnswer(parsed, moveSchema)).toEqual([]);
      // The bounded grammar writes at most six decimals and never an exponent.
      expect(response.content).toMatch(/"confidence": (0(\.\d{1,6})?|1(\.0{1,6})?)\}$/);
    }
  });

  it('answers persona probes in free text within the token budget', async () => {
    for (let seed = 0; seed < 3; seed++) {
      const response = await provider.chat(personaRequest(model, 0.3, seed));
      expect(response.content.length).toBeGreaterThan(0);
      expect(response.completionTokens).toBeLessThanOrEqual(24);
      expect(['stop', 'length']).toContain(response.doneReason);
    }
  });

  it('repeats a seeded answer at temperature 0.7 and varies across seeds', async () => {
    const first = await provider.chat(moveRequest(model, 0.7, 123, 5));
    await provider.chat(personaRequest(model, 0.3, 1)); // something else in between
    const again = await provider.chat(moveRequest(model, 0.7, 123, 5));
    expect(again.content).toBe(first.content);
    // Up to 30 seeds, stopping at the first answer that differs: all 30 alike still fails.
    const answers = new Set<string>();
    for (let seed = 0; seed < 30 && answers.size < 2; seed++) {
      answers.add((await provider.chat(letterRequest(model, 0.7, seed))).content);
    }
    expect(answers.size).toBeGreaterThan(1);
  });

  it('gives the same answers at temperature 0 in two separate processes', async () => {
    // A fresh process that shares nothing with this one but the model file, against this
    // process, which has answered other requests before: one child is enough to compare two
    // processes, and each child costs seconds of CPU (node, the native library, its self-test).
    const script = join(import.meta.dirname, 'answerInChild.ts');
    const { stdout } = await run(process.execPath, [bundled(script), model], {
      cwd: process.cwd(),
    });
    const child = JSON.parse(stdout) as string[];
    expect(child).toHaveLength(4);
    const here: string[] = [];
    for (const request of childRequests(model)) here.push((await provider.chat(request)).content);
    expect(here).toEqual(child);
  });

  it('describes the model from the file: digest, F32, parameter count, architecture', async () => {
    const meta = await provider.describe(model);
    expect(meta.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(meta.quantization).toBe('F32');
    expect(meta.family).toBe('llama');
    // 109,504 weights: 370 tokens × 64 + 64 + 2 × (2·64 + 4·64² + 3·64·128) (see tinyGguf.ts).
    expect(tinyParameterCount()).toBe(109_504);
    expect(meta.parameterSize).toBe('109.50K');
    expect(meta.simulated).toBe(false);
    expect(await provider.loadedModels()).toEqual([model]);
  });

  it('fails clearly on a missing file, a missing tag, and a prompt longer than num_ctx', async () => {
    await expect(provider.describe(join(dir, 'absent.gguf'))).rejects.toMatchObject({
      kind: 'model-missing',
    });
    await expect(provider.chat(letterRequest('qwen2.5:7b', 0, 1))).rejects.toThrow(
      /ollama pull qwen2.5:7b/,
    );
    const long = letterRequest(model, 0, 1, 'x '.repeat(700));
    const failure = await provider.chat(long).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect((failure as ProviderFailure).kind).toBe('bad-request');
    // The provider still works after a failure.
    expect(JSON.parse((await provider.chat(letterRequest(model, 0, 42))).content)).toHaveProperty(
      'answer',
    );
  });

  it('times out a request that waits too long and classifies it as timeout', async () => {
    const failure = await provider
      .chat(personaRequest(model, 0.3, 1), undefined, 1)
      .catch((e: unknown) => e);
    expect((failure as ProviderFailure).kind).toBe('timeout');
  });
});
