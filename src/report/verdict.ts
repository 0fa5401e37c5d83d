/**
 * The verdict: one status for the whole run from every check's gate findings.
 *
 * Rules, in order:
 * 1. A check with at least one `inconclusive` finding could not be measured reliably
 *    (timeouts, invalid answers, a perturbed server). Its `fail` and `warn` findings are set
 *    aside (`Verdict.suppressed`): numbers computed from a perturbed measurement cannot claim
 *    a regression, nor a softer warning. Its `info` findings stay.
 * 2. Then: `fail` if any finding fails; otherwise `inconclusive` if any is inconclusive;
 *    otherwise `warn` if any warns; otherwise `pass`.
 * 3. Reasons are ordered fail, inconclusive, warn, info; within a level by check
 *    (churn, dragon, personas) and then in the order the checks gave them.
 *
 * A regression found by another, well-measured check still fails the run: one check being
 * unmeasurable does not excuse the others.
 */
import type { CheckList } from '../checks/list.js';
import type { CheckName, FailOn } from '../config/schema.js';
import type { GateFinding, Severity, VerdictStatus } from '../checks/types.js';
import { ExitCode } from '../errors.js';
import type { Verdict } from './types.js';

const SEVERITY_ORDER: Record<Severity, number> = { fail: 0, inconclusive: 1, warn: 2, info: 3 };

function bySeverityThenCheck(findings: readonly GateFinding[], checks: CheckList): GateFinding[] {
  const checkRank = (check: CheckName) => {
    const index = checks.findIndex((c) => c.name === check);
    return index === -1 ? checks.length : index;
  };
  return findings
    .map((finding, index) => ({ finding, index }))
    .sort(
      (a, b) =>
        SEVERITY_ORDER[a.finding.severity] - SEVERITY_ORDER[b.finding.severity] ||
        checkRank(a.finding.check) - checkRank(b.finding.check) ||
        a.index - b.index,
    )
    .map(({ finding }) => finding);
}

export function decideVerdict(
  findings: readonly GateFinding[],
  checks: CheckList,
): Omit<Verdict, 'rules'> {
  const unmeasured = new Set(
    findings.filter((f) => f.severity === 'inconclusive').map((f) => f.check),
  );
  const claimsChange = (f: GateFinding) => f.severity === 'fail' || f.severity === 'warn';
  const suppressed = findings.filter((f) => unmeasured.has(f.check) && claimsChange(f));
  const counted = findings.filter((f) => !(unmeasured.has(f.check) && claimsChange(f)));

  const has = (severity: Severity) => counted.some((f) => f.severity === severity);
  const status: VerdictStatus = has('fail')
    ? 'fail'
    : has('inconclusive')
      ? 'inconclusive'
      : has('warn')
        ? 'warn'
        : 'pass';

  return {
    status,
    reasons: bySeverityThenCheck(counted, checks),
    suppressed: bySeverityThenCheck(suppressed, checks),
  };
}

/** What the job does with a verdict under the `fail-on` setting. */
export interface GateOutcome {
  /** True when the action step must be marked failed. */
  failed: boolean;
  /** CLI exit code: 1 regression, 3 could not measure (inconclusive), 0 otherwise. */
  exitCode: ExitCode;
  /** One sentence for the log / `core.setFailed`. */
  message: string;
}

/**
 * The one mapping from a verdict to the CLI's exit code and the action step's state, used by
 * both. The exit code follows the verdict (0 pass and warn, 1 fail, 3 inconclusive) unless
 * `fail-on` is `never`, which makes it 0. `fail-on` decides the step: `regression` fails it on
 * `fail`, `inconclusive` also on `inconclusive`. A shard's verdict covers a slice of the plan:
 * it neither passes nor fails the gate, so a measured shard is 0 and only an unmeasured one
 * (inconclusive) counts. An interrupted run (its verdict is inconclusive) stopped before it
 * measured what was asked, like an unreachable server: it fails the step unless `never`.
 */
export function gateOutcome(
  status: VerdictStatus,
  failOn: FailOn,
  context: { shard?: string | null; interrupted?: boolean } = {},
): GateOutcome {
  const shard = context.shard ?? null;
  if (shard !== null && status !== 'inconclusive') {
    return {
      failed: false,
      exitCode: ExitCode.pass,
      message: `model-gate: shard ${shard} measured — one slice of the plan, not the gate's verdict; model-gate analyze over every shard's log decides`,
    };
  }
  if (failOn === 'never') {
    const notCounted =
      status === 'fail' || status === 'inconclusive' ? ' (not failing: fail-on is never)' : '';
    return {
      failed: false,
      exitCode: ExitCode.pass,
      message: `model-gate: ${status}${notCounted}`,
    };
  }
  if (status === 'fail') {
    return {
      failed: true,
      exitCode: ExitCode.regression,
      message: 'model-gate: regression — at least one gate rule failed',
    };
  }
  if (status === 'inconclusive') {
    const what = shard === null ? 'the measurement' : `the measurement of shard ${shard}`;
    if (context.interrupted) {
      return {
        failed: true,
        exitCode: ExitCode.infrastructure,
        message: `model-gate: inconclusive — the run was interrupted before ${what} was complete`,
      };
    }
    return {
      failed: failOn === 'inconclusive',
      exitCode: ExitCode.infrastructure,
      message: `model-gate: inconclusive — ${what} could not be trusted${failOn === 'inconclusive' ? '' : ` (not failing: fail-on is ${failOn})`}`,
    };
  }
  return { failed: false, exitCode: ExitCode.pass, message: `model-gate: ${status}` };
}
