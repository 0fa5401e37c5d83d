/**
 * Benjamini–Hochberg adjusted p-values ("q-values"), as R's p.adjust(method = "BH"):
 *   q_(i) = min_{j ≥ i} min(1, m·p_(j) / j)
 * over the p-values sorted ascending. Rejecting every hypothesis with q ≤ α controls the
 * false discovery rate at α for independent (or positively dependent) tests
 * (Benjamini & Hochberg, JRSS B 57, 1995).
 * Returns the q-values in the order of the input.
 *
 * Tied p-values share one q-value (the minimum is reached at the last of them), so only the
 * distinct values are sorted, each with how many hypotheses have it: the thousands of
 * replicates of a null calibration test items whose exact p-values take a few hundred values.
 */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const ties = new Map<number, number>();
  for (const p of pValues) {
    if (Number.isNaN(p) || p < 0 || p > 1) {
      throw new RangeError(`benjaminiHochberg needs p-values in [0, 1], got ${p}`);
    }
    ties.set(p, (ties.get(p) ?? 0) + 1);
  }
  const distinct = [...ties.keys()].sort((a, b) => a - b);
  const qOf = new Map<number, number>();
  let running = 1;
  // The rank of the last hypothesis with the p-value at hand.
  let rank = m;
  for (let d = distinct.length - 1; d >= 0; d--) {
    const p = distinct[d] as number;
    running = Math.min(running, (m * p) / rank);
    qOf.set(p, Math.min(1, running));
    rank -= ties.get(p) as number;
  }
  return pValues.map((p) => qOf.get(p) as number);
}
