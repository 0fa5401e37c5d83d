/**
 * How many items each method flags between two identical models. Parametric bootstrap: for
 * every item, both versions are redrawn sample by sample from its pooled accuracy
 * (x1 + x2)/(n1 + n2), keeping which samples were valid, and the whole method is rerun —
 * reliability, exclusions, SEM, Fisher tests and BH — on the redrawn pair. Every flag in a
 * replicate is false by construction.
 *
 * Bands follow the redrawn baseline accuracy, as the observed bands follow the observed one:
 * that is what shows regression to the mean (easy items looking worse, hard ones better)
 * arising with no change at all.
 */
import { mean } from 'simple-statistics';
import { createRng, type Rng } from '../../stats/prng.js';
import { quantileSorted } from '../../stats/quantile.js';
import { createSampleMasks, type SampleMasks } from '../../stats/splitHalf.js';
import { type FisherTest, type MethodsOutcome, runMethods, type StagedItems } from './methods.js';

/** Baseline-accuracy bands of the difficulty table: [0, .2), [.2, .4), … [.8, 1]. */
export const BAND_EDGES = [0, 0.2, 0.4, 0.6, 0.8, 1] as const;

export function bandOf(p: number): number {
  return Math.min(BAND_EDGES.length - 2, Math.floor(p * 5 + 1e-12));
}

export interface FlagCounts {
  improved: number;
  deteriorated: number;
}

export interface NullDistribution {
  mean: number;
  p95: number;
  /** Quantile at 1 − the rule's share of the false-alarm budget (the count's critical value). */
  upper: number;
}

export interface MethodNull {
  improved: NullDistribution;
  deteriorated: NullDistribution;
  flagged: NullDistribution;
  /** Mean over replicates of flagged / analysable items. */
  falseFlagRate: number;
  /** Expected improved/deteriorated per band (means over replicates). */
  bands: FlagCounts[];
}

export interface NullCalibration {
  replicates: number;
  seed: number;
  rci: MethodNull;
  fisherBh: MethodNull;
}

type ClassOf = (outcome: MethodsOutcome) => Int8Array;

function summarise(values: number[], upperLevel: number): NullDistribution {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    mean: values.length === 0 ? 0 : mean(values),
    p95: quantileSorted(sorted, 0.95),
    upper: quantileSorted(sorted, 1 - upperLevel),
  };
}

/** Each item's accuracy pooled over both models: the truth of "no change". */
function pooledAccuracies(observed: MethodsOutcome, items: number): Float64Array {
  const { x1, n1, x2, n2 } = observed.counts;
  const pooled = new Float64Array(items);
  for (let i = 0; i < items; i++) {
    const n = (n1[i] as number) + (n2[i] as number);
    pooled[i] = n === 0 ? 0 : ((x1[i] as number) + (x2[i] as number)) / n;
  }
  return pooled;
}

/** Redraws every valid sample of `source` as correct with its item's pooled accuracy. */
function redraw(source: SampleMasks, target: SampleMasks, pooled: Float64Array, rng: Rng): void {
  const { items, words } = source;
  target.valid.set(source.valid);
  target.correct.fill(0);
  for (let i = 0; i < items; i++) {
    const p = pooled[i] as number;
    for (let w = 0; w < words; w++) {
      let valid = source.valid[i * words + w] as number;
      let correct = 0;
      while (valid !== 0) {
        const bit = valid & -valid;
        valid ^= bit;
        if (rng.next() < p) correct |= bit;
      }
      target.correct[i * words + w] = correct >>> 0;
    }
  }
}

interface MethodTally {
  improved: number[];
  deteriorated: number[];
  flagged: number[];
  rate: number[];
  bands: FlagCounts[];
}

/** Adds one replicate's flags of one method to its tally, by band of redrawn baseline accuracy. */
function tallyReplicate(tally: MethodTally, classes: Int8Array, outcome: MethodsOutcome): void {
  let improved = 0;
  let deteriorated = 0;
  for (let i = 0; i < classes.length; i++) {
    const flag = classes[i] as number;
    if (flag === 0) continue;
    const band =
      tally.bands[bandOf((outcome.counts.x1[i] as number) / (outcome.counts.n1[i] as number))];
    if (flag > 0) {
      improved++;
      if (band) band.improved++;
    } else {
      deteriorated++;
      if (band) band.deteriorated++;
    }
  }
  tally.improved.push(improved);
  tally.deteriorated.push(deteriorated);
  tally.flagged.push(improved + deteriorated);
  tally.rate.push(outcome.analysable === 0 ? 0 : (improved + deteriorated) / outcome.analysable);
}

function methodNull(tally: MethodTally, replicates: number, upperLevel: number): MethodNull {
  return {
    improved: summarise(tally.improved, upperLevel),
    deteriorated: summarise(tally.deteriorated, upperLevel),
    flagged: summarise(tally.flagged, upperLevel),
    falseFlagRate: summarise(tally.rate, upperLevel).mean,
    bands: tally.bands.map((band) => ({
      improved: replicates === 0 ? 0 : band.improved / replicates,
      deteriorated: replicates === 0 ? 0 : band.deteriorated / replicates,
    })),
  };
}

export function nullCalibration(
  observed: MethodsOutcome,
  validBaseline: SampleMasks,
  validCandidate: SampleMasks,
  splits: readonly Uint32Array[],
  alpha: number,
  fisher: FisherTest,
  replicates: number,
  seed: number,
  upperLevel = 0.05,
  staged?: StagedItems,
): NullCalibration {
  const rng = createRng(seed);
  const { items, samples } = validBaseline;
  const pooled = pooledAccuracies(observed, items);
  const methods: { name: 'rci' | 'fisher-bh'; classOf: ClassOf }[] = [
    { name: 'rci', classOf: (o) => o.rciClass },
    { name: 'fisher-bh', classOf: (o) => o.fisherBhClass },
  ];
  const tallies = methods.map(
    (): MethodTally => ({
      improved: [],
      deteriorated: [],
      flagged: [],
      rate: [],
      bands: Array.from({ length: BAND_EDGES.length - 1 }, () => ({
        improved: 0,
        deteriorated: 0,
      })),
    }),
  );
  const drawnBaseline = createSampleMasks(items, samples);
  const drawnCandidate = createSampleMasks(items, samples);
  for (let r = 0; r < replicates; r++) {
    redraw(validBaseline, drawnBaseline, pooled, rng);
    redraw(validCandidate, drawnCandidate, pooled, rng);
    const outcome = runMethods(drawnBaseline, drawnCandidate, splits, alpha, fisher, staged);
    methods.forEach((method, m) => {
      tallyReplicate(tallies[m] as MethodTally, method.classOf(outcome), outcome);
    });
  }
  const [rci, fisherBh] = tallies.map((tally) => methodNull(tally, replicates, upperLevel)) as [
    MethodNull,
    MethodNull,
  ];
  return { replicates, seed, rci, fisherBh };
}
