/**
 * Holm's step-down adjusted p-values (Holm, Scand. J. Statist. 6, 1979), as R's
 * p.adjust(method = "holm"):
 *   p̃_(i) = max_{j ≤ i} min(1, (m − j + 1)·p_(j))
 * over the p-values sorted ascending. Rejecting every hypothesis with p̃ ≤ α keeps the chance
 * of any false rejection at or below α under any dependence between the tests, and rejects at
 * least what Bonferroni rejects. Returns the adjusted values in the order of the input.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  for (const p of pValues) {
    if (Number.isNaN(p) || p < 0 || p > 1) {
      throw new RangeError(`holmAdjust needs p-values in [0, 1], got ${p}`);
    }
  }
  const order = pValues
    .map((_, i) => i)
    .sort((i, j) => (pValues[i] as number) - (pValues[j] as number));
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((index, rank) => {
    const p = pValues[index] as number;
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}
