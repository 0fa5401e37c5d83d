/**
 * The two ways of calling an item "reliably changed", run on the samples of a pair of models.
 * The same function serves the observed data and every null replicate, so the null
 * calibration reruns exactly the method that is reported.
 *
 * Method A (rci), as in Cacioli 2026: exclusions (fewer than 60% valid samples in either
 * model; p = 0 in both or p = 1 in both), then on the analysable items
 *   SEM_j = SD(p_j)·sqrt(1 − r_xx_j)  (sample SD across items, ddof 1)
 *   S_diff = sqrt(SEM_1² + SEM_2²),  RCI = Δp / S_diff,
 * improved when RCI > 1.96, deteriorated when RCI < −1.96 (conservative variant: 2.58).
 *
 * Method B (fisher-bh): per analysable item Fisher's exact test on [[x1, n1−x1], [x2, n2−x2]],
 * Benjamini–Hochberg q-values across the analysable items, changed when q ≤ α (direction
 * from the sign of Δp).
 */
import { sampleStandardDeviation } from 'simple-statistics';
import { benjaminiHochberg } from '../../stats/benjaminiHochberg.js';
import { popcount, type SampleMasks, splitHalfReliability } from '../../stats/splitHalf.js';

export const RCI_CRITICAL = 1.96;
export const RCI_CONSERVATIVE = 2.58;
/**
 * Share of valid samples an item needs in both models to be analysable: 3 of 5 (60%), kept as
 * a fraction so that the comparison n/K ≥ 3/5 is exact in integers (5n ≥ 3K).
 */
export const MIN_VALID_SHARE = { valid: 3, of: 5 } as const;

/** Whether n valid samples of K reach MIN_VALID_SHARE. */
export function hasEnoughValid(valid: number, samples: number): boolean {
  return MIN_VALID_SHARE.of * valid >= MIN_VALID_SHARE.valid * samples;
}

export const Exclusion = { none: 0, lowValid: 1, floor: 2, ceiling: 3 } as const;

export interface PairCounts {
  x1: Int32Array;
  n1: Int32Array;
  x2: Int32Array;
  n2: Int32Array;
}

export interface MethodsOutcome {
  counts: PairCounts;
  exclusion: Uint8Array;
  analysable: number;
  reliability: [number, number];
  sd: [number, number];
  sem: [number, number];
  sDiff: number;
  /** RCI per item (NaN when not analysable). */
  rci: Float64Array;
  /** +1 improved, −1 deteriorated, 0 otherwise; per item. */
  rciClass: Int8Array;
  rciConservativeClass: Int8Array;
  fisherP: Float64Array;
  q: Float64Array;
  fisherBhClass: Int8Array;
  /** Same rule on the raw p-value, to show what FDR control removed. */
  rawClass: Int8Array;
}

export type FisherTest = (x1: number, n1: number, x2: number, n2: number) => number;

/**
 * Adaptive sampling: items end with different numbers of samples, taken in stages. `planned`:
 * each item's samples per model (the valid-share rule reads it instead of K); `itemTest`: the
 * item's p-value from both models' samples (the exact test across its stages).
 */
export interface StagedItems {
  planned: Int32Array;
  itemTest: (item: number, baseline: SampleMasks, candidate: SampleMasks) => number;
}

export function countsOf(masks: SampleMasks): { x: Int32Array; n: Int32Array } {
  const x = new Int32Array(masks.items);
  const n = new Int32Array(masks.items);
  for (let i = 0; i < masks.items; i++) {
    let correct = 0;
    let valid = 0;
    for (let w = 0; w < masks.words; w++) {
      correct += popcount(masks.correct[i * masks.words + w] as number);
      valid += popcount(masks.valid[i * masks.words + w] as number);
    }
    x[i] = correct;
    n[i] = valid;
  }
  return { x, n };
}

function sampleSd(values: readonly number[]): number {
  return values.length < 2 ? Number.NaN : sampleStandardDeviation(values as number[]);
}

/** Which items are analysable, and why the others are not (see the exclusions above). */
function classifyItems(
  b: { x: Int32Array; n: Int32Array },
  c: { x: Int32Array; n: Int32Array },
  samples: number,
  staged: StagedItems | undefined,
): { exclusion: Uint8Array; analysableIndex: number[]; p1: number[]; p2: number[] } {
  const items = b.x.length;
  const exclusion = new Uint8Array(items);
  const analysableIndex: number[] = [];
  const p1: number[] = [];
  const p2: number[] = [];
  for (let i = 0; i < items; i++) {
    const n1 = b.n[i] as number;
    const n2 = c.n[i] as number;
    const planned = staged ? (staged.planned[i] as number) : samples;
    if (!hasEnoughValid(n1, planned) || !hasEnoughValid(n2, planned) || n1 === 0 || n2 === 0) {
      exclusion[i] = Exclusion.lowValid;
      continue;
    }
    const x1 = b.x[i] as number;
    const x2 = c.x[i] as number;
    if (x1 === 0 && x2 === 0) {
      exclusion[i] = Exclusion.floor;
      continue;
    }
    if (x1 === n1 && x2 === n2) {
      exclusion[i] = Exclusion.ceiling;
      continue;
    }
    analysableIndex.push(i);
    p1.push(x1 / n1);
    p2.push(x2 / n2);
  }
  return { exclusion, analysableIndex, p1, p2 };
}

export function runMethods(
  baseline: SampleMasks,
  candidate: SampleMasks,
  splits: readonly Uint32Array[],
  alpha: number,
  fisher: FisherTest,
  staged?: StagedItems,
): MethodsOutcome {
  const items = baseline.items;
  const b = countsOf(baseline);
  const c = countsOf(candidate);
  const { exclusion, analysableIndex, p1, p2 } = classifyItems(b, c, baseline.samples, staged);
  const reliability: [number, number] = [
    splitHalfReliability(baseline, splits).reliability,
    splitHalfReliability(candidate, splits).reliability,
  ];
  const sd: [number, number] = [sampleSd(p1), sampleSd(p2)];
  const sem: [number, number] = [
    sd[0] * Math.sqrt(1 - reliability[0]),
    sd[1] * Math.sqrt(1 - reliability[1]),
  ];
  const sDiff = Math.sqrt(sem[0] * sem[0] + sem[1] * sem[1]);

  const rci = new Float64Array(items).fill(Number.NaN);
  const rciClass = new Int8Array(items);
  const rciConservativeClass = new Int8Array(items);
  const fisherP = new Float64Array(items).fill(Number.NaN);
  const q = new Float64Array(items).fill(Number.NaN);
  const fisherBhClass = new Int8Array(items);
  const rawClass = new Int8Array(items);
  const pValues: number[] = [];
  analysableIndex.forEach((i, j) => {
    const delta = (p2[j] as number) - (p1[j] as number);
    const value = delta / sDiff;
    rci[i] = value;
    rciClass[i] = beyond(value, RCI_CRITICAL);
    rciConservativeClass[i] = beyond(value, RCI_CONSERVATIVE);
    const p = staged
      ? staged.itemTest(i, baseline, candidate)
      : fisher(b.x[i] as number, b.n[i] as number, c.x[i] as number, c.n[i] as number);
    fisherP[i] = p;
    pValues.push(p);
    if (p <= alpha && delta !== 0) rawClass[i] = delta > 0 ? 1 : -1;
  });
  const qValues = benjaminiHochberg(pValues);
  analysableIndex.forEach((i, j) => {
    const value = qValues[j] as number;
    q[i] = value;
    const delta = (p2[j] as number) - (p1[j] as number);
    if (value <= alpha && delta !== 0) fisherBhClass[i] = delta > 0 ? 1 : -1;
  });
  return {
    counts: { x1: b.x, n1: b.n, x2: c.x, n2: c.n },
    exclusion,
    analysable: analysableIndex.length,
    reliability,
    sd,
    sem,
    sDiff,
    rci,
    rciClass,
    rciConservativeClass,
    fisherP,
    q,
    fisherBhClass,
    rawClass,
  };
}

/** +1 above `critical`, −1 below −`critical`, 0 between. */
function beyond(value: number, critical: number): number {
  return value > critical ? 1 : value < -critical ? -1 : 0;
}
