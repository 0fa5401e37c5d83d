/**
 * Thirty simulated nights of the production model: calibrated until night 19, then drifting
 * toward overconfidence from night 20, re-pulled (new digest, same behaviour) on night 12.
 * The drift rule must fail at the drift and not before; the trend chart marks the re-pull.
 *
 * The two ends are the simulator's own numbers (fixtures/simulator/demo.yml, dragon seeds
 * 0–9, bootstrap 1000, one model per run): demo-base:1b plays `careful`, demo-cand:1b plays
 * `overconfident`. Night-to-night noise is drawn from each night's interval.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../../src/history/entry.js';
import { parseHistory } from '../../src/history/file.js';
import { renderHistorySection } from '../../src/history/render.js';
import { historySection } from '../../src/history/section.js';
import { trendCharts } from '../../src/history/trend.js';
import { configSchema } from '../../src/config/schema.js';
import { DRIFT_DEFAULTS } from '../../src/config/history.js';
import type { DriftAnalysis } from '../../src/checks/dragon/drift.js';
import { createRng } from '../../src/stats/prng.js';

const CAREFUL = { value: 0.000437, low: 0.001022, high: 0.018153 };
const OVERCONFIDENT = { value: 0.372018, low: 0.296851, high: 0.422064 };
const DRIFT_FROM = 20;
const REPULL_AT = 12;

function nights(count: number, seed: number): HistoryEntry[] {
  const rng = createRng(seed);
  const gaussian = () =>
    Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const lerp = (a: number, b: number, t: number) => a + (b - a) * t;
  return Array.from({ length: count }, (_, i) => {
    const night = i + 1;
    const t = night < DRIFT_FROM ? 0 : Math.min(1, (night - DRIFT_FROM + 1) / 10);
    const low = lerp(CAREFUL.low, OVERCONFIDENT.low, t);
    const high = lerp(CAREFUL.high, OVERCONFIDENT.high, t);
    const shift = ((high - low) / 3.92) * gaussian();
    const value = Math.max(0, lerp(CAREFUL.value, OVERCONFIDENT.value, t) + shift);
    return {
      v: 1,
      date: new Date(Date.UTC(2026, 9, night, 3, 17)).toISOString(),
      commit: `c0ffee${String(night).padStart(2, '0')}`,
      model: 'demo-base:1b',
      digest: (night < REPULL_AT ? 'a' : 'b').repeat(64),
      verdict: 'pass',
      ece: { value, low: Math.max(0, low + shift), high: high + shift },
      brier: lerp(0.089, 0.382, t),
      knownWallRate: 0,
      personaAccuracy: null,
      churnAccuracy: null,
    } satisfies HistoryEntry;
  });
}

/** A nightly config keeping a history: the drift rule at its default level. */
const config = configSchema(CHECKS).parse({
  models: { baseline: 'demo-base:1b' },
  output: { history: 'history.jsonl' },
  history: { show: 30 },
});

function evaluate(history: HistoryEntry[]) {
  return history.map((tonight, i) =>
    historySection({
      checks: CHECKS,
      prior: history.slice(0, i),
      tonight,
      config,
      file: 'history.jsonl',
      appended: true,
    }),
  );
}

describe('a 30-night history drifting from night 20', () => {
  const history = nights(30, 7);
  const results = evaluate(history);
  const fired = results.map((r) => (r.section.drift as DriftAnalysis).fired);

  it('fails the drift rule at the drift, not before', () => {
    const first = fired.indexOf(true) + 1;
    expect(fired.slice(0, DRIFT_FROM - 1)).not.toContain(true);
    expect(first).toBeGreaterThanOrEqual(DRIFT_FROM);
    expect(first).toBeLessThanOrEqual(DRIFT_FROM + 3);
    // Once the model has drifted, it keeps failing while the window holds the rise.
    expect(fired.slice(first - 1, 29)).not.toContain(false);
    const finding = results[first - 1]?.findings[0];
    expect(finding?.severity).toBe('fail');
    expect(finding?.rule).toBe('ece-drift');
    expect(finding?.message).toMatch(
      /False-alarm rate with these nights' noise: (below )?\d+\.\d+% per night/,
    );
  });

  it("tests at the drift rule's default level, its part of the dragon share", () => {
    expect(results.map((r) => (r.section.drift as DriftAnalysis).alpha)).toEqual(
      results.map(() => DRIFT_DEFAULTS.alpha),
    );
  });

  it('is quiet, with a stated rate, on the nights before', () => {
    const night19 = results[18];
    expect(night19?.findings[0]?.severity).toBe('info');
    expect((night19?.section.drift as DriftAnalysis | undefined)?.falseAlarmRate).toBeLessThan(
      0.02,
    );
  });

  it('never fires on other noise draws of the 19 calibrated nights', () => {
    for (const seed of [1, 2, 3]) {
      const calm = evaluate(nights(DRIFT_FROM - 1, seed));
      expect(calm.map((r) => (r.section.drift as DriftAnalysis).fired)).not.toContain(true);
    }
  });

  it('marks the re-pulled digest in the table and the trend chart', () => {
    const last = results[29]?.section;
    if (!last) throw new Error('no section');
    expect(last.nights).toHaveLength(30);
    expect(last.nights.filter((n) => n.rePulled).map((n) => n.date.slice(0, 10))).toEqual([
      '2026-10-12',
    ]);
    const markdown = renderHistorySection(last, CHECKS);
    expect(markdown).toContain('model re-pulled');
    expect(markdown.split('\n').filter((l) => l.startsWith('| 2026-10-'))).toHaveLength(30);
    const trends = trendCharts(last, CHECKS);
    expect(trends.map((t) => t.check)).toEqual(['dragon', 'speed']);
    // Nights without a decode rate draw no speed trend.
    expect(trends[1]?.draw()).toEqual([]);
    const chart = trends[0]?.draw()[0];
    expect(chart?.file).toBe('history-ece-trend.svg');
    expect(chart?.svg.match(/<circle /g)).toHaveLength(30);
    expect(chart?.svg).toContain('model re-pulled');
    expect(chart?.svg).toContain('FAIL');
    // Colour is never the only cue, and never red against green: the failed window and the
    // re-pull are orange and say so in words.
    expect(chart?.svg).not.toMatch(/#(c0392b|fbe3e0|d92d20|12b76a|b42318|067647)/i);
    expect(chart?.svg).toContain('#E69F00');
    expect(chart?.svg).toContain('(orange: it failed)');
  });

  it('reads back what it would append', () => {
    const text = history.map((e) => JSON.stringify(e)).join('\n');
    expect(parseHistory(text, 'history.jsonl', CHECKS)).toEqual(history);
  });
});

describe('a re-analysis of a night already in the history', () => {
  it('does not count that night twice', () => {
    const history = nights(8, 11);
    const tonight = { ...(history.at(-1) as HistoryEntry), date: '2026-12-01T00:00:00.000Z' };
    const reread = historySection({
      checks: CHECKS,
      prior: history,
      tonight,
      config,
      file: 'history.jsonl',
      appended: false,
    });
    expect(reread.section.total).toBe(8);
    const appended = historySection({
      checks: CHECKS,
      prior: history,
      tonight,
      config,
      file: 'history.jsonl',
      appended: true,
    });
    expect(appended.section.total).toBe(9);
  });
});

describe('a second run on the same night', () => {
  it('replaces that night: the drift rule counts nights, not runs', () => {
    const history = nights(3, 5);
    const last = history.at(-1) as HistoryEntry;
    // Re-run three hours later, same UTC day, with other numbers: still three nights.
    const rerun = { ...last, date: '2026-10-03T06:17:00.000Z', brier: 0.1 };
    const result = historySection({
      checks: CHECKS,
      prior: history,
      tonight: rerun,
      config,
      file: 'history.jsonl',
      appended: true,
    });
    expect(result.section.total).toBe(3);
    expect(result.section.nights.map((n) => n.date)).toEqual([
      history[0]?.date,
      history[1]?.date,
      '2026-10-03T06:17:00.000Z',
    ]);
    expect((result.section.drift as DriftAnalysis).available).toBe(3);
    expect(result.findings[0]?.message).toContain('3 of the 7 nights');
  });
});
