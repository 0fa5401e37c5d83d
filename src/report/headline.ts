/**
 * The headline numbers (action outputs) read from the check sections. A report read back
 * from disk may come from another build, so every field is reached defensively: a missing or
 * malformed value gives null, never a crash.
 */
import { field } from '../render/json.js';
import type { Report, ReportHeadline } from './types.js';

function share(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1
    ? value
    : null;
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/**
 * The gate's method (`section.method`: fisher-bh = method B, rci = method A, effect = the
 * logprobs estimator's items beyond min-effect) decides the counts.
 */
function churnHeadline(
  section: unknown,
): Pick<ReportHeadline, 'churnRate' | 'deteriorated' | 'reversals'> {
  const method = field(section, 'method');
  const gateMethod =
    method === 'fisher-bh' || method === 'rci' || method === 'effect'
      ? field(section, 'comparison', method === 'fisher-bh' ? 'fisherBh' : method)
      : undefined;
  const reversals = field(section, 'comparison', 'reversals');
  return {
    churnRate: share(field(gateMethod, 'churnRate')),
    deteriorated: count(field(gateMethod, 'deteriorated')),
    reversals: Array.isArray(reversals)
      ? reversals.filter((r): r is string => typeof r === 'string')
      : [],
  };
}

function personasAccuracy(section: unknown): number | null {
  const models = field(section, 'models');
  if (!Array.isArray(models)) return null;
  const byRole = (role: string) => models.find((m) => field(m, 'role') === role);
  return share(field(byRole('candidate') ?? byRole('baseline'), 'accuracy'));
}

export function extractHeadline(checks: Report['checks']): ReportHeadline {
  return {
    ...churnHeadline(checks.churn),
    eceBaseline: share(field(checks.dragon, 'baseline', 'ece', 'value')),
    eceCandidate: share(field(checks.dragon, 'candidate', 'ece', 'value')),
    personaAccuracy: personasAccuracy(checks.personas),
  };
}
