import { describe, expect, it } from 'vitest';
import { renderSpeedSection, speedGlance } from '../../../src/checks/speed/report.js';
import type { SpeedSection, Spread } from '../../../src/checks/speed/section.js';
import { speedRules } from '../../../src/checks/speed/gate.js';

const spread = (median: number, p90: number, p99: number): Spread => ({ n: 10, median, p90, p99 });
const none: Spread = { n: 0, median: null, p90: null, p99: null };
const figures = (model: string, decode: number) => ({
  model,
  timed: 10,
  decodeTokensPerSecond: spread(decode, decode * 0.9, decode * 0.8),
  promptTokensPerSecond: spread(2000, 1800, 1500),
  firstTokenMs: none,
  outputTokens: spread(120, 200, 250),
  wallMs: spread(2500, 4000, 5000),
  residency: {
    vramMib: decode > 40 ? 4096 : 6144,
    offloadedShare: decode > 40 ? 0 : 0.4,
    readings: 4,
  },
});

const section: SpeedSection = {
  check: 'speed',
  notice: null,
  untimed: 2,
  excluded: 1,
  models: [figures('base:1b', 50), figures('cand:1b', 33.3)],
  comparison: {
    decode: { items: 40, ratio: 1.5, low: 1.41, high: 1.62, alpha: 0.0083 },
    prompt: null,
    verbosity: { items: 40, ratio: 1, low: 0.95, high: 1.04, alpha: 0.0083 },
    decodeDrift: { method: 'trend', slope: Math.log(1.3), slopeSe: 0.02, separation: 0.125 },
    promptDrift: { method: 'none', slope: null, slopeSe: null, separation: 0.125 },
  },
};

describe('the speed part of summary.md', () => {
  it('shows each model’s figures, the paired ratios with their bounds, and the drift taken out', () => {
    const text = renderSpeedSection(section);
    expect(text).toContain('| decode tokens/s | 50 (p90 45, p99 40) | 33.3 (p90 30, p99 26.6) |');
    expect(text).toContain('| time to first token (ms) | – | – |');
    expect(text).toContain('| decode time per token | 40 | ×1.5 | [×1.41, ×1.62] at 0.83% each |');
    expect(text).toContain('| prompt time per token | 0 | – | – |');
    expect(text).toContain('changed by 30.0% from the first request of the run to the last');
    expect(text).toContain('Prompt: too few items to fit');
    expect(text).toContain('| GPU memory (MiB) | 4096 | 6144 |');
    expect(text).toContain('| share in system memory | 0% | 40% |');
    expect(text).toContain(
      '2 answers without timings; 1 answers with impossible timings left out.',
    );
  });

  it('gives the decode and length ratios at a glance, nothing without a comparison', () => {
    expect(speedGlance(section)).toEqual([
      ['decode time per token, candidate ÷ baseline', '×1.5 [×1.41, ×1.62]'],
      ['output tokens per answer, candidate ÷ baseline', '×1 [×0.95, ×1.04]'],
    ]);
    expect(speedGlance({ ...section, comparison: null })).toEqual([]);
  });

  it('puts the notice of a log without timings first', () => {
    const text = renderSpeedSection({
      ...section,
      notice: 'no timings in this log: …',
      models: [],
      comparison: null,
    });
    expect(text.split('\n\n')[1]).toBe('> no timings in this log: …');
  });

  it('describes each rule as a test: its share of the budget and what it can see', () => {
    const gate = {
      maxSlowdown: 0.25,
      maxPromptSlowdown: 0.5,
      maxVerbosityRise: 0.5,
      offload: 'fail' as const,
      maxDecodeDrop: 0.25,
      maxTimeoutShare: 0.05,
    };
    const cards = speedRules(
      {
        ...section,
        comparison: section.comparison && {
          ...section.comparison,
          decode: { items: 40, ratio: 1, low: 0.9, high: 1.1, alpha: 0.01 },
        },
      },
      gate,
      0.01,
    );
    expect(cards.map((c) => [c.rule, c.falseAlarmRate])).toEqual([
      ['slowdown', 0.01],
      ['prompt-slowdown', 0.01],
      ['verbosity', 0.01],
      ['offload', 0],
      ['vram', 0],
    ]);
    // 1.25 × (1 / 0.9)^1.35 = 1.25 × 1.1528 = 1.441.
    expect(cards[0]?.detects).toBe("a ratio of about ×1.44 at this run's spread");
    expect(cards[1]?.detects).toBe('not measured in this run');
    expect(cards[4]?.tests).toBe('no limit set (speed.gate.max-vram-mib)');
  });
});
