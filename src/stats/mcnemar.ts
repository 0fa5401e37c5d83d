/**
 * McNemar's test for paired binary outcomes, exact conditional and mid-p versions.
 *
 * Only the discordant pairs carry information: b pairs went right→wrong and c pairs
 * wrong→right. Under no change each discordant pair is a fair coin, so with m = b + c and
 * k = min(b, c):
 *   exact p = min(1, 2·P(X ≤ k)),            X ~ Bin(m, ½)
 *   mid-p   = 2·P(X ≤ k) − P(X = k)           (capped at 1)
 * Fagerland, Lydersen & Laake (BMC Medical Research Methodology 13:91, 2013) recommend the
 * mid-p version: the exact one is conservative, the mid-p keeps close to the nominal level.
 */

export interface McNemarResult {
  /** Pairs that went from success to failure. */
  worse: number;
  /** Pairs that went from failure to success. */
  better: number;
  exactP: number;
  midP: number;
}

export function mcnemarTest(worse: number, better: number): McNemarResult {
  for (const count of [worse, better]) {
    if (!Number.isInteger(count) || count < 0) {
      throw new RangeError(`mcnemarTest needs non-negative integer counts, got ${count}`);
    }
  }
  const m = worse + better;
  if (m === 0) return { worse, better, exactP: 1, midP: 1 };
  const k = Math.min(worse, better);
  // P(X = i) for X ~ Bin(m, ½), built up by the ratio C(m, i+1)/C(m, i) = (m − i)/(i + 1)
  // from P(X = 0) = 2^−m, in log space so large m does not underflow to 0 first.
  let logTerm = -m * Math.LN2;
  let cumulative = 0;
  let pointAtK = 0;
  for (let i = 0; i <= k; i++) {
    const term = Math.exp(logTerm);
    cumulative += term;
    if (i === k) pointAtK = term;
    logTerm += Math.log((m - i) / (i + 1));
  }
  return {
    worse,
    better,
    exactP: Math.min(1, 2 * cumulative),
    midP: Math.min(1, 2 * cumulative - pointAtK),
  };
}
