/**
 * The indices of `pValues` from the smallest p-value to the largest, for the step-wise
 * adjustments (Holm, Benjamini–Hochberg). Throws a RangeError naming `adjustment` when a value
 * is not a probability.
 */
export function ascendingOrder(pValues: readonly number[], adjustment: string): number[] {
  for (const p of pValues) {
    if (Number.isNaN(p) || p < 0 || p > 1) {
      throw new RangeError(`${adjustment} needs p-values in [0, 1], got ${p}`);
    }
  }
  return pValues.map((_, i) => i).sort((i, j) => (pValues[i] as number) - (pValues[j] as number));
}
