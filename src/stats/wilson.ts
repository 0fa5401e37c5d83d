/**
 * Wilson score interval for a binomial proportion (E. B. Wilson, JASA 22, 1927), the interval
 * Newcombe (Statistics in Medicine 17, 1998) recommends over the Wald interval: it stays inside
 * [0, 1] and keeps close to nominal coverage for small counts and proportions near 0 or 1.
 *
 *   centre = (x + z²/2) / (n + z²)
 *   half   = z·sqrt(x(n − x)/n + z²/4) / (n + z²)
 */
import { normalQuantile } from './normal.js';

export function wilsonInterval(
  successes: number,
  trials: number,
  confidence = 0.95,
): { low: number; high: number } {
  if (!Number.isFinite(trials) || trials < 0) {
    throw new RangeError(`wilsonInterval needs trials ≥ 0, got ${trials}`);
  }
  if (!Number.isFinite(successes) || successes < 0 || successes > trials) {
    throw new RangeError(`wilsonInterval needs 0 ≤ successes ≤ trials, got ${successes}/${trials}`);
  }
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`wilsonInterval needs a confidence in (0, 1), got ${confidence}`);
  }
  if (trials === 0) return { low: 0, high: 1 };
  const z = normalQuantile(1 - (1 - confidence) / 2);
  const z2 = z * z;
  const denominator = trials + z2;
  const centre = (successes + z2 / 2) / denominator;
  const half = (z * Math.sqrt((successes * (trials - successes)) / trials + z2 / 4)) / denominator;
  // The bounds are exactly 0 and 1 when nothing / everything succeeded; rounding must not
  // push them past.
  const low = successes === 0 ? 0 : Math.max(0, centre - half);
  const high = successes === trials ? 1 : Math.min(1, centre + half);
  return { low, high };
}
