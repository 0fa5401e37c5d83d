/**
 * Limits on the share of a run's requests that went wrong, common to the checks' `gate:` blocks:
 * past them a check says inconclusive rather than judge the model on what it did answer.
 */
import { z } from 'zod';

/** A share 0–1 with its default and its sentence in the config reference. */
function shareLimit(fallback: number, description: string) {
  return z.number().min(0).max(1).default(fallback).describe(description);
}

/** `gate.max-timeout-share`: requests that timed out. */
export function maxTimeoutShare() {
  return shareLimit(0.05, 'above this share of timed-out requests: inconclusive');
}

/** `gate.max-invalid-share`: answers that could not be read; `what` names them for the check. */
export function maxInvalidShare(what = 'invalid answers') {
  return shareLimit(0.1, `above this share of ${what}: inconclusive`);
}
