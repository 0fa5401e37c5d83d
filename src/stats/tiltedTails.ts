/**
 * P(T ≤ at) and P(T ≥ at) for T = Σ X_i, independent X_i on 0, 1, … with given laws, without
 * the whole law of T: the exact convolution (convolution.ts) costs O(n²) in the number of
 * laws, which a pooled test over 50,000 items cannot pay.
 *
 * Method: exponential tilting, as in saddlepoint approximations, but with the tilted law
 * computed, not approximated. Each law is tilted, q_i(k) = p_i(k)·e^{θk} / M_i(θ), with θ
 * chosen so that the tilted mean of T is `at` (Newton on Σ E_θ[X_i] = at). Then
 *   P(T = s) = M(θ)·e^{−θs}·Q(s),   M = Π M_i,   Q = q_1 ∗ q_2 ∗ … (the tilted law of T),
 * and the smaller tail is Σ over its side of `at` of Q(s)·e^{−θ(s − at)}, times M·e^{−θ·at}:
 * every weight is at most 1, and Q is largest near `at`. Q is built by a balanced tree of
 * convolutions (FFT where both sides are long), each partial law trimmed of the entries below
 * 10⁻⁴⁰ of its largest: all of them lie many standard deviations from the tilted mean, and
 * their total is below 10⁻³⁰ of what is kept. FFT rounding is absolute, a few ε·log n of the
 * largest entry; near `at` the entries are the largest, so the tail keeps a small relative
 * error: below 10⁻¹⁰ against the exact convolution of 1,500 items' laws, from the centre to
 * tails of 10⁻⁴⁰ (2·10⁻¹¹ at most there; test/stats/tiltedTails.test.ts). The other tail is
 * 1 − the smaller one + P(T = at).
 */
import { fftConvolve } from './fft.js';

export interface Tails {
  /** P(T ≤ at). */
  lower: number;
  /** P(T ≥ at). */
  upper: number;
}

/** Partial laws below this share of their largest entry are cut at both ends. */
const TRIM = 1e-40;
/** Convolutions where the shorter side is at most this long are summed directly. */
const DIRECT = 48;

interface Piece {
  /** T's value at values[0]. */
  offset: number;
  values: Float64Array;
}

export function tiltedTails(laws: readonly (readonly number[])[], at: number): Tails {
  let span = 0;
  let mean = 0;
  for (const pmf of laws) {
    span += pmf.length - 1;
    for (let k = 1; k < pmf.length; k++) mean += k * (pmf[k] as number);
  }
  if (at < 0) return { lower: 0, upper: 1 };
  if (at > span) return { lower: 1, upper: 0 };
  if (at === 0 || at === span) return edgeTails(laws, at === 0);
  const theta = tiltFor(laws, at, mean);
  let logM = 0;
  // A law given c times (the same array: strata of equal margins) is tilted once and raised
  // to its c-th power by repeated squaring, a handful of convolutions instead of c − 1.
  const pieces: Piece[] = [];
  for (const [pmf, count] of timesOf(laws)) {
    const tilted = tilt(pmf, theta);
    logM += count * tilted.logM;
    pieces.push(power({ offset: 0, values: tilted.values }, count));
  }
  const law = convolveAll(pieces);
  // Σ over one side of `at` of Q(s)·e^{−θ(s − at)}: the side where the weights are at most 1.
  const lowerSide = theta <= 0;
  let side = 0;
  let point = 0;
  for (let j = 0; j < law.values.length; j++) {
    const s = law.offset + j;
    const q = law.values[j] as number;
    if (s === at) point = q;
    if (lowerSide ? s <= at : s >= at) side += q * Math.exp(-theta * (s - at));
  }
  const scale = Math.exp(logM - theta * at);
  const tail = Math.min(1, side * scale);
  const other = Math.min(1, Math.max(0, 1 - tail + point * scale));
  return lowerSide ? { lower: tail, upper: other } : { lower: other, upper: tail };
}

/** T at its smallest or largest value: the product of each law's end, exactly. */
function edgeTails(laws: readonly (readonly number[])[], atZero: boolean): Tails {
  let p = 1;
  for (const pmf of laws) p *= (atZero ? pmf[0] : pmf[pmf.length - 1]) as number;
  return atZero ? { lower: p, upper: 1 } : { lower: 1, upper: p };
}

/** The tilted law, normalised, and log M_i(θ) (computed from the largest term, no overflow). */
function tilt(pmf: readonly number[], theta: number): { values: Float64Array; logM: number } {
  let top = Number.NEGATIVE_INFINITY;
  for (let k = 0; k < pmf.length; k++) {
    if ((pmf[k] as number) > 0) top = Math.max(top, Math.log(pmf[k] as number) + theta * k);
  }
  const values = new Float64Array(pmf.length);
  let sum = 0;
  for (let k = 0; k < pmf.length; k++) {
    const p = pmf[k] as number;
    const v = p > 0 ? Math.exp(Math.log(p) + theta * k - top) : 0;
    values[k] = v;
    sum += v;
  }
  for (let k = 0; k < values.length; k++) values[k] = (values[k] as number) / sum;
  return { values, logM: top + Math.log(sum) };
}

/** θ with Σ E_θ[X_i] = at: Newton's method from 0, the mean increasing in θ (its slope a variance). */
function tiltFor(laws: readonly (readonly number[])[], at: number, mean: number): number {
  if (at === mean) return 0;
  // Bracket, then Newton steps kept inside it (bisection when a step leaves it).
  let low = at < mean ? -1 : 0;
  let high = at < mean ? 0 : 1;
  while (tiltedMoments(laws, low).mean > at) low *= 2;
  while (tiltedMoments(laws, high).mean < at) high *= 2;
  let theta = (low + high) / 2;
  for (let i = 0; i < 100; i++) {
    const { mean: m, variance } = tiltedMoments(laws, theta);
    if (Math.abs(m - at) < 1e-9 * Math.max(1, at)) break;
    if (m < at) low = theta;
    else high = theta;
    const step = theta - (m - at) / variance;
    theta = step > low && step < high ? step : (low + high) / 2;
  }
  return theta;
}

/** Tilted mean and variance of T; a law given several times (the same array) is tilted once. */
function tiltedMoments(
  laws: readonly (readonly number[])[],
  theta: number,
): { mean: number; variance: number } {
  let mean = 0;
  let variance = 0;
  for (const [pmf, count] of timesOf(laws)) {
    const { values } = tilt(pmf, theta);
    let m = 0;
    let m2 = 0;
    for (let k = 1; k < values.length; k++) {
      m += k * (values[k] as number);
      m2 += k * k * (values[k] as number);
    }
    mean += count * m;
    variance += count * (m2 - m * m);
  }
  return { mean, variance };
}

/** Each distinct law (array) with how many times it is given, in the order first given. */
function timesOf(laws: readonly (readonly number[])[]): Map<readonly number[], number> {
  const times = new Map<readonly number[], number>();
  for (const pmf of laws) times.set(pmf, (times.get(pmf) ?? 0) + 1);
  return times;
}

/** The law of the sum of `count` copies of a piece, by repeated squaring (each step trimmed). */
function power(piece: Piece, count: number): Piece {
  let result: Piece | null = null;
  let square = piece;
  for (let left = count; ; ) {
    if (left % 2 === 1) result = result ? convolvePair(result, square) : square;
    left = Math.floor(left / 2);
    if (left === 0) return result as Piece;
    square = convolvePair(square, square);
  }
}

/** The law of the sum of the pieces: a balanced tree of pairwise convolutions, each trimmed. */
function convolveAll(pieces: Piece[]): Piece {
  let level = pieces;
  if (level.length === 0) return { offset: 0, values: Float64Array.of(1) };
  while (level.length > 1) {
    const next: Piece[] = [];
    for (let i = 0; i + 1 < level.length; i += 2) {
      next.push(convolvePair(level[i] as Piece, level[i + 1] as Piece));
    }
    if (level.length % 2 === 1) next.push(level[level.length - 1] as Piece);
    level = next;
  }
  return level[0] as Piece;
}

function convolvePair(a: Piece, b: Piece): Piece {
  const short = Math.min(a.values.length, b.values.length);
  const values =
    short <= DIRECT ? directConvolve(a.values, b.values) : fftConvolve(a.values, b.values);
  return trimmed({ offset: a.offset + b.offset, values });
}

function directConvolve(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length - 1);
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number;
    if (x === 0) continue;
    for (let j = 0; j < b.length; j++) out[i + j] = (out[i + j] as number) + x * (b[j] as number);
  }
  return out;
}

/** The piece without its ends below TRIM of its largest entry (FFT noise included). */
function trimmed(piece: Piece): Piece {
  const { values } = piece;
  let top = 0;
  for (const v of values) if (v > top) top = v;
  const floor = top * TRIM;
  let start = 0;
  let end = values.length;
  while (start < end - 1 && !((values[start] as number) > floor)) start++;
  while (end - 1 > start && !((values[end - 1] as number) > floor)) end--;
  const kept = values.slice(start, end);
  // FFT rounding can leave tiny negative values inside: a probability is never below 0.
  for (let j = 0; j < kept.length; j++) if ((kept[j] as number) < 0) kept[j] = 0;
  return { offset: piece.offset + start, values: kept };
}
