import { ascendingOrder } from './pValueOrder.js';

/**
 * Benjamini–Hochberg adjusted p-values ("q-values"), as R's p.adjust(method = "BH"):
 *   q_(i) = min_{j ≥ i} min(1, m·p_(j) / j)
 * over the p-values sorted ascending. Rejecting every hypothesis with q ≤ α controls the
 * false discovery rate at α for independent (or positively dependent) tests
 * (Benjamini & Hochberg, JRSS B 57, 1995).
 * Returns the q-values in the order of the input.
 */
export function benjaminiHochberg(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = ascendingOrder(pValues, 'benjaminiHochberg');
  const q = new Array<number>(m);
  let running = 1;
  for (let rank = m; rank >= 1; rank--) {
    const index = order[rank - 1] as number;
    const p = pValues[index] as number;
    running = Math.min(running, (m * p) / rank);
    q[index] = Math.min(1, running);
  }
  return q;
}
