import { describe, expect, it } from 'vitest';
import { convolution } from '../../src/stats/convolution.js';
import { fftConvolve } from '../../src/stats/fft.js';
import { hypergeometric } from '../../src/stats/hypergeometric.js';
import { createRng } from '../../src/stats/prng.js';
import { tiltedTails } from '../../src/stats/tiltedTails.js';

/** Laws of `count` items at K = 15 per model (some answers invalid), as the domain test has. */
function itemLaws(count: number, seed: number, shared = false): number[][] {
  const rng = createRng(seed);
  const laws: number[][] = [];
  // Shared: items of equal margins give one array, as the domain test passes them.
  const memo = new Map<string, number[]>();
  while (laws.length < count) {
    const n1 = rng.next() < 0.1 ? 14 : 15;
    const n2 = rng.next() < 0.1 ? 13 : 15;
    const t = rng.int(n1 + n2 + 1);
    const id = `${n1} ${n2} ${t}`;
    const pmf = (shared ? memo.get(id) : undefined) ?? hypergeometric(n1, n2, t).pmf;
    memo.set(id, pmf);
    if (pmf.length > 1) laws.push(pmf);
  }
  return laws;
}

function relative(a: number, b: number): number {
  return a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
}

describe('fftConvolve', () => {
  it('equals the direct sum', () => {
    const a = Float64Array.from([0.1, 0.2, 0.3, 0.4]);
    const b = Float64Array.from([0.5, 0.25, 0.25]);
    const c = fftConvolve(a, b);
    const direct = [0.05, 0.125, 0.225, 0.325, 0.175, 0.1];
    expect(c).toHaveLength(6);
    for (const [i, v] of direct.entries()) expect(c[i]).toBeCloseTo(v, 15);
  });
});

describe('tiltedTails', () => {
  it.each([
    ['a law per item', false],
    ['laws shared by items of equal margins (raised to powers)', true],
  ])(
    'matches the exact tails within 1e-10 relative, from the centre to tails of 1e-40: %s',
    (_, shared) => {
      const laws = itemLaws(1500, 3, shared);
      if (shared) expect(new Set(laws).size).toBeLessThan(200);
      const mean = laws.reduce((sum, pmf) => sum + pmf.reduce((m, p, k) => m + k * p, 0), 0);
      let sd = 0;
      for (const pmf of laws) {
        const m = pmf.reduce((s, p, k) => s + k * p, 0);
        sd += pmf.reduce((s, p, k) => s + (k - m) * (k - m) * p, 0);
      }
      sd = Math.sqrt(sd);
      // The exact law of T once, its tails summed from each end.
      const dist = convolution(laws);
      const exactTails = (at: number) => {
        let lower = 0;
        let upper = 0;
        for (let j = 0; j < dist.length; j++) {
          if (j <= at) lower += dist[j] as number;
          if (j >= at) upper += dist[j] as number;
        }
        return { lower, upper };
      };
      let smallest = 1;
      for (const z of [-14, -9, -5, -2.5, -1, -0.3, 0, 0.4, 1.2, 3, 6, 13]) {
        const at = Math.round(mean + z * sd);
        const exact = exactTails(at);
        const tilted = tiltedTails(laws, at);
        expect(relative(tilted.lower, exact.lower)).toBeLessThan(1e-10);
        expect(relative(tilted.upper, exact.upper)).toBeLessThan(1e-10);
        smallest = Math.min(smallest, exact.lower, exact.upper);
      }
      // The comparison reached far tails.
      expect(smallest).toBeLessThan(1e-40);
    },
  );

  it('gives the exact product at the ends of the support and 0 or 1 beyond them', () => {
    const laws = itemLaws(40, 8);
    const span = laws.reduce((s, pmf) => s + pmf.length - 1, 0);
    const first = laws.reduce((p, pmf) => p * (pmf[0] as number), 1);
    expect(tiltedTails(laws, 0)).toEqual({ lower: first, upper: 1 });
    expect(tiltedTails(laws, span + 1)).toEqual({ lower: 1, upper: 0 });
    expect(tiltedTails(laws, -1)).toEqual({ lower: 0, upper: 1 });
  });
});
