/**
 * The law of a sum of independent variables on 0, 1, …, given each one's probabilities:
 * dist[j] = P(Σ = j). The exact stratified and staged tests both need it: the statistic
 * Σ x2 over strata is the sum of one hypergeometric variable per stratum.
 *
 * Two buffers of the final length are reused from law to law: a new array per law made a
 * pooled test over 7,000 items allocate close to a gigabyte.
 */
export function convolution(laws: readonly (readonly number[])[]): Float64Array {
  let span = 1;
  for (const pmf of laws) span += pmf.length - 1;
  let dist = new Float64Array(span);
  let next = new Float64Array(span);
  dist[0] = 1;
  let length = 1;
  for (const pmf of laws) {
    const grown = length + pmf.length - 1;
    next.fill(0, 0, grown);
    for (let a = 0; a < length; a++) {
      const pa = dist[a] as number;
      if (pa === 0) continue;
      for (let b = 0; b < pmf.length; b++)
        next[a + b] = (next[a + b] as number) + pa * (pmf[b] as number);
    }
    [dist, next] = [next, dist];
    length = grown;
  }
  return dist.subarray(0, length);
}
