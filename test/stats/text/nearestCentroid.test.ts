import { describe, expect, it } from 'vitest';
import { createRng } from '../../../src/stats/prng.js';
import {
  attributeFromGram,
  CentroidScorer,
  ClassSums,
  type Gram,
  gramMatrix,
} from '../../../src/stats/text/nearestCentroid.js';
import { cosine, mean, type Vector } from '../../../src/stats/text/vectors.js';

/** Leave-one-out nearest-centroid attribution of rows, as the personas check computes it. */
function leaveOneOutNearestCentroid(rows: readonly Vector[], labels: number[], classes: number) {
  return attributeFromGram(gramMatrix(rows), labels, classes);
}

describe('leaveOneOutNearestCentroid', () => {
  // Class A: a0 = (1, 0), a1 = (0, 1). Class B: b0 = (0.6, 0.8), b1 = (0.28, 0.96).
  const rows: Vector[] = [
    [1, 0],
    [0, 1],
    [0.6, 0.8],
    [0.28, 0.96],
  ];
  const labels = [0, 0, 1, 1];

  it('builds every centroid without the answer under test (hand arithmetic)', () => {
    // a0: A without a0 = (0,1) → cos 0;  B = mean(b0,b1) = (0.44, 0.88) → unit (0.4472, 0.8944)
    //     → cos 0.4472. Nearest: B.
    // a1: A without a1 = (1,0) → cos 0;  B → cos 0.8944. Nearest: B.
    // b0: A = (0.5, 0.5) → unit (0.7071, 0.7071) → cos (0.6+0.8)·0.7071 = 0.9899;
    //     B without b0 = b1 → cos 0.6·0.28 + 0.8·0.96 = 0.936. Nearest: A.
    // b1: A → cos (0.28+0.96)·0.7071 = 0.8768; B without b1 = b0 → 0.936. Nearest: B.
    const { attributed, similarity } = leaveOneOutNearestCentroid(rows, labels, 2);
    expect(attributed).toEqual([1, 1, 0, 1]);
    expect(similarity[0]).toBeCloseTo(0.44 / Math.sqrt(0.968), 12);
    expect(similarity[1]).toBeCloseTo(0.88 / Math.sqrt(0.968), 12);
    expect(similarity[2]).toBeCloseTo(1.4 / Math.SQRT2, 12);
    expect(similarity[3]).toBeCloseTo(0.936, 12);
    // 1 of 4 answers attributed to its own class
    expect(new CentroidScorer(gramMatrix(rows), labels.length, 2).accuracy(labels)).toBe(0.25);
  });

  it('gives a different answer than the in-sample centroid would on this constructed case', () => {
    // With a0 kept inside its own centroid, A = mean(a0, a1) = (0.5, 0.5): cos(a0, A) = 0.7071,
    // above cos(a0, B) = 0.4472, so a0 would be "recognised" only because it resembles itself.
    const inSampleA = mean([rows[0] ?? [], rows[1] ?? []]);
    const centroidB = mean([rows[2] ?? [], rows[3] ?? []]);
    expect(cosine(rows[0] ?? [], inSampleA)).toBeCloseTo(Math.SQRT1_2, 12);
    expect(cosine(rows[0] ?? [], inSampleA)).toBeGreaterThan(cosine(rows[0] ?? [], centroidB));
    expect(leaveOneOutNearestCentroid(rows, labels, 2).attributed[0]).toBe(1);
  });

  it('refuses to attribute when every centroid is equally near', () => {
    // Answers 2 = (0,1,0) and 3 = (0,0,1) share no dimension with each other nor with class 0:
    // for each, its own centroid without it and class 0 both give cosine 0 → no signal.
    // Answers 0 and 1 = (1,0,0): own centroid (1,0,0) → 1, class 1 → 0 → recognised.
    const { attributed, similarity } = leaveOneOutNearestCentroid(
      [
        [1, 0, 0],
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
      ],
      [0, 0, 1, 1],
      2,
    );
    expect(attributed).toEqual([0, 0, null, null]);
    expect(similarity[0]).toBeCloseTo(1, 12);
    expect(similarity[3]).toBeNull();
  });

  it('skips a class reduced to the answer under test', () => {
    // Class 1 holds only (0,1): without it there is no class-1 centroid, so the only
    // candidate is class 0, whatever its cosine.
    const { attributed } = leaveOneOutNearestCentroid(
      [
        [1, 0],
        [1, 0],
        [0, 1],
      ],
      [0, 0, 1],
      2,
    );
    expect(attributed[2]).toBe(0);
  });

  it('breaks exact ties toward the lower class index', () => {
    // x = (s, s, 0) with s = 1/√2, in class 3 with (0, 0, 1). Without x, class 3 is (0,0,1):
    // cos 0; class 2 (0,0,1): cos 0; class 0 (1,0,0) and class 1 (0,1,0): cos s each. The two
    // nearest tie at 0.7071 → class 0.
    const s = Math.SQRT1_2;
    const { attributed, similarity } = leaveOneOutNearestCentroid(
      [
        [1, 0, 0],
        [0, 1, 0],
        [0, 0, 1],
        [s, s, 0],
        [0, 0, 1],
      ],
      [0, 1, 2, 3, 3],
      4,
    );
    expect(attributed[3]).toBe(0);
    expect(similarity[3]).toBeCloseTo(s, 12);
  });
});

describe('ClassSums', () => {
  /**
   * The sums written out as one pass over the members in their own order: per member a and
   * class c, x_a · (the sum of c's members), then per class the sum of its members' own terms.
   * The cosine is the one ClassSums documents, from these sums.
   */
  function referenceCosines(gram: Gram, labels: readonly number[], rows: readonly number[]) {
    const classes = Math.max(...labels) + 1;
    const toward = rows.map(() => new Array<number>(classes).fill(0));
    const length = new Array<number>(classes).fill(0);
    const members = new Array<number>(classes).fill(0);
    rows.forEach((ra, a) => {
      rows.forEach((rb) => {
        const c = labels[rb] as number;
        (toward[a] as number[])[c] =
          ((toward[a] as number[])[c] as number) + (gram.values[ra * gram.size + rb] as number);
      });
    });
    rows.forEach((r, a) => {
      const c = labels[r] as number;
      members[c] = (members[c] as number) + 1;
      length[c] = (length[c] as number) + ((toward[a] as number[])[c] as number);
    });
    return rows.map((r, a) =>
      Array.from({ length: classes }, (_, c) => {
        const self = gram.values[r * gram.size + r] as number;
        const own = c === labels[r];
        const t = (toward[a] as number[])[c] as number;
        const s = t - (own ? self : 0);
        const q = (length[c] as number) - (own ? 2 * t - self : 0);
        const others = (members[c] as number) - (own ? 1 : 0);
        return others === 0 || q <= 1e-12 || self <= 0 ? Number.NaN : s / Math.sqrt(self * q);
      }),
    );
  }

  it('gives the cosines of a pass in member order, bit for bit, whatever the labelling', () => {
    const rng = createRng(5);
    const rows: Vector[] = Array.from({ length: 40 }, () =>
      Array.from({ length: 12 }, () => (rng.next() < 0.6 ? 0 : rng.next())),
    );
    const gram = gramMatrix(rows);
    // Grouped by class (as answers come), interleaved, and shuffled; all rows and a subset.
    const grouped = rows.map((_, i) => Math.floor(i / 8));
    const interleaved = rows.map((_, i) => i % 5);
    const shuffled = rng.shuffle([...grouped]);
    const subset = Int32Array.from([3, 17, 4, 39, 0, 22, 8, 30, 11, 25, 36, 5]);
    for (const labels of [grouped, interleaved, shuffled]) {
      for (const members of [Int32Array.from(rows.keys()), subset]) {
        const sums = new ClassSums(gram, 5);
        sums.fill(labels, members);
        const expected = referenceCosines(gram, labels, [...members]);
        const got = [...members].map((_, a) =>
          Array.from({ length: 5 }, (_, c) => sums.cosine(a, c)),
        );
        expect(got.flat().every((v, k) => Object.is(v, expected.flat()[k]))).toBe(true);
      }
    }
  });
});
