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

/**
 * The items of one pattern of valid samples (K ≤ 32), reduced to per-sample counts. Every
 * per-split sum over them is a sum over the samples of half A (ca: an item's correct samples
 * in half A, x: in all): Σ ca = Σ_{k∈A} colSums[k], Σ ca² = Σ_{k,l∈A} gram[k·K + l] and
 * Σ x·ca = Σ_{k∈A} rowSums[k]. Integers, so the same values as a pass over the items, at a
 * cost of K² per split and pattern instead of a few popcounts per item and split.
 */
interface ValidGroup {
  valid: number;
  /** Items with this pattern. */
  m: number;
  /** Σ x and Σ x² over them. */
  sumX: number;
  sumXX: number;
  /** colSums[k]: items whose sample k is correct. */
  colSums: Float64Array;
  /** gram[k·K + l]: items whose samples k and l are both correct. */
  gram: Float64Array;
  /** rowSums[k] = Σ_l gram[k·K + l]. */
  rowSums: Float64Array;
}

/**
 * Single-word masks grouped by their valid samples, the fully answered pattern first (the
 * usual case: one group, or a few more where some answers were invalid). Counts are taken
 * column-wise: a bit set over the group's items per sample, then one popcount per word and
 * pair of samples.
 */
function validGroups(
  masks: SampleMasks,
  fullMask: number,
): { groups: ValidGroup[]; single: number[] } {
  const single: number[] = [];
  if (masks.words !== 1) return { groups: [], single };
  const K = masks.samples;
  // The fully answered items apart: most items, each spared a lookup.
  const full: number[] = [];
  const members = new Map<number, number[]>([[fullMask, full]]);
  for (let i = 0; i < masks.items; i++) {
    const v = masks.valid[i] as number;
    if (v === fullMask) {
      full.push(i);
      continue;
    }
    const list = members.get(v);
    if (list) list.push(i);
    else members.set(v, [i]);
  }
  const groups: ValidGroup[] = [];
  for (const [valid, items] of members) {
    if (items.length === 0) continue;
    if (items.length < MIN_GROUP) {
      for (const i of items) single.push(i);
      continue;
    }
    const words = Math.ceil(items.length / 32);
    const columns = new Uint32Array(K * words);
    for (let f = 0; f < items.length; f++) {
      const bit = 1 << (f & 31);
      const w = f >>> 5;
      for (let c = masks.correct[items[f] as number] as number; c !== 0; c &= c - 1) {
        const k = 31 - Math.clz32(c & -c);
        columns[k * words + w] = ((columns[k * words + w] as number) | bit) >>> 0;
      }
    }
    const colSums = new Float64Array(K);
    const gram = new Float64Array(K * K);
    for (let k = 0; k < K; k++) {
      for (let l = k; l < K; l++) {
        let both = 0;
        for (let w = 0; w < words; w++) {
          both += popcount((columns[k * words + w] as number) & (columns[l * words + w] as number));
        }
        gram[k * K + l] = both;
        gram[l * K + k] = both;
      }
      colSums[k] = gram[k * K + k] as number;
    }
    const rowSums = new Float64Array(K);
    let sumX = 0;
    let sumXX = 0;
    for (let k = 0; k < K; k++) {
      let row = 0;
      for (let l = 0; l < K; l++) row += gram[k * K + l] as number;
      rowSums[k] = row;
      sumX += colSums[k] as number;
      sumXX += row;
    }
    groups.push({ valid, m: items.length, sumX, sumXX, colSums, gram, rowSums });
  }
  // In item order, as a pass over the items would add them.
  single.sort((x, y) => x - y);
  return { groups, single };
}

/** Items of a valid pattern below this are summed one by one: a group costs about K² a split. */
const MIN_GROUP = 16;

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
  const { groups, single } = validGroups(masks, fullLast);
  const inA = new Int32Array(32);
  for (const split of splits) {
    const sums: PairSums = { n: 0, sa: 0, sb: 0, saa: 0, sbb: 0, sab: 0 };
    if (masks.words === 1)
      sumOneWordSplit({ a: split[0] as number, groups, single, inA }, masks, fullLast, sums);
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
 * K ≤ 32. Within a group of one valid pattern the half sizes (va, vb) are fixed, so the sums
 * of the paired half-accuracies reduce to the group's integer sums of ca (see ValidGroup).
 * Items of a pattern too rare to be worth a group are summed one by one.
 */
function sumOneWordSplit(
  split: OneWordSplit,
  masks: SampleMasks,
  fullLast: number,
  sums: PairSums,
): void {
  const a = split.a;
  const K = masks.samples;
  const inA = split.inA;
  for (const g of split.groups) {
    const va = popcount(g.valid & a);
    const vb = popcount(g.valid & ~a & fullLast);
    if (va === 0 || vb === 0) continue;
    let count = 0;
    for (let c = g.valid & a; c !== 0; c &= c - 1) inA[count++] = 31 - Math.clz32(c & -c);
    let s1 = 0;
    let below = 0;
    let sxca = 0;
    // gram is symmetric and its diagonal is colSums: Σ over pairs k < l, doubled. Integers,
    // so the same sum as over every pair.
    for (let i = 0; i < count; i++) {
      const k = inA[i] as number;
      s1 += g.colSums[k] as number;
      sxca += g.rowSums[k] as number;
      const row = k * K;
      for (let j = i + 1; j < count; j++) below += g.gram[row + (inA[j] as number)] as number;
    }
    const s2 = s1 + 2 * below;
    sums.n += g.m;
    sums.sa += s1 / va;
    sums.sb += (g.sumX - s1) / vb;
    sums.saa += s2 / (va * va);
    sums.sbb += (g.sumXX - 2 * sxca + s2) / (vb * vb);
    sums.sab += (sxca - s2) / (va * vb);
  }
  const b = ~a & fullLast;
  const { correct, valid } = masks;
  for (const i of split.single) {
    const c = correct[i] as number;
    const v = valid[i] as number;
    const va = popcount(v & a);
    const vb = popcount(v & b);
    if (va === 0 || vb === 0) continue;
    addPair(sums, popcount(c & a) / va, popcount(c & b) / vb);
  }
}

/** What one split of single-word masks reads: half A, the groups, the items outside them. */
interface OneWordSplit {
  a: number;
  groups: readonly ValidGroup[];
  single: readonly number[];
  /** Scratch: the samples of half A within a group's valid ones. */
  inA: Int32Array;
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
