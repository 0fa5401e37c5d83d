import { describe, expect, it } from 'vitest';
import { dragonDefinitions } from '../../../src/checks/dragon/definitions.js';
import { planDragon } from '../../../src/checks/dragon/plan.js';
import { dragonSettingsSchema } from '../../../src/checks/dragon/settings.js';
import { InputError } from '../../../src/errors.js';
import type { ChatOptions } from '../../../src/providers/types.js';
import type { SampleRecord } from '../../../src/sampleLog/index.js';
import type { CallOutcome, CallSpec, UnitContext } from '../../../src/checks/workUnit.js';
import { dragonBehaviour } from '../../../src/simulator/behaviours/dragon.js';
import type { DragonCallRecord } from '../../../src/checks/dragon/records.js';

const OPTIONS: ChatOptions = {
  temperature: 0,
  seed: 42,
  numCtx: 4096,
  numPredict: 64,
  think: false,
};
const definitions = dragonDefinitions(dragonSettingsSchema.parse({ seeds: [2, 5] }));

type Answerer = (spec: CallSpec, index: number) => CallOutcome;

/** The simulator's careful player behind a fake runner context. */
const careful: Answerer = (spec) => ({
  status: 'ok',
  attempts: 1,
  latencyMs: 12,
  response: {
    content:
      dragonBehaviour.answer(
        {
          model: spec.request.model,
          system: spec.request.messages[0]?.content ?? null,
          user: spec.request.messages[1]?.content ?? '',
          format: spec.request.format ?? null,
          temperature: 0,
          seed: 42,
        },
        { policy: 'careful' },
      ) ?? '',
    thinking: null,
    doneReason: 'stop',
    promptTokens: 300,
    completionTokens: 12,
    latencyMs: 12,
  },
});

async function runUnit(seed: number, answer: Answerer, prior: SampleRecord[] = []) {
  const unit = planDragon(definitions, 'sim:careful', OPTIONS).find(
    (u) => u.key === `dragon/seed-${seed}`,
  );
  if (!unit) throw new Error('no unit');
  const emitted: SampleRecord[] = [];
  const specs: CallSpec[] = [];
  const ctx: UnitContext = {
    prior,
    digest: 'abc',
    call: async (spec) => {
      specs.push(spec);
      return answer(spec, specs.length - 1);
    },
    emit: async (record) => {
      emitted.push(record);
    },
    signal: new AbortController().signal,
  };
  await unit.execute(ctx);
  return { unit, emitted, specs };
}

describe('a game as a work unit', () => {
  it('plays to the end with stateless requests and writes every decision, then the game', async () => {
    const { unit, emitted, specs } = await runUnit(2, careful);
    expect(unit.model).toBe('sim:careful');
    const game = emitted.at(-1);
    expect(game?.kind).toBe('game');
    const calls = emitted.slice(0, -1) as DragonCallRecord[];
    expect(calls).toHaveLength(specs.length);
    expect(calls.map((c) => c.decision)).toEqual(calls.map((_, i) => i));
    for (const spec of specs) {
      expect(spec.request.messages).toHaveLength(2);
      expect(spec.promptSha256).toBe(definitions.promptSha256);
      expect(spec.request.format).toBeDefined();
    }
    expect(calls[0]).toMatchObject({
      prompt_sha256: definitions.promptSha256,
      digest: 'abc',
      options: { temperature: 0, seed: 42, num_ctx: 4096, num_predict: 64, think: false },
      prompt_tokens: 300,
      completion_tokens: 12,
      latency_ms: 12,
      game: 2,
    });
    // The careful player never walks into a wall it knows.
    expect(calls.some((c) => c.outcome === 'known_wall')).toBe(false);
    expect(unit.isComplete(emitted)).toBe(true);
    expect(unit.isComplete(calls)).toBe(false);
  });

  it('resumes from the log: replays the logged decisions and continues to the same game', async () => {
    const whole = await runUnit(5, careful);
    // Cut the game in the middle of its decisions (the last record is the game record).
    const cut = Math.floor((whole.emitted.length - 1) / 2);
    expect(cut).toBeGreaterThan(5);
    const logged = whole.emitted.slice(0, cut);
    const resumed = await runUnit(5, careful, logged);
    expect(resumed.specs).toHaveLength(whole.specs.length - cut);
    expect([...logged, ...resumed.emitted]).toEqual(whole.emitted);
  });

  it('does nothing when the game is already in the log', async () => {
    const whole = await runUnit(5, careful);
    const again = await runUnit(5, careful, whole.emitted);
    expect(again.specs).toHaveLength(0);
    expect(again.emitted).toHaveLength(0);
  });

  it('stops with a clear error when the log does not replay (another maze)', async () => {
    const whole = await runUnit(5, careful);
    const tampered = (whole.emitted as DragonCallRecord[])
      .slice(0, 10)
      .map(
        (r): DragonCallRecord =>
          r.decision === 3 ? { ...r, outcome: r.outcome === 'wall' ? 'moved' : 'wall' } : r,
      );
    const attempt = runUnit(5, careful, tampered);
    await expect(attempt).rejects.toThrow(InputError);
    await expect(runUnit(5, careful, tampered)).rejects.toThrow(/seed 5, decision 3/);
  });

  it('invalid answers and timeouts act as pass; a timeout is never counted invalid', async () => {
    const script: Answerer = (spec, index) => {
      if (index === 0)
        return {
          ...careful(spec, index),
          response: { ...careful(spec, index).response!, content: '{"move":"up","confidence":2}' },
        };
      if (index === 1)
        return {
          status: 'timeout',
          response: null,
          attempts: 2,
          latencyMs: 60000,
          reason: 'no answer in 30 s, twice',
        };
      return careful(spec, index);
    };
    const { emitted } = await runUnit(2, script);
    const [first, second, third] = emitted as DragonCallRecord[];
    expect(first).toMatchObject({
      status: 'invalid',
      move: 'pass',
      confidence: null,
      outcome: 'pass',
      turn: 1,
    });
    expect(first?.reason).toContain('outside 0..1');
    expect(second).toMatchObject({
      status: 'timeout',
      move: 'pass',
      confidence: null,
      outcome: 'pass',
      turn: 2,
      attempts: 2,
    });
    expect(third).toMatchObject({ status: 'ok', turn: 3 });
  });

  it('stops a game after 10 invalid answers in a row: a never-valid model costs 10 calls a game', async () => {
    const never: Answerer = (spec, index) => ({
      ...careful(spec, index),
      response: { ...careful(spec, index).response!, content: 'I would go up, surely.' },
    });
    for (const seed of [2, 5]) {
      const { emitted, specs } = await runUnit(seed, never);
      expect(specs).toHaveLength(10);
      const game = emitted.at(-1);
      expect(game).toMatchObject({ kind: 'game', result: 'invalid', capped: false, decisions: 10 });
    }
    // Valid answers between invalid ones reset the run; a timeout neither counts nor resets.
    const mixed: Answerer = (spec, index) => {
      if (index === 9)
        return { status: 'timeout', response: null, attempts: 2, latencyMs: 1, reason: 'slow' };
      if (index < 15) return never(spec, index);
      return careful(spec, index);
    };
    const { emitted } = await runUnit(2, mixed);
    expect(emitted.at(-1)).toMatchObject({ kind: 'game', result: 'invalid', decisions: 11 });
    // A resumed game replays to the same stop and asks nothing more.
    const whole = await runUnit(5, never);
    const again = await runUnit(5, never, whole.emitted.slice(0, 6));
    expect(again.specs).toHaveLength(4);
    expect([...whole.emitted.slice(0, 6), ...again.emitted]).toEqual(whole.emitted);
  });
});
