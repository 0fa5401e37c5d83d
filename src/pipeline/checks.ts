import { type CheckList, checkNamed, sectionOf } from '../checks/list.js';
import type {
  AnyCheck,
  CheckContext,
  CheckPage,
  EvaluatedGateRule,
  GateFinding,
  GateRuleCard,
  RuleOutcome,
  Severity,
} from '../checks/types.js';
import type { PlanGrowth, WorkUnit } from '../checks/workUnit.js';
import type { Report } from '../report/types.js';
import type { FailedRequests } from './failedRequests.js';
import { errorMessage } from '../text/format.js';

export interface LoadedCheck {
  check: AnyCheck;
  definitions: unknown;
}

/** The models in run order: baseline first (model-major), the candidate when there is one. */
export function modelOrder(ctx: CheckContext): string[] {
  const { baseline, candidate } = ctx.models;
  return candidate && candidate !== baseline ? [baseline, candidate] : [baseline];
}

/** Loads every selected check's definitions before anything runs: bad input fails first. */
export async function loadChecks(ctx: CheckContext, checks: CheckList): Promise<LoadedCheck[]> {
  const loaded: LoadedCheck[] = [];
  for (const name of ctx.config.checks) {
    const check = checkNamed(checks, name);
    loaded.push({ check, definitions: await check.load(ctx) });
  }
  return loaded;
}

export function planChecks(checks: readonly LoadedCheck[], ctx: CheckContext): WorkUnit[] {
  const units: WorkUnit[] = [];
  for (const model of modelOrder(ctx)) {
    // One unit at a time: a spread of a large plan (100k+ units) overflows the call stack.
    for (const { check, definitions } of checks) {
      for (const unit of check.plan(definitions, ctx, model)) units.push(unit);
    }
  }
  return units;
}

/** The checks' plans that grow as answers arrive, as one; undefined when none does. */
export function planGrowth(
  checks: readonly LoadedCheck[],
  ctx: CheckContext,
): PlanGrowth | undefined {
  const growths = checks.flatMap(
    ({ check, definitions }) => check.adaptive?.growth(definitions, ctx) ?? [],
  );
  if (growths.length === 0) return undefined;
  return {
    observe: (records) => growths.flatMap((growth) => growth.observe(records)),
    mostCalls: (units) =>
      growths.reduce((sum, growth) => sum + (growth.mostCalls?.(units) ?? 0), 0),
  };
}

export interface Analysed {
  sections: Report['checks'];
  findings: GateFinding[];
  rules: EvaluatedGateRule[];
}

const OUTCOME_RANK: Record<Severity, number> = { fail: 0, inconclusive: 1, warn: 2, info: 3 };

/** A rule's outcome on this run: its most severe finding, or pass when it has none. */
export function evaluateRules(
  cards: readonly GateRuleCard[],
  findings: readonly GateFinding[],
): EvaluatedGateRule[] {
  return cards.map((card) => {
    let outcome: RuleOutcome = 'pass';
    for (const f of findings) {
      if (f.check !== card.check || f.rule !== card.rule || f.severity === 'info') continue;
      if (outcome === 'pass' || OUTCOME_RANK[f.severity] < OUTCOME_RANK[outcome as Severity]) {
        outcome = f.severity;
      }
    }
    return { ...card, outcome };
  });
}

/**
 * Pure: the checks' folded sections and failed requests (and, for nightly mode, a previous
 * report) → sections, findings and rules.
 */
export function analyseChecks(
  checks: readonly LoadedCheck[],
  measured: { sections: ReadonlyMap<string, unknown>; failed: FailedRequests },
  ctx: CheckContext,
  previous: Report | null,
): Analysed {
  const sections: Record<string, unknown> = {};
  const findings: GateFinding[] = [];
  const rules: EvaluatedGateRule[] = [];
  for (const { check } of checks) {
    const section = measured.sections.get(check.name);
    sections[check.name] = section;
    const checkFindings = [
      // A previous report without this check's section is null, not undefined: the check must
      // say it could not compare, where no previous report at all means no comparison asked.
      ...check.gate(
        section,
        ctx,
        previous ? (sectionOf(previous.checks, check.name) ?? null) : undefined,
      ),
      ...measured.failed.findings(check.name, modelOrder(ctx), check.maxTimeoutShare(ctx.config)),
    ];
    for (const finding of checkFindings) findings.push(finding);
    for (const rule of evaluateRules(check.rules(section, ctx), checkFindings)) rules.push(rule);
  }
  return { sections: sections as Report['checks'], findings, rules };
}

/** SHA-256 of each prompt template the run used, for the provenance section. */
export function promptHashes(ctx: CheckContext, checks: CheckList): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const check of checks) {
    if (ctx.config.checks.includes(check.name))
      Object.assign(hashes, check.provenance?.promptHashes?.(ctx.config) ?? {});
  }
  return hashes;
}

/**
 * Each check's part of report.html, from its section, definitions and records. Pure. A check
 * whose part cannot be built costs its part only (the page shows its summary section instead),
 * and says why in `problems`.
 */
export function checkPages(
  checks: readonly LoadedCheck[],
  collected: ReadonlyMap<string, unknown>,
  ctx: CheckContext,
  sections: Report['checks'],
): { parts: CheckPage[]; problems: string[] } {
  const parts: CheckPage[] = [];
  const problems: string[] = [];
  for (const { check, definitions } of checks) {
    const section = sectionOf(sections, check.name);
    if (section === undefined) continue;
    try {
      const own = collected.get(check.name);
      if (check.page) parts.push(check.page.data({ section, collected: own, definitions, ctx }));
    } catch (error) {
      problems.push(
        `${check.name}: its part of report.html could not be built: ${errorMessage(error)}`,
      );
    }
  }
  return { parts, problems };
}
