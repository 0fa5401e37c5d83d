/**
 * Split-half reliability of repeated binary samples (the reliability step of the reliable
 * change index as applied to language models by Cacioli 2026, "Beyond the Mean").
 *
 * Each item has K samples (correct / wrong / missing). A split puts half of the sample
 * indices in half A and the rest in half B; per item the accuracy in each half is computed
 * over the valid samples there, then the Pearson r of the two half-accuracies across items,
 * corrected to full length by Spearman–Brown (2r / (1 + r)). Over many splits the median
 * is the reliability r_xx.
 *
 * Splits: when there are few enough distinct ones they are all used, which makes r_xx exact
 * and independent of any random generator. Swapping the halves leaves r unchanged, so for
 * even K a split is fixed by the half that holds index 0: C(K−1, K/2−1) of them, e.g. 126 for
 * K = 10 (= C(10,5)/2 = 252/2). For odd K the halves differ in size and each of the
 * C(K, ⌊K/2⌋) smaller halves is its own split. Otherwise random splits: a seeded shuffle of
 * the indices, the first ⌊K/2⌋ forming half A.
 *
 * Samples are bit masks (bit k of word ⌊k/32⌋ = sample k), which keeps the thousands of
 * split × item evaluations of a null calibration cheap.
 */
import type { Rng } from './prng.js';
import { spearmanBrown } from './spearmanBrown.js';

/** Samples of many items for one model: `words` 32-bit words per item, items back to back. */
export interface SampleMasks {
  samples: number;
  words: number;
  items: number;
  /** Bit set: the sample is valid and correct. */
  correct: Uint32Array;
  /** Bit set: the sample is valid (answered); unset: invalid, timeout or absent. */
  valid: Uint32Array;
}

export function wordsFor(samples: number): number {
  return Math.max(1, Math.ceil(samples / 32));
}

export function createSampleMasks(items: number, samples: number): SampleMasks {
  const words = wordsFor(samples);
  return {
    samples,
    words,
    items,
    correct: new Uint32Array(items * words),
    valid: new Uint32Array(items * words),
  };
}

export function popcount(value: number): number {
  let x = value - ((value >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

function binomial(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

/** Number of distinct half splits of K samples (see the header). */
export function countHalfSplits(samples: number): number {
  if (samples < 2) return 0;
  const half = Math.floor(samples / 2);
  return samples % 2 === 0 ? binomial(samples - 1, half - 1) : binomial(samples, half);
}

function maskOf(indices: readonly number[], words: number): Uint32Array {
  const mask = new Uint32Array(words);
  for (const index of indices) {
    mask[index >>> 5] = ((mask[index >>> 5] as number) | (1 << (index & 31))) >>> 0;
  }
  return mask;
}

/** Every distinct split, as the mask of half A. */
export function allHalfSplits(samples: number): Uint32Array[] {
  const half = Math.floor(samples / 2);
  const words = wordsFor(samples);
  const splits: Uint32Array[] = [];
  const chosen: number[] = [];
  const even = samples % 2 === 0;
  const choose = (start: number): void => {
    if (chosen.length === half) {
      splits.push(maskOf(chosen, words));
      return;
    }
    for (let i = start; i <= samples - (half - chosen.length); i++) {
      chosen.push(i);
      choose(i + 1);
      chosen.pop();
    }
  };
  if (even) {
    chosen.push(0);
    choose(1);
  } else {
    choose(0);
  }
  return splits;
}

export function randomHalfSplits(samples: number, count: number, rng: Rng): Uint32Array[] {
  const half = Math.floor(samples / 2);
  const words = wordsFor(samples);
  const indices = Array.from({ length: samples }, (_, i) => i);
  const splits: Uint32Array[] = [];
  for (let s = 0; s < count; s++) splits.push(maskOf(rng.shuffle(indices).slice(0, half), words));
  return splits;
}

export interface HalfSplits {
  splits: Uint32Array[];
  /** True when every distinct split is in `splits` (the result does not depend on a seed). */
  exhaustive: boolean;
}

/** All distinct splits when there are at most `maxSplits`, otherwise `maxSplits` random ones. */
export function halfSplits(samples: number, maxSplits: number, rng: Rng): HalfSplits {
  if (countHalfSplits(samples) <= maxSplits) {
    return { splits: allHalfSplits(samples), exhaustive: true };
  }
  return { splits: randomHalfSplits(samples, maxSplits, rng), exhaustive: false };
}

/** Single-word masks split into fully answered items (correct masks, counts) and the rest. */
function fullyAnswered(
  masks: SampleMasks,
  fullMask: number,
): { correct: Uint32Array; x: Int32Array; sumX: number; sumXX: number; partial: number[] } {
  if (masks.words !== 1) {
    return { correct: new Uint32Array(0), x: new Int32Array(0), sumX: 0, sumXX: 0, partial: [] };
  }
  const partial: number[] = [];
  const fullIndex: number[] = [];
  for (let i = 0; i < masks.items; i++) {
    if ((masks.valid[i] as number) === fullMask) fullIndex.push(i);
    else partial.push(i);
  }
  const correct = new Uint32Array(fullIndex.length);
  const x = new Int32Array(fullIndex.length);
  let sumX = 0;
  let sumXX = 0;
  fullIndex.forEach((i, f) => {
    correct[f] = masks.correct[i] as number;
    const count = popcount(masks.correct[i] as number);
    x[f] = count;
    sumX += count;
    sumXX += count * count;
  });
  return { correct, x, sumX, sumXX, partial };
}

export interface SplitHalfResult {
  /** Median Spearman–Brown reliability over the splits with a defined r. */
  reliability: number;
  /** Median half-to-half Pearson r. */
  medianR: number;
  /** Splits whose r was defined (both half-accuracies varied across items). */
  usedSplits: number;
}

/** Running sums of the paired half-accuracies of one split. */
interface PairSums {
  n: number;
  sa: number;
  sb: number;
  saa: number;
  sbb: number;
  sab: number;
}

function addPair(sums: PairSums, accA: number, accB: number): void {
  sums.n++;
  sums.sa += accA;
  sums.sb += accB;
  sums.saa += accA * accA;
  sums.sbb += accB * accB;
  sums.sab += accA * accB;
}

/**
 * Split-half reliability over all items of `masks`. Items with no valid sample in one half
 * of a split leave that split's correlation.
 */
export function splitHalfReliability(
  masks: SampleMasks,
  splits: readonly Uint32Array[],
): SplitHalfResult {
  const rValues: number[] = [];
  const fullLast = masks.samples % 32 === 0 ? 0xffffffff : (2 ** (masks.samples % 32) - 1) >>> 0;
  const full = fullyAnswered(masks, fullLast);
  for (const split of splits) {
    const sums: PairSums = { n: 0, sa: 0, sb: 0, saa: 0, sbb: 0, sab: 0 };
    if (masks.words === 1) sumOneWordSplit(masks, full, split[0] as number, fullLast, sums);
    else sumManyWordSplit(masks, split, fullLast, sums);
    const { n, sa, sb, saa, sbb, sab } = sums;
    if (n < 2) continue;
    const sxx = saa - (sa * sa) / n;
    const syy = sbb - (sb * sb) / n;
    const sxy = sab - (sa * sb) / n;
    if (!(sxx > 1e-12 * n) || !(syy > 1e-12 * n)) continue;
    rValues.push(Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy))));
  }
  if (rValues.length === 0) return { reliability: Number.NaN, medianR: Number.NaN, usedSplits: 0 };
  rValues.sort((x, y) => x - y);
  const reliabilities = rValues.map((r) => spearmanBrown(r)).sort((x, y) => x - y);
  return {
    reliability: middleOfSorted(reliabilities),
    medianR: middleOfSorted(rValues),
    usedSplits: rValues.length,
  };
}

/** The median of a sorted, non-empty list. */
function middleOfSorted(sorted: readonly number[]): number {
  const middle = sorted.length / 2;
  return Number.isInteger(middle)
    ? ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
    : (sorted[Math.floor(middle)] as number);
}

/**
 * K ≤ 32. Fully answered items: the half sizes are fixed, so the sums reduce to integer sums
 * of the correct count in half A (ca) — one popcount per item and split.
 */
function sumOneWordSplit(
  masks: SampleMasks,
  full: ReturnType<typeof fullyAnswered>,
  a: number,
  fullLast: number,
  sums: PairSums,
): void {
  const b = ~a & fullLast;
  const ha = popcount(a);
  const hb = popcount(b);
  let s1 = 0;
  let s2 = 0;
  let sxca = 0;
  const fullCorrect = full.correct;
  const fullX = full.x;
  const m = fullCorrect.length;
  for (let f = 0; f < m; f++) {
    let bits = (fullCorrect[f] as number) & a;
    bits -= (bits >>> 1) & 0x55555555;
    bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
    const ca = Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
    s1 += ca;
    s2 += ca * ca;
    sxca += (fullX[f] as number) * ca;
  }
  if (m > 0) {
    sums.n += m;
    sums.sa += s1 / ha;
    sums.sb += (full.sumX - s1) / hb;
    sums.saa += s2 / (ha * ha);
    sums.sbb += (full.sumXX - 2 * sxca + s2) / (hb * hb);
    sums.sab += (sxca - s2) / (ha * hb);
  }
  const { correct, valid } = masks;
  for (const i of full.partial) {
    const c = correct[i] as number;
    const v = valid[i] as number;
    const va = popcount(v & a);
    const vb = popcount(v & b);
    if (va === 0 || vb === 0) continue;
    addPair(sums, popcount(c & a) / va, popcount(c & b) / vb);
  }
}

function sumManyWordSplit(
  masks: SampleMasks,
  split: Uint32Array,
  fullLast: number,
  sums: PairSums,
): void {
  const { words, items, correct, valid } = masks;
  for (let i = 0; i < items; i++) {
    let ca = 0;
    let cb = 0;
    let va = 0;
    let vb = 0;
    for (let w = 0; w < words; w++) {
      const full = w === words - 1 ? fullLast : 0xffffffff;
      const a = split[w] as number;
      const b = ~a & full;
      const c = correct[i * words + w] as number;
      const v = valid[i * words + w] as number;
      ca += popcount(c & a);
      cb += popcount(c & b);
      va += popcount(v & a);
      vb += popcount(v & b);
    }
    if (va === 0 || vb === 0) continue;
    addPair(sums, ca / va, cb / vb);
  }
}
