/**
 * Leave-one-out nearest-centroid attribution: hide who wrote one answer, build each author's
 * centroid from their *other* answers, and give the answer to the centroid with the highest
 * cosine. Leaving the answer out of its own centroid is what makes the score honest: with it
 * in, every answer partly resembles itself.
 *
 * Everything is computed from the Gram matrix G[i][j] = x_i · x_j, because the centroid of a
 * class without answer i points the same way as the sum of its other rows:
 *
 *   s_ic = Σ_{j∈c, j≠i} G[i][j]                 (x_i · that sum)
 *   q_ic = Σ_{j,k∈c, j,k≠i} G[j][k]             (squared length of that sum)
 *   cos(x_i, centroid_c without i) = s_ic / (|x_i| · √q_ic)
 *
 * With the Gram matrix at hand, relabelling the answers (the permutation null) costs O(n²)
 * per relabelling instead of rebuilding every centroid; the matrix is one flat array and the
 * per-class sums reuse their buffers, since the null relabels a thousand times.
 */
import type { Vector } from './vectors.js';

export interface CentroidAttribution {
  /** Attributed class per answer; null when every centroid is equally near (no signal). */
  attributed: (number | null)[];
  /** Cosine to the attributed centroid; null with the attribution. */
  similarity: (number | null)[];
}

/** The dot products of n vectors, row-major: `values[i * size + j] = x_i · x_j`. */
export interface Gram {
  readonly size: number;
  readonly values: Float64Array;
}

/** Two cosines closer than this are a tie (rounding differs between equal sums). */
const TIE = 1e-12;

/**
 * Every pair's dot product. TF-IDF rows are mostly zeros (a short answer uses a few words of
 * the whole vocabulary), so each product runs over the nonzero entries of one row against the
 * other row: the same nonzero terms in the same order as the dense sum, so the same value,
 * bit for bit, at a fraction of the cost. A zero term can only add ±0 to the sum.
 */
export function gramMatrix(rows: readonly Vector[]): Gram {
  const size = rows.length;
  const values = new Float64Array(size * size);
  const width = rows[0]?.length ?? 0;
  for (const row of rows) {
    if (row.length !== width) {
      throw new RangeError(`vectors of different lengths: ${width} and ${row.length}`);
    }
  }
  const nonzero = rows.map(nonzeroEntries);
  for (let i = 0; i < size; i++) {
    const a = rows[i] as Vector;
    for (let j = i; j < size; j++) {
      const { index, value } = nonzero[j] as SparseRow;
      let total = 0;
      for (let k = 0; k < index.length; k++) {
        total += (a[index[k] as number] as number) * (value[k] as number);
      }
      values[i * size + j] = total;
      values[j * size + i] = total;
    }
  }
  return { size, values };
}

interface SparseRow {
  index: Int32Array;
  value: Float64Array;
}

function nonzeroEntries(row: Vector): SparseRow {
  let count = 0;
  for (const v of row) if (v !== 0) count++;
  const index = new Int32Array(count);
  const value = new Float64Array(count);
  let at = 0;
  row.forEach((v, k) => {
    if (v === 0) return;
    index[at] = k;
    value[at] = v;
    at++;
  });
  return { index, value };
}

/**
 * The attribution from a Gram matrix. Ties between the nearest centroids go to the class
 * with the lowest index (catalogue order), so the result never depends on rounding noise.
 */
export function attributeFromGram(
  gram: Gram,
  labels: readonly number[],
  classCount: number,
): CentroidAttribution {
  const sums = new ClassSums(gram, classCount);
  sums.fill(labels, everyRow(labels.length));
  const attributed: (number | null)[] = [];
  const similarity: (number | null)[] = [];
  for (let i = 0; i < labels.length; i++) {
    const best = sums.nearest(i);
    attributed.push(best < 0 ? null : best);
    similarity.push(best < 0 ? null : sums.cosine(i, best));
  }
  return { attributed, similarity };
}

/**
 * The accuracy of many labellings of the same answers (a permutation null), with the sums'
 * buffers allocated once.
 */
export class CentroidScorer {
  private readonly sums: ClassSums;
  private readonly rows: Int32Array;

  constructor(
    gram: Gram,
    private readonly n: number,
    classCount: number,
  ) {
    this.sums = new ClassSums(gram, classCount);
    this.rows = everyRow(n);
  }

  accuracy(labels: readonly number[]): number {
    if (this.n === 0) return 0;
    this.sums.fill(labels, this.rows);
    let correct = 0;
    for (let i = 0; i < this.n; i++) {
      const best = this.sums.nearest(i);
      if (best >= 0 && best === labels[i]) correct++;
    }
    return correct / this.n;
  }
}

function everyRow(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i);
}

/**
 * Nearest-centroid sums over some rows of a Gram matrix (all answers of a model, or the
 * answers the swap test gives one model): per member a and class c, s_ac before leaving a out
 * (x_a · the sum of c's members), and per class the squared length of that sum. `nearest` and
 * `cosine` take a out of its own class. Members are numbered in the order `fill` got them.
 */
export class ClassSums {
  private readonly toward: Float64Array;
  private readonly classLength: Float64Array;
  private readonly members: Int32Array;
  private readonly label: Int32Array;
  private readonly row: Int32Array;
  /** Gram rows of the members, grouped by class, each class in member order. */
  private readonly grouped: Int32Array;
  /** Where each class's members start in `grouped`; one more entry than classes. */
  private readonly start: Int32Array;
  private readonly cursor: Int32Array;

  constructor(
    private readonly gram: Gram,
    private readonly classCount: number,
  ) {
    this.toward = new Float64Array(gram.size * classCount);
    this.classLength = new Float64Array(classCount);
    this.members = new Int32Array(classCount);
    this.label = new Int32Array(gram.size);
    this.row = new Int32Array(gram.size);
    this.grouped = new Int32Array(gram.size);
    this.start = new Int32Array(classCount + 1);
    this.cursor = new Int32Array(classCount);
  }

  /** The sums over `rows` (Gram rows), row r of class `labels[r]`. */
  fill(labels: ArrayLike<number>, rows: Int32Array): void {
    const { classCount, toward, classLength, members, label, row } = this;
    const { size, values } = this.gram;
    const n = rows.length;
    if (labels.length !== size) throw new RangeError(`${size} vectors for ${labels.length} labels`);
    members.fill(0);
    for (let a = 0; a < n; a++) {
      const r = rows[a] as number;
      const c = labels[r] as number;
      if (!Number.isInteger(c) || c < 0 || c >= classCount) {
        throw new RangeError(`label ${c} outside 0..${classCount - 1}`);
      }
      row[a] = r;
      label[a] = c;
      members[c] = (members[c] as number) + 1;
    }
    const { grouped, start, cursor } = this;
    for (let c = 0; c < classCount; c++) {
      start[c + 1] = (start[c] as number) + (members[c] as number);
      cursor[c] = start[c] as number;
    }
    for (let b = 0; b < n; b++) {
      const c = label[b] as number;
      grouped[cursor[c] as number] = row[b] as number;
      cursor[c] = (cursor[c] as number) + 1;
    }
    // Each sum adds its class's terms in member order, as a pass over the members in their
    // own order would: the same value bit for bit, one store per class instead of per term.
    for (let a = 0; a < n; a++) {
      const from = (row[a] as number) * size;
      const out = a * classCount;
      for (let c = 0; c < classCount; c++) {
        let sum = 0;
        const end = start[c + 1] as number;
        for (let k = start[c] as number; k < end; k++) {
          sum += values[from + (grouped[k] as number)] as number;
        }
        toward[out + c] = sum;
      }
    }
    classLength.fill(0);
    for (let a = 0; a < n; a++) {
      const c = label[a] as number;
      classLength[c] = (classLength[c] as number) + (toward[a * classCount + c] as number);
    }
  }

  /** cos(x_a, centroid of c without a); NaN where that centroid does not exist. */
  cosine(a: number, c: number): number {
    const r = this.row[a] as number;
    const self = this.gram.values[r * this.gram.size + r] as number;
    const isOwn = c === this.label[a];
    const others = (this.members[c] as number) - (isOwn ? 1 : 0);
    const t = this.toward[a * this.classCount + c] as number;
    const s = t - (isOwn ? self : 0);
    const q = (this.classLength[c] as number) - (isOwn ? 2 * t - self : 0);
    return others === 0 || q <= TIE || self <= 0 ? Number.NaN : s / Math.sqrt(self * q);
  }

  /**
   * The nearest class of member a, or −1: no centroid to compare with, or several that are all
   * equally near (one candidate centroid is a real choice).
   */
  nearest(a: number): number {
    let best = -1;
    let bestValue = Number.NEGATIVE_INFINITY;
    let first = Number.NaN;
    let allEqual = true;
    let candidates = 0;
    for (let c = 0; c < this.classCount; c++) {
      const value = this.cosine(a, c);
      if (Number.isNaN(value)) continue;
      candidates++;
      if (candidates === 1) first = value;
      else if (Math.abs(value - first) > TIE) allEqual = false;
      if (value > bestValue + TIE) {
        best = c;
        bestValue = value;
      }
    }
    return candidates > 1 && allEqual ? -1 : best;
  }
}
