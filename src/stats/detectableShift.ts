/**
 * The smallest true shift a one-sided test detects with a given power, in the normal
 * approximation: the test rejects when the estimate exceeds z(1 − α)·SE (and, for a rule that
 * also asks the estimate to pass a practical threshold t, when it exceeds t), so a shift δ is
 * caught with power 1 − β when δ − z(1 − β)·SE clears both: δ = max(t + z(1−β)·SE,
 * (z(1−α) + z(1−β))·SE). (The usual sample-size formula, e.g. Chow, Shao & Wang, Sample Size
 * Calculations in Clinical Research, 2008, §3.1, solved for the shift.)
 */
import { normalQuantile } from './normal.js';

export function detectableShift(
  standardError: number,
  alpha: number,
  threshold = 0,
  power = 0.8,
): number {
  const zPower = normalQuantile(power);
  return Math.max(
    threshold + zPower * standardError,
    (normalQuantile(1 - alpha) + zPower) * standardError,
  );
}
