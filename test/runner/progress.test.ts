import { describe, expect, it } from 'vitest';
import { createProgress, formatDuration, formatProgress } from '../../src/runner/progress.js';
import { runPlan } from '../../src/runner/run.js';
import { probeUnits } from './probe.js';
import { ollamaFor, simulate, tempLog } from './simulated.js';

function recorder() {
  const written: string[] = [];
  return { written, stream: { write: (text: string) => written.push(text) } };
}

describe('progress', () => {
  it('formats done/total, rate and time left', () => {
    // 100 of 400 calls in 50 s: 2 calls/s, 300 left → 150 s = 2m30s.
    const exact = { done: 100, likely: 400, most: 400 };
    expect(formatProgress(exact, 50_000, 'qwen2.5:7b')).toBe(
      'model-gate: 100/400 calls (25%), 2.0/s, about 2m30s left, qwen2.5:7b',
    );
    expect(formatProgress({ done: 0, likely: 10, most: 10 }, 0, '')).toBe(
      'model-gate: 0/10 calls (0%)',
    );
    // Bounded, not known: the bound is the total, the likely count sets the time left.
    expect(formatProgress({ done: 100, likely: 400, most: 9600 }, 50_000, 'm')).toBe(
      'model-gate: 100 of up to 9600 calls (about 400 expected), 2.0/s, about 2m30s left, m',
    );
    // More calls than estimated: the likely count follows them, the total stays.
    expect(formatProgress({ done: 12, likely: 10, most: 300 }, 1000, '')).toBe(
      'model-gate: 12 of up to 300 calls, 12/s',
    );
    expect(formatDuration(3725)).toBe('1h02m');
  });

  it('prints a plain line at most every 10 s in CI logs, and once at the end', () => {
    let clock = 0;
    const { written, stream } = recorder();
    const progress = createProgress({ stream, interactive: false, now: () => clock });
    progress.start(100);
    for (let i = 0; i < 30; i++) {
      clock += 1000; // one call per second
      progress.advance('m');
    }
    progress.finish();
    // The plan at the start, lines at 10 s, 20 s and 30 s, and the final one.
    expect(written).toHaveLength(5);
    expect(written.every((w) => w.endsWith('\n') && !w.includes('\r'))).toBe(true);
    expect(written[0]).toBe('model-gate: 0/100 calls (0%)\n');
    expect(written[1]).toBe('model-gate: 10/100 calls (10%), 1.0/s, about 1m30s left, m\n');
  });

  it('redraws one line in a terminal and ends it with a newline', () => {
    let clock = 0;
    const { written, stream } = recorder();
    const progress = createProgress({ stream, interactive: true, now: () => clock, redrawMs: 100 });
    progress.start(3);
    for (let i = 0; i < 3; i++) {
      clock += 200;
      progress.advance('m');
    }
    progress.finish();
    expect(written.slice(0, -1).every((w) => w.startsWith('\r') && w.endsWith('\x1b[K'))).toBe(
      true,
    );
    expect(written.at(-1)).toBe('\n');
    expect(written).toHaveLength(6);
  });

  it('keeps its total when units make fewer calls than their upper bound (maze games)', async () => {
    const sim = await simulate('models:\n  - name: base:1b\n    probe: {}\n');
    try {
      const { written, stream } = recorder();
      // Each unit expects up to 5 calls (like a game's bound) and makes 1: 3 calls, not 15.
      const units = probeUnits('base:1b', 3).map((u) => ({ ...u, expectedCalls: 5 }));
      await runPlan({
        provider: ollamaFor(sim),
        units,
        models: ['base:1b'],
        logPath: tempLog(),
        warmup: false,
        progress: createProgress({ stream, interactive: false }),
      });
      expect(written[0]).toBe('model-gate: 0/15 calls (0%)\n');
      expect(written.at(-1)).toMatch(/^model-gate: 3 of up to 15 calls, [\d.]+\/s, base:1b\n$/);
    } finally {
      await sim.close();
    }
  });

  it('counts to the upper bound, times by the estimate, and a resumed run with nothing left says so once', async () => {
    const sim = await simulate('models:\n  - name: base:1b\n    probe: {}\n');
    try {
      const logPath = tempLog();
      const first = recorder();
      // Bound 300 (a game's), estimate 2 each, 1 call made each: the first line plans 6 calls.
      const units = probeUnits('base:1b', 3).map((u) => ({
        ...u,
        expectedCalls: 300,
        estimatedCalls: 2,
      }));
      const run = () =>
        runPlan({
          provider: ollamaFor(sim),
          units,
          models: ['base:1b'],
          logPath,
          warmup: false,
          progress: createProgress({ stream: again.stream, interactive: false }),
        });
      let again = first;
      await run();
      expect(first.written[0]).toBe('model-gate: 0 of up to 900 calls (about 6 expected)\n');
      expect(first.written.at(-1)).toMatch(
        /^model-gate: 3 of up to 900 calls, [\d.]+\/s, base:1b\n$/,
      );
      again = recorder();
      await run();
      expect(again.written).toEqual([
        'model-gate: nothing to ask: every call of the plan is in the sample log\n',
      ]);
    } finally {
      await sim.close();
    }
  });

  it('keeps its total when a unit makes more calls than estimated', () => {
    const { written, stream } = recorder();
    const progress = createProgress({ stream, interactive: false, intervalMs: 0 });
    progress.start(2, 10);
    for (let i = 0; i < 3; i++) progress.advance('m');
    progress.shrink?.(2 - 3);
    progress.finish();
    expect(written[0]).toBe('model-gate: 0 of up to 10 calls (about 2 expected)\n');
    expect(written.at(-1)).toMatch(/^model-gate: 3 of up to 10 calls, [\d.]+\/s, m\n$/);
  });
});

describe('the estimate of a maze game', () => {
  it('is the number of decisions the random reference player makes on that maze', async () => {
    const { estimatedDecisions } = await import('../../src/checks/dragon/plan.js');
    const { playReferenceGames } = await import('../../src/checks/dragon/players.js');
    const replayed = playReferenceGames('random', [3], 40).filter((r) => r.kind === 'call');
    expect(estimatedDecisions(3, 40)).toBe(replayed.length);
    // Far below the 300-decision bound the total used to start from.
    expect(estimatedDecisions(3, 40)).toBeLessThan(300);
    expect(estimatedDecisions(3, 40)).toBeGreaterThan(0);
  });
});
