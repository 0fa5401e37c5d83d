import { describe, expect, it } from 'vitest';
import { adaptiveSamplingLines } from '../../../src/checks/churn/report/adaptive.js';
import type { AdaptiveSamplingSummary } from '../../../src/checks/churn/section.js';

const summary = (futility: AdaptiveSamplingSummary['futility']): AdaptiveSamplingSummary => ({
  mode: 'adaptive',
  samplesFirst: 4,
  samplesStep: 4,
  samplesMax: 20,
  settledShare: 0.1,
  futility,
  decided: null,
  requests: { used: 120, fixed: 200, saved: 80, savedShare: 0.4 },
  stopped: [
    { samples: 8, items: 2, settled: 0, decided: 0, futility: 2, samplesMax: 0, open: 0 },
    { samples: 20, items: 3, settled: 0, decided: 0, futility: 0, samplesMax: 3, open: 0 },
  ],
});

describe('the summary of adaptive sampling', () => {
  it('says how the futility bar tightens after its first look', () => {
    const text = adaptiveSamplingLines(summary({ p: 0.5, from: 8, tighten: 0.4 })).join('\n');
    expect(text).toContain(
      'as futile when its p-value is above 0.5 from 8 samples, the bar × 0.4 at each further look',
    );
    expect(text).toContain('**Sampling:** adaptive, 4 + 4 per item and model up to 20');
  });

  it('names one bar when it stays the same (tighten 1, or a report written before the key)', () => {
    for (const futility of [
      { p: 0.2, from: 10, tighten: 1 },
      { p: 0.2, from: 10 },
    ]) {
      const text = adaptiveSamplingLines(summary(futility)).join('\n');
      expect(text).toContain('as futile when its p-value is above 0.2 from 10 samples.');
      expect(text).not.toContain('further look');
    }
  });
});
