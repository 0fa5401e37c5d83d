/**
 * How long a series lasts when maze games' estimates are wrong. The server here answers in
 * rounds: every call in flight is answered at once, then the runner sends what it sends next,
 * so a series' length in rounds is exact and does not depend on the machine's load.
 */
import { describe, expect, it } from 'vitest';
import type { WorkUnit } from '../../src/checks/workUnit.js';
import type { ChatRequest, ChatResponse, Provider } from '../../src/providers/types.js';
import { runPlan } from '../../src/runner/run.js';
import { PROBE_OPTIONS } from './probe.js';
import { tempLog } from './simulated.js';

const MODEL = 'rounds:1b';
const SLOTS = 4;

/** A server with SLOTS slots that answers in rounds; counts rounds and the most calls in flight. */
class RoundServer implements Provider {
  readonly info = { provider: 'ollama' as const, host: 'rounds', version: null, simulated: true };
  private pending: (() => void)[] = [];
  rounds = 0;
  mostInFlight = 0;
  /** Keys of the calls answered in the first round. */
  firstRound: string[] = [];

  chat(request: ChatRequest): Promise<ChatResponse> {
    if (this.rounds === 0) this.firstRound.push(request.messages[0]?.content ?? '');
    return new Promise((resolve) => {
      this.pending.push(() =>
        resolve({
          content: '{}',
          thinking: null,
          doneReason: 'stop',
          promptTokens: 1,
          completionTokens: 1,
          latencyMs: 1,
        }),
      );
      this.mostInFlight = Math.max(this.mostInFlight, this.pending.length);
    });
  }

  /** Lets the runner send every call it has ready, then answers them all. */
  async round(): Promise<void> {
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    const answering = this.pending;
    this.pending = [];
    if (answering.length > 0) this.rounds++;
    for (const answer of answering) answer();
  }

  describe = async (model: string) => ({
    model,
    digest: null,
    quantization: null,
    parameterSize: null,
    family: null,
    simulated: true,
  });
  version = async () => null;
  loadedModels = async () => null;
  embed = async () => [];
}

/** A unit of `calls` calls one after another, whose estimate says `estimate`. */
function unit(key: string, calls: number, estimate: number): WorkUnit {
  return {
    check: calls > 1 ? 'dragon' : 'churn',
    model: MODEL,
    key,
    expectedCalls: calls > 1 ? 300 : 1,
    estimatedCalls: estimate,
    isComplete: () => false,
    async execute(ctx) {
      for (let i = 0; i < calls; i++) {
        await ctx.call({
          request: {
            model: MODEL,
            messages: [{ role: 'user', content: key }],
            options: PROBE_OPTIONS,
          },
          promptSha256: key,
        });
      }
    },
  };
}

async function rounds(units: WorkUnit[]): Promise<RoundServer> {
  const server = new RoundServer();
  let done = false;
  const run = runPlan({
    provider: server,
    units,
    models: [MODEL],
    logPath: tempLog(),
    concurrency: SLOTS,
    warmup: false,
  }).finally(() => {
    done = true;
  });
  while (!done) await server.round();
  await run;
  return server;
}

describe('maze games against single calls in one series', () => {
  // The demo baseline's game lengths, each estimated as the shortest and the shortest as the
  // longest (the estimates come from a random player, not from the model that plays), and
  // 200 single calls: 1,502 calls, at best max(1,502 / 4, 300) = 376 rounds.
  const lengths = [300, 300, 236, 128, 98, 89, 76, 41, 17, 17];
  const units = [
    ...lengths.map((n, i) => unit(`game-${i}`, n, 400 - n)),
    ...Array.from({ length: 200 }, (_, i) => unit(`single-${i}`, 1, 1)),
  ];

  it('ends within 3% of the best order, whatever the estimates', async () => {
    const server = await rounds(units);
    // Started in the order of the estimates, one game per slot until it ends, the two games
    // of 300 would start at rounds 106 and 115 and end at 415: 0.906 of the best. Taking
    // turns, the games all reach 98 moves at round 182.5 (730 moves over 4 slots), the game
    // of 128 ends 30 rounds later, and the two of 300 end 172 rounds after that: 385, 0.977.
    expect(server.rounds).toBe(385);
    expect(server.mostInFlight).toBe(SLOTS);
  });

  it('starts the games before any single call', async () => {
    const server = await rounds(units);
    expect(server.firstRound.sort()).toEqual(['game-6', 'game-7', 'game-8', 'game-9']);
  });
});
