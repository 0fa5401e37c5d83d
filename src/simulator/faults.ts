/**
 * Which faults hit a request. A fault applies when every selector it has matches: the
 * model's n-th generation request (`requests`), the n-th arrival of an identical request
 * (`attempts`: a retry is a second attempt, so `attempts: [1]` fails once and lets the retry
 * through), and a seeded draw under `rate`. The draw depends on the scenario seed, the
 * request and its attempt number only, so it does not depend on how concurrent requests
 * interleave.
 */
import { createRng, seedFromText } from '../stats/prng.js';
import type { Fault } from './scenario.js';

export interface RequestIdentity {
  model: string;
  /** Hash of everything that makes two requests identical. */
  requestHash: string;
  /** 1-based index of this request among the model's generation requests. */
  arrival: number;
  /** 1-based count of identical requests seen so far, this one included. */
  attempt: number;
}

export function activeFaults(
  faults: readonly Fault[],
  request: RequestIdentity,
  scenarioSeed: number,
): Fault[] {
  return faults.filter((fault, index) => {
    if (fault.requests && !fault.requests.includes(request.arrival)) return false;
    if (fault.attempts && !fault.attempts.includes(request.attempt)) return false;
    if (fault.rate >= 1) return true;
    const seed = seedFromText(
      `${scenarioSeed}|${request.model}|${request.requestHash}|${request.attempt}|${index}`,
    );
    return createRng(seed).next() < fault.rate;
  });
}
