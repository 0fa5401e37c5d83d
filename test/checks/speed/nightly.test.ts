import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../src/checks/builtIn.js';
import { nightlyOf } from '../../../src/checks/list.js';
import type { DecodeDropAnalysis } from '../../../src/checks/speed/nightlyChart.js';
import { configSchema } from '../../../src/config/schema.js';
import type { HistoryEntry } from '../../../src/history/entry.js';
import { parseHistory } from '../../../src/history/file.js';
import { renderHistorySection } from '../../../src/history/render.js';
import { historySection } from '../../../src/history/section.js';
import { trendCharts, trendSentences } from '../../../src/history/trend.js';

const config = configSchema(CHECKS).parse({
  models: { baseline: 'night:1b' },
  checks: ['speed'],
  output: { history: 'history.jsonl' },
});

function night(day: number, rate: number | null): HistoryEntry {
  return {
    v: 1,
    date: new Date(Date.UTC(2026, 10, day, 3)).toISOString(),
    commit: null,
    model: 'night:1b',
    digest: 'a'.repeat(64),
    verdict: 'pass',
    ece: null,
    brier: null,
    knownWallRate: null,
    personaAccuracy: null,
    churnAccuracy: null,
    ...(rate === null ? {} : { decodeTokensPerSecond: rate, vramMib: 4096 }),
  };
}

function tonightAgainst(rates: readonly (number | null)[], tonight: number) {
  return historySection({
    checks: CHECKS,
    prior: rates.map((rate, i) => night(i + 1, rate)),
    tonight: night(rates.length + 1, tonight),
    config,
    file: 'history.jsonl',
    appended: true,
  });
}

describe('speed in nightly runs: rule decode-drop', () => {
  // The previous nights' median is 50 tokens/s; the limit (default) is a 25% drop: 37.5.
  const previous = [50, 52, 48, 51, 49];

  it('fails a night decoding 28% slower than the median of the previous nights', () => {
    const { findings, rules, section } = tonightAgainst(previous, 36);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ check: 'speed', rule: 'decode-drop', severity: 'fail' });
    expect(findings[0]?.message).toContain(
      '36 tokens/s tonight, 28.0% below 50, the median of the previous 5 nights',
    );
    expect((section.decodeDrop as DecodeDropAnalysis).drop).toBeCloseTo(0.28, 10);
    expect(rules[0]).toMatchObject({ rule: 'decode-drop', outcome: 'fail' });
  });

  it('passes a night 20% slower, and one faster', () => {
    expect(tonightAgainst(previous, 40).findings[0]?.severity).toBe('info');
    const faster = tonightAgainst(previous, 60).findings[0];
    expect(faster?.severity).toBe('info');
    expect(faster?.message).toContain('20.0% above 50');
  });

  it('takes the median of the last history.drift-nights nights with a rate', () => {
    // Seven fast nights long ago, then seven at 30 tokens/s (nights without the check skipped):
    // tonight at 28 is measured against 30, not against the old rate.
    const rates = [...Array(7).fill(80), ...Array(7).fill(30), null, null];
    const { findings, section } = tonightAgainst(rates, 28);
    expect((section.decodeDrop as DecodeDropAnalysis).median).toBe(30);
    expect((section.decodeDrop as DecodeDropAnalysis).nights).toBe(7);
    expect(findings[0]?.severity).toBe('info');
  });

  it('waits for three previous nights with a rate, and is silent on a night without the check', () => {
    const early = tonightAgainst([50, null, 50], 10);
    expect(early.findings[0]?.severity).toBe('info');
    expect(early.findings[0]?.message).toContain('2 of the 3 previous nights');
    expect(early.rules[0]?.outcome).toBe('not-evaluated');
    const without = historySection({
      checks: CHECKS,
      prior: previous.map((rate, i) => night(i + 1, rate)),
      tonight: night(6, null),
      config,
      file: 'history.jsonl',
      appended: true,
    });
    expect(without.findings).toEqual([]);
    // report.html's history part says nothing of a rule whose check did not run tonight.
    expect(trendSentences(without.section, CHECKS)).not.toContain('Decode rate');
    expect(trendSentences(tonightAgainst(previous, 36).section, CHECKS)).toContain(
      'Decode rate tonight 36 tokens/s, 28.0% below the median of the previous 5 nights (50; fails more than 25% below the median of the previous nights): the rule failed.',
    );
  });

  it('writes the median decode rate and GPU memory on the line, nothing without the check', () => {
    const speed = {
      check: 'speed',
      models: [
        {
          model: 'night:1b',
          decodeTokensPerSecond: { n: 90, median: 47.5, p90: 40, p99: 35 },
          residency: { vramMib: 5120, offloadedShare: 0, readings: 1 },
        },
      ],
    };
    expect(nightlyOf(CHECKS, { speed })).toMatchObject({
      decodeTokensPerSecond: 47.5,
      vramMib: 5120,
    });
    expect(Object.keys(nightlyOf(CHECKS, {}))).not.toContain('decodeTokensPerSecond');
  });

  it('reads lines written before the check and refuses an impossible rate', () => {
    const old = JSON.stringify(night(1, null));
    const lines = [old, JSON.stringify(night(2, 50))].join('\n');
    expect(parseHistory(lines, 'h.jsonl', CHECKS).map((n) => n.decodeTokensPerSecond)).toEqual([
      undefined,
      50,
    ]);
    const bad = JSON.stringify({ ...night(3, 50), decodeTokensPerSecond: -4 });
    expect(() => parseHistory(bad, 'h.jsonl', CHECKS)).toThrow('h.jsonl line 1');
  });

  it('shows both numbers in the history table', () => {
    const markdown = renderHistorySection(tonightAgainst(previous, 36).section, CHECKS);
    expect(markdown).toContain('| decode tokens/s | GPU MiB |');
    expect(markdown).toMatch(/\| 36 \| 4096 \| pass \|/);
  });

  it('draws each night’s rate, the failing limit, and tonight’s failure in words', () => {
    const speedTrend = (rates: (number | null)[], tonight: number) =>
      trendCharts(tonightAgainst(rates, tonight).section, CHECKS)
        .find((t) => t.check === 'speed')
        ?.draw();
    const [chart] = speedTrend([...previous, null], 36) ?? [];
    expect(chart?.file).toBe('history-decode-trend.svg');
    expect(chart?.svg.match(/<circle /g)).toHaveLength(6);
    expect(chart?.svg).toContain('stroke-dasharray="6 4"');
    expect(chart?.svg).toContain('25% below the median of the previous nights (50)');
    expect(chart?.svg).toContain('(orange: it failed)');
    expect(speedTrend([null, null], 40)?.[0]?.svg).toContain('not compared yet');
  });
});
