/**
 * Convolution of two real sequences through the fast Fourier transform (iterative radix-2
 * Cooley–Tukey): O(n log n) instead of O(n²). Each value carries an absolute rounding error of
 * a few ε·log₂ n times the largest value, so it serves where the values of interest are near
 * the largest (see tiltedTails.ts); exact sums of small laws stay in convolution.ts.
 */

/** In-place transform of (re, im), length a power of two; `inverse` scales by 1/n. */
function transform(re: Float64Array, im: Float64Array, inverse: boolean): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const r = re[i] as number;
      re[i] = re[j] as number;
      re[j] = r;
      const m = im[i] as number;
      im[i] = im[j] as number;
      im[j] = m;
    }
  }
  for (let size = 2; size <= n; size <<= 1) {
    const angle = ((inverse ? 2 : -2) * Math.PI) / size;
    const half = size >> 1;
    for (let k = 0; k < half; k++) {
      const wr = Math.cos(angle * k);
      const wi = Math.sin(angle * k);
      for (let start = 0; start < n; start += size) {
        const a = start + k;
        const b = a + half;
        const xr = (re[b] as number) * wr - (im[b] as number) * wi;
        const xi = (re[b] as number) * wi + (im[b] as number) * wr;
        re[b] = (re[a] as number) - xr;
        im[b] = (im[a] as number) - xi;
        re[a] = (re[a] as number) + xr;
        im[a] = (im[a] as number) + xi;
      }
    }
  }
  if (inverse) {
    for (let i = 0; i < n; i++) {
      re[i] = (re[i] as number) / n;
      im[i] = (im[i] as number) / n;
    }
  }
}

/**
 * c[k] = Σ a[i]·b[k − i]. Both inputs go into one complex transform (a as the real part, b as
 * the imaginary part) and are separated by the transform's symmetry.
 */
export function fftConvolve(a: Float64Array, b: Float64Array): Float64Array {
  const length = a.length + b.length - 1;
  let n = 1;
  while (n < length) n <<= 1;
  const re = new Float64Array(n);
  const im = new Float64Array(n);
  re.set(a);
  im.set(b);
  transform(re, im, false);
  // With z = A + iB: A[k] = (Z[k] + conj Z[n−k]) / 2, B[k] = (Z[k] − conj Z[n−k]) / 2i, and
  // the product A[k]·B[k] is transformed back.
  const pr = new Float64Array(n);
  const pi = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const j = (n - k) & (n - 1);
    const zr = re[k] as number;
    const zi = im[k] as number;
    const cr = re[j] as number;
    const ci = -(im[j] as number);
    const ar = (zr + cr) / 2;
    const ai = (zi + ci) / 2;
    const br = (zi - ci) / 2;
    const bi = -(zr - cr) / 2;
    pr[k] = ar * br - ai * bi;
    pi[k] = ar * bi + ai * br;
  }
  transform(pr, pi, true);
  return pr.subarray(0, length);
}
