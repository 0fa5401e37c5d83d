import { describe, expect, it } from 'vitest';
import {
  type AdaptiveDesign,
  adaptiveItemPValue,
  adaptiveItemTest,
  checkDesign,
  countingDecided,
  decideNextStage,
  futilityBar,
  nextStage,
  replayItem,
  replayItems,
  sampleItemAdaptively,
} from '../../../src/checks/churn/adaptive.js';
import { createRng, type Rng } from '../../../src/stats/prng.js';
import { type Stratum, stratifiedExactTest } from '../../../src/stats/stratifiedExact.js';
import { wilsonInterval } from '../../../src/stats/wilson.js';

const design: AdaptiveDesign = { firstStage: 5, stage: 5, samplesMax: 20, settledShare: 0.1 };

describe('decideNextStage', () => {
  it('stops an item whose pooled share is 0 or 1 or outside [a, 1 − a]', () => {
    expect(decideNextStage(0, 10, 5, design)).toEqual({ action: 'stop', reason: 'settled' });
    expect(decideNextStage(10, 10, 5, design)).toEqual({ action: 'stop', reason: 'settled' });
    expect(decideNextStage(1, 10, 5, design)).toEqual({ action: 'stop', reason: 'settled' });
    expect(decideNextStage(9, 10, 5, design)).toEqual({ action: 'stop', reason: 'settled' });
  });

  it('continues an open item by one stage, never past samples-max', () => {
    expect(decideNextStage(2, 10, 5, design)).toEqual({ action: 'continue', samples: 5 });
    expect(decideNextStage(8, 10, 5, design)).toEqual({ action: 'continue', samples: 5 });
    expect(decideNextStage(20, 40, 20, design)).toEqual({ action: 'stop', reason: 'samples-max' });
    expect(decideNextStage(9, 18, 9, { ...design, samplesMax: 12 })).toEqual({
      action: 'continue',
      samples: 3,
    });
  });

  it('with a = 0 stops only items answered all right or all wrong', () => {
    const strict = { ...design, settledShare: 0 };
    expect(decideNextStage(1, 10, 5, strict)).toEqual({ action: 'continue', samples: 5 });
    expect(decideNextStage(0, 10, 5, strict)).toEqual({ action: 'stop', reason: 'settled' });
  });

  it('refuses a design that cannot run', () => {
    expect(() => checkDesign({ ...design, firstStage: 0 })).toThrow(/firstStage/);
    expect(() => checkDesign({ ...design, firstStage: 30 })).toThrow(/above samplesMax/);
    expect(() => checkDesign({ ...design, settledShare: 0.5 })).toThrow(/settledShare/);
  });
});

describe('nextStage: the one stage decision', () => {
  const stage = (baselineCorrect: number, candidateCorrect: number, samples = 5) => ({
    baselineCorrect,
    baselineSamples: samples,
    candidateCorrect,
    candidateSamples: samples,
  });
  const full: AdaptiveDesign = {
    ...design,
    futility: { fromSamples: 5, pAbove: 0.5 },
    decided: { pAtMost: 0.01 },
  };

  it('gives each stop its reason, the pooled rules first', () => {
    // 5/5 against 5/5: settled, though an efficacy or futility look would say otherwise.
    expect(nextStage([stage(5, 5)], 5, full)).toEqual({ action: 'stop', reason: 'settled' });
    expect(nextStage([stage(2, 3)], 20, full)).toEqual({ action: 'stop', reason: 'samples-max' });
    // 5/5 against 0/5: Fisher's two-sided p = 2 / C(10, 5) = 0.0079, at most the bound 0.01.
    expect(nextStage([stage(5, 0)], 5, full)).toEqual({ action: 'stop', reason: 'decided' });
    // 3/5 against 3/5: p = 1 above the bar 0.5 at the first look from 5 samples.
    expect(nextStage([stage(3, 3)], 5, full)).toEqual({ action: 'stop', reason: 'futility' });
    // 4/5 against 1/5: p = 0.206, neither decided nor futile: one more stage.
    expect(nextStage([stage(4, 1)], 5, full)).toEqual({ action: 'continue', samples: 5 });
    expect(nextStage([stage(3, 3)], 5, design)).toEqual({ action: 'continue', samples: 5 });
  });

  it('is what the runner, the analysis and the benchmarks all follow', () => {
    const rng = createRng(11);
    for (let run = 0; run < 200; run++) {
      const p = [rng.next(), rng.next()];
      const draws = p.map((q) => Array.from({ length: 20 }, () => rng.next() < (q as number)));
      const sampled = sampleItemAdaptively(
        (model, from, count) =>
          (draws[model === 'baseline' ? 0 : 1] as boolean[])
            .slice(from, from + count)
            .filter(Boolean).length,
        full,
      );
      const replayed = replayItem((model, k) => (draws[model] as boolean[])[k], full);
      expect(replayed.stages).toEqual(sampled);
      const taken = sampled.reduce((sum, s) => sum + s.baselineSamples, 0);
      const decision = nextStage(sampled, taken, full);
      expect(decision.action).toBe('stop');
      expect(replayed.stop).toBe(decision.action === 'stop' ? decision.reason : 'open');
    }
  });
});

describe('sampleItemAdaptively', () => {
  it('reads samples in order and stops on the pooled counts, whatever their split', () => {
    // Stage 1: baseline 5/5, candidate 0/5 — pooled 5/10, open: a second stage follows.
    // Stage 2: both 5/5 — pooled 15/20, still open; stage 3: both 5/5 — 25/30, open; stage 4
    // reaches samples-max.
    const calls: string[] = [];
    const stages = sampleItemAdaptively((model, from, count) => {
      calls.push(`${model}:${from}+${count}`);
      return model === 'candidate' && from === 0 ? 0 : count;
    }, design);
    expect(stages).toHaveLength(4);
    expect(calls.slice(0, 4)).toEqual([
      'baseline:0+5',
      'candidate:0+5',
      'baseline:5+5',
      'candidate:5+5',
    ]);
    // The same pooled counts split the other way take the same path.
    const swapped = sampleItemAdaptively(
      (model, from, count) => (model === 'baseline' && from === 0 ? 0 : count),
      design,
    );
    expect(swapped).toHaveLength(4);
    // An item both models always answer right stops after the first stage.
    expect(sampleItemAdaptively((_, __, count) => count, design)).toHaveLength(1);
  });

  it('keeps the item test at or below α under no change, whatever the stopping path', () => {
    // 2,000 single items, both models with the same p (drawn uniformly: every path is used),
    // tested two-sided at α = 0.05 across their stages.
    const rng = createRng(2026);
    const alpha = 0.05;
    const items = 2000;
    let rejected = 0;
    let stagesSeen = 0;
    for (let i = 0; i < items; i++) {
      const p = rng.next();
      const stages = sampleItemAdaptively(binomialDraws(rng, p), design);
      stagesSeen += stages.length;
      if (adaptiveItemPValue(stages) <= alpha) rejected++;
    }
    expect(stagesSeen / items).toBeGreaterThan(1.5);
    expect(wilsonInterval(rejected, items).high).toBeLessThanOrEqual(alpha);
  });

  it('finds a large change (0.9 → 0.1) in most items', () => {
    const rng = createRng(7);
    let found = 0;
    for (let i = 0; i < 200; i++) {
      const stages = sampleItemAdaptively((model, _, count) => {
        const p = model === 'baseline' ? 0.9 : 0.1;
        let x = 0;
        for (let k = 0; k < count; k++) if (rng.next() < p) x++;
        return x;
      }, design);
      if (adaptiveItemPValue(stages) <= 0.05) found++;
    }
    expect(found).toBeGreaterThan(180);
  });
});

describe('futility stop', () => {
  const futile: AdaptiveDesign = {
    firstStage: 5,
    stage: 5,
    samplesMax: 30,
    settledShare: 0.05,
    futility: { fromSamples: 10, pAbove: 0.3 },
  };

  it('stops a balanced item at the first look, reports p = 1 and feeds the domain test', () => {
    // 3/5 against 3/5, then 2/5 against 2/5: pooled 10/20, open; interim p = 1 > 0.3.
    const stages = sampleItemAdaptively((_, from) => (from === 0 ? 3 : 2), futile);
    expect(stages).toHaveLength(2);
    const test = adaptiveItemTest(stages, futile);
    expect(test.futile).toBe(true);
    expect(test.pValue).toBe(1);
    expect(test.domainStrata).toEqual([
      { x1: 3, n1: 5, x2: 3, n2: 5 },
      { x1: 2, n1: 5, x2: 2, n2: 5 },
    ]);
  });

  it('lets a clearly changed item go on, and gives the domain test every stage', () => {
    // Baseline 5/5 each stage, candidate 1/5: pooled 6/10 then 12/20 (open); the split is far
    // from balanced, so the item runs to samples-max.
    const stages = sampleItemAdaptively(
      (model, _, count) => (model === 'baseline' ? count : 1),
      futile,
    );
    expect(stages).toHaveLength(6);
    const test = adaptiveItemTest(stages, futile);
    expect(test.futile).toBe(false);
    expect(test.pValue).toBeCloseTo(adaptiveItemPValue(stages), 14);
    expect(test.pValue).toBeLessThan(1e-6);
    expect(test.domainStrata).toHaveLength(6);
    expect(test.domainStrata[5]).toEqual({ x1: 5, n1: 5, x2: 1, n2: 5 });
  });

  // The stages after a futility look were taken knowing the split, so the exact law of the
  // domain test is not exact for them: its level is shown here by simulation, in the worst case
  // for it (every item open, so every item reaches a look).
  it('keeps the domain test at or below α under no change, futility looks included', () => {
    const rng = createRng(777);
    const alpha = 0.05;
    const domains = 4000;
    let rejected = 0;
    for (let d = 0; d < domains; d++) {
      const strata = domainOfItems(rng, futile, 10, () => {
        const p = rng.next();
        return [p, p];
      });
      if (stratifiedExactTest(strata).pLower <= alpha) rejected++;
    }
    expect(wilsonInterval(rejected, domains).high).toBeLessThanOrEqual(alpha);
  });

  it('finds a domain whose items all fell by 0.3, futility looks included', () => {
    const rng = createRng(778);
    const domains = 200;
    let found = 0;
    for (let d = 0; d < domains; d++) {
      const strata = domainOfItems(rng, futile, 10, () => {
        const p = 0.35 + 0.6 * rng.next();
        return [p, p - 0.3];
      });
      if (stratifiedExactTest(strata).pLower <= 0.05) found++;
    }
    expect(found / domains).toBeGreaterThan(0.9);
  });

  it('keeps the item test at or below α under no change', () => {
    const rng = createRng(4242);
    const alpha = 0.05;
    const items = 2000;
    let rejected = 0;
    for (let i = 0; i < items; i++) {
      const p = rng.next();
      const stages = sampleItemAdaptively(binomialDraws(rng, p), futile);
      if (adaptiveItemTest(stages, futile).pValue <= alpha) rejected++;
    }
    expect(wilsonInterval(rejected, items).high).toBeLessThanOrEqual(alpha);
  });

  it('refuses a futility rule that cannot run', () => {
    expect(() => checkDesign({ ...futile, futility: { fromSamples: 0, pAbove: 0.3 } })).toThrow(
      /fromSamples/,
    );
    expect(() => checkDesign({ ...futile, futility: { fromSamples: 10, pAbove: 1 } })).toThrow(
      /pAbove/,
    );
  });
});

describe('a futility bar that tightens at each look', () => {
  const tightening: AdaptiveDesign = {
    firstStage: 4,
    stage: 4,
    samplesMax: 20,
    settledShare: 0.1,
    futility: { fromSamples: 8, pAbove: 0.5, tighten: 0.4 },
  };
  const steady: AdaptiveDesign = {
    ...tightening,
    futility: { fromSamples: 8, pAbove: 0.5, tighten: 1 },
  };

  it('is p-above at the first look from from-samples, times tighten at each look after it', () => {
    const bars = [1, 2, 3, 4, 5].map((stages) => futilityBar(stages, tightening));
    expect(bars[0]).toBeNull();
    expect(bars.slice(1).map((b) => Number((b as number).toFixed(6)))).toEqual([
      0.5, 0.2, 0.08, 0.032,
    ]);
    expect([1, 2, 3].map((stages) => futilityBar(stages, steady))).toEqual([null, 0.5, 0.5]);
    // 4, 12, 20 samples with a first look from 10: the look after the second stage is the first.
    const wide: AdaptiveDesign = {
      ...tightening,
      stage: 8,
      futility: { fromSamples: 10, pAbove: 0.2, tighten: 0.5 },
    };
    expect([1, 2, 3].map((stages) => futilityBar(stages, wide))).toEqual([null, 0.2, 0.1]);
  });

  it('stops at the third look an item the steady bar lets go on', () => {
    // 3/4 against 1/4, then 3/4 against 2/4 twice: p = 0.329 at 8 samples (under 0.5, both go
    // on), p = 0.233 at 12 (above 0.2: futile; under the steady 0.5: on).
    const split = [
      [3, 1],
      [3, 2],
      [3, 2],
      [3, 2],
      [3, 2],
    ];
    const draw = (model: 'baseline' | 'candidate', from: number) =>
      (split[from / 4] as number[])[model === 'baseline' ? 0 : 1] as number;
    const stopped = sampleItemAdaptively(draw, tightening);
    expect(stopped).toHaveLength(3);
    expect(adaptiveItemTest(stopped, tightening).futile).toBe(true);
    expect(adaptiveItemPValue(stopped)).toBeCloseTo(0.233, 3);
    expect(sampleItemAdaptively(draw, steady).length).toBeGreaterThan(3);
  });

  it('refuses a factor outside (0, 1]', () => {
    for (const tighten of [0, 1.5, Number.NaN]) {
      expect(() =>
        checkDesign({ ...tightening, futility: { fromSamples: 8, pAbove: 0.5, tighten } }),
      ).toThrow(/tighten/);
    }
  });
});

/** The domain strata of `items` items sampled adaptively with `design`. */
function domainOfItems(
  rng: Rng,
  design: AdaptiveDesign,
  items: number,
  truth: () => [number, number],
): Stratum[] {
  const strata: Stratum[] = [];
  for (let i = 0; i < items; i++) {
    const [baseline, candidate] = truth();
    const stages = sampleItemAdaptively((model, from, count) => {
      const p = model === 'baseline' ? baseline : candidate;
      return binomialDraws(rng, p)(model, from, count);
    }, design);
    strata.push(...adaptiveItemTest(stages, design).domainStrata);
  }
  return strata;
}

/** Both models answer right with the same p: under "no change" every stage is binomial. */
function binomialDraws(rng: Rng, p: number) {
  return (_model: unknown, _stage: unknown, count: number): number => {
    let x = 0;
    for (let k = 0; k < count; k++) if (rng.next() < p) x++;
    return x;
  };
}

describe('efficacy stop (decided items)', () => {
  const decisive: AdaptiveDesign = {
    firstStage: 5,
    stage: 5,
    samplesMax: 20,
    settledShare: 0.05,
    futility: { fromSamples: 10, pAbove: 0.3 },
    decided: { pAtMost: 0.001 },
  };

  it('stops an item at the first look where its stage-wise p-value reaches the bound', () => {
    // 5/5 against 0/5 per stage. Look 1: Fisher's p = 2/252 = 0.0079 > 0.001, no value of the
    // first stage reaches the bound, nothing is spent. Look 2: T = 0 given totals 5 and 5 has
    // P = (1/252)², and with T = 10 the only values as improbable: p = 2/252² ≤ 0.001.
    const stages = sampleItemAdaptively(
      (model, _, count) => (model === 'baseline' ? count : 0),
      decisive,
    );
    expect(stages).toHaveLength(2);
    const test = adaptiveItemTest(stages, decisive);
    expect(test.decided).toBe(true);
    expect(test.futile).toBe(false);
    expect(test.pValue).toBeCloseTo(2 / 252 ** 2, 12);
    expect(test.domainStrata).toHaveLength(2);
  });

  it('keeps the item test at or below α under no change, and decides at most a bound’s share', () => {
    // A bound of 0.01 (far above α / items in a real run) so that stops under the null occur.
    const loose = { ...decisive, decided: { pAtMost: 0.01 } };
    const rng = createRng(2929);
    const items = 3000;
    let rejected05 = 0;
    let rejected01 = 0;
    let decided = 0;
    for (let i = 0; i < items; i++) {
      const p = rng.next();
      const test = adaptiveItemTest(sampleItemAdaptively(binomialDraws(rng, p), loose), loose);
      if (test.pValue <= 0.05) rejected05++;
      if (test.pValue <= 0.01) rejected01++;
      if (test.decided) decided++;
    }
    expect(decided).toBeGreaterThan(0);
    expect(wilsonInterval(rejected05, items).high).toBeLessThanOrEqual(0.05);
    expect(wilsonInterval(rejected01, items).high).toBeLessThanOrEqual(0.01 + 0.005);
    expect(decided / items).toBeLessThanOrEqual(0.01);
  });

  it('refuses a bound outside (0, 1)', () => {
    expect(() => checkDesign({ ...decisive, decided: { pAtMost: 0 } })).toThrow(/pAtMost/);
  });
});

describe('the efficacy bound counting the items decided', () => {
  // Five items, alpha 0.05: each stops as decided at p <= 0.01 while none is decided.
  const counted: AdaptiveDesign = {
    firstStage: 4,
    stage: 4,
    samplesMax: 12,
    settledShare: 0,
    decided: { pAtMost: 0.01 },
  };

  it('is alpha over the items times the items decided at this look or before', () => {
    expect(countingDecided(counted, []).decided?.byLook).toEqual([0.01, 0.01, 0.01]);
    expect(countingDecided(counted, [1, 1, 2]).decided?.byLook).toEqual([0.01, 0.02, 0.03]);
    expect(countingDecided(counted, [0, 2]).decided?.byLook).toEqual([0.01, 0.01, 0.02]);
  });

  // Per item, per sample index: [baseline right, candidate right]. Items 0 and 1 move from all
  // wrong to all right; item 2 from all wrong to 3 right of 4 (p = 0.0102 at 8 samples: above
  // 0.01, below 0.02); items 3 and 4 answer half right throughout.
  const answers = (item: number, model: 0 | 1, k: number): boolean => {
    if (item <= 1) return model === 1;
    if (item === 2) return model === 1 && k % 4 !== 0;
    return k % 2 === 0;
  };

  it('stops an item a look sooner once two others are decided, and not otherwise', () => {
    const all = replayItems(5, answers, counted);
    expect(all.paths.map((p) => [p.stop, p.samples])).toEqual([
      ['decided', 8],
      ['decided', 8],
      ['decided', 8],
      ['samples-max', 12],
      ['samples-max', 12],
    ]);
    expect(all.design.decided?.byLook).toEqual([0.01, 0.03, 0.03]);
    // The item's p-value is the stage-wise one of the design without the raised bound.
    const stages = all.paths[2]?.stages ?? [];
    expect(adaptiveItemTest(stages, all.design).pValue).toBeCloseTo(0.0102, 4);
    expect(adaptiveItemTest(stages, all.design).pValue).toBe(adaptiveItemPValue(stages, counted));
    // Without items 0 and 1 nothing raises the bound: item 2 runs to 12 samples.
    const alone = replayItems(3, (item, model, k) => answers(item + 2, model, k), counted);
    expect(alone.paths[0]?.stop).not.toBe('decided');
    expect(alone.paths[0]?.samples).toBe(12);
  });
});
