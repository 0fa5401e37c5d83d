/**
 * Operating characteristics of the gate rules: how often each rule trips when nothing changed
 * (false alarm) and how often it catches a known change (power), measured on data generated
 * from a known truth — never from the tool's own output.
 */
export interface OcOptions {
  /** Simulated runs per scenario. */
  runs: number;
  /** Seed of the generator: the same seed gives the same table. */
  seed: number;
}

/** One rule (or the whole check, rule "any") under one scenario. */
export interface OcRow {
  check: string;
  rule: string;
  scenario: string;
  /** "no change": the row measures the false-alarm rate; otherwise the power. */
  kind: 'no change' | 'known effect';
  runs: number;
  /** Runs in which the rule tripped (failed the gate, or named the expected domain/pair). */
  hits: number;
  /** The target the rate must meet, e.g. "≤ 1.7%" or "≥ 90%". */
  target: string;
  /** Whether the measured rate meets the target. */
  met: boolean;
}

export interface CheckOc {
  rows: OcRow[];
  /**
   * For each no-change run, whether the check's gate failed: the whole-gate false-alarm rate
   * comes from combining these run by run across checks.
   */
  noChangeGateFails: boolean[];
}
