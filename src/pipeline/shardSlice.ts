/**
 * A shard measures a slice of the plan, and a check's slice may hold none of one model's units
 * (with two shards, one of them may hold every maze game of the baseline). The check's analysis
 * then finds nothing to compare and says "inconclusive": the nature of the slice, not a
 * measurement that failed. Those findings are kept as info, naming what the slice lacks, so a
 * shard's exit code says only whether its slice was measured; its coverage and failed requests
 * still count, and the merge (`model-gate analyze` over every shard's log) judges the plan.
 */
import { type CheckList, checkNamed } from '../checks/list.js';
import type { GateFinding } from '../checks/types.js';
import type { WorkUnit } from '../checks/workUnit.js';

/** Rules about the measurement itself: they keep their severity in a slice. */
const MEASUREMENT_RULES = new Set(['failed-requests', 'incomplete']);

export interface SliceInput {
  findings: readonly GateFinding[];
  slice: readonly WorkUnit[];
  models: readonly string[];
  shard: string;
  checks: CheckList;
}

export function sliceFindings(input: SliceInput): GateFinding[] {
  const { findings, slice, models, shard } = input;
  const held = new Set(slice.map((unit) => `${unit.check}\n${unit.model}`));
  return findings.map((finding) => {
    if (finding.severity !== 'inconclusive' || MEASUREMENT_RULES.has(finding.rule)) return finding;
    const lacking = models.filter((model) => !held.has(`${finding.check}\n${model}`));
    if (lacking.length === 0) return finding;
    const units = checkNamed(input.checks, finding.check).unit[1];
    return {
      ...finding,
      severity: 'info',
      message: `shard ${shard} holds no ${finding.check} ${units} of ${lacking.join(' or ')}, so its slice compares nothing there (the merge of every shard does): ${finding.message}`,
    };
  });
}
