/**
 * The churn check's share of the run's false-alarm budget, split equally (Bonferroni) between
 * its two rules that can fail the gate: too many reliably worse items (max-deteriorated) and a
 * domain that lost accuracy (domain-loss). Timeouts and invalid answers make the check
 * inconclusive and the aggregate Δ only warns: neither is counted against the budget.
 */
export interface ChurnBudget {
  /** The check's share (false-alarm-rate ÷ selected checks). */
  check: number;
  maxDeteriorated: number;
  domainLoss: number;
}

export const CHURN_FAILING_RULES = 2;

export function churnBudget(checkShare: number): ChurnBudget {
  const each = checkShare / CHURN_FAILING_RULES;
  return { check: checkShare, maxDeteriorated: each, domainLoss: each };
}
