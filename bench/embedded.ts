/**
 * Embedded provider on the generated tiny model (2 layers, width 64, F32): requests per second
 * with 1 and 2 threads, and the cost of the logprobs churn estimator (one evaluation per item)
 * against K = 10 sampled answers on the same items. The model is tiny, so these figures
 * measure the fixed cost per request (template, tokenisation, grammar, sampler, thread
 * hand-offs), not matrix throughput; the load average is printed because other processes on
 * the machine change the 2-thread figure most.
 * Run: npx tsx bench/embedded.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedProvider } from '../src/providers/embedded/provider.js';
import type { ChatRequest } from '../src/providers/types.js';
import { letterDistribution } from '../test/providers/embedded/requests.js';
import { writeTinyGguf } from '../test/support/tinyGguf.js';

const LETTERS = ['A', 'B', 'C', 'D'];
const ITEMS = 12;
const SAMPLES = 10;

function item(model: string, index: number, temperature: number, seed: number): ChatRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'Answer with the letter of the correct choice.' },
      {
        role: 'user',
        content: `Question ${index}: which option fits best?\nA) first\nB) second\nC) third\nD) fourth`,
      },
    ],
    format: {
      type: 'object',
      properties: { answer: { type: 'string', enum: LETTERS } },
      required: ['answer'],
    },
    options: { temperature, seed, numCtx: 1024, numPredict: 32, think: false },
  };
}

function decision(model: string, turn: number): ChatRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'Reply with a move and your confidence that it is free.' },
      { role: 'user', content: `Turn ${turn}. Position row 3, column 4. Steps left: 8.` },
    ],
    format: {
      type: 'object',
      properties: {
        move: { type: 'string', enum: ['up', 'down', 'left', 'right', 'pass'] },
        confidence: { type: 'number', minimum: 0, maximum: 1 },
      },
      required: ['move', 'confidence'],
    },
    options: { temperature: 0, seed: 42, numCtx: 1024, numPredict: 64, think: false },
  };
}

async function timed(task: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-embedded-'));
const model = writeTinyGguf(join(dir, 'tiny.gguf'), { seed: 7 });
try {
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const threads of [1, 2]) {
    const provider = new EmbeddedProvider({
      timeoutMs: 120_000,
      threads,
      ollamaStore: join(dir, 'none'),
      baseDir: dir,
    });
    await provider.chat(item(model, 0, 0, 42)); // load + warm-up, not counted
    const letterMs = await timed(async () => {
      for (let i = 0; i < 40; i++) await provider.chat(item(model, i % ITEMS, 0.7, 1000 + i));
    });
    const moveMs = await timed(async () => {
      for (let i = 0; i < 20; i++) await provider.chat(decision(model, i));
    });
    const sampledMs = await timed(async () => {
      for (let i = 0; i < ITEMS; i++) {
        for (let k = 0; k < SAMPLES; k++) await provider.chat(item(model, i, 0.7, 1000 + k));
      }
    });
    const exactMs = await timed(async () => {
      for (let i = 0; i < ITEMS; i++)
        await letterDistribution(provider, item(model, i, 0.7, 0), LETTERS);
    });
    await provider.close();
    console.log(
      `threads ${threads}: letter answers ${((40 / letterMs) * 1000).toFixed(1)} req/s, ` +
        `move answers ${((20 / moveMs) * 1000).toFixed(1)} req/s; ` +
        `${ITEMS} items: K=${SAMPLES} sampling ${sampledMs.toFixed(0)} ms, exact ${exactMs.toFixed(0)} ms ` +
        `(exact costs ${((exactMs / sampledMs) * 100).toFixed(1)}% of sampling)`,
    );
  }
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
