/**
 * Everything a run does before its first request: definitions loaded (items, catalogue,
 * seeds), the plan built, the provider created. `model-gate run` and `model-gate validate`
 * both go through here, so validate refuses exactly what run would refuse, with the same
 * message, and never contacts a server.
 */
import type { LoadedConfig } from '../config/load.js';
import type { CheckName } from '../config/schema.js';
import type { AnyCheck, CheckContext } from '../checks/types.js';
import { createProvider } from '../providers/create.js';
import { loadEngine } from '../providers/embedded/engine.js';
import type { Provider } from '../providers/types.js';
import { estimatedCalls } from '../plan/cost.js';
import type { PlanGrowth, WorkUnit } from '../checks/workUnit.js';
import { checkContext } from '../checks/context.js';
import { type LoadedCheck, loadChecks, planChecks, planGrowth } from './checks.js';

export interface PreparedJob {
  ctx: CheckContext;
  checks: LoadedCheck[];
  units: WorkUnit[];
  /** Units the answers add while the run goes (adaptive sampling). */
  growth: PlanGrowth | undefined;
  provider: Provider;
  /** What the checks' loaders accepted but a user should fix, each line led by its check. */
  warnings: string[];
}

export async function prepareJob(
  loaded: LoadedConfig<AnyCheck>,
  options: { provider?: Provider; limit?: number | null } = {},
): Promise<PreparedJob> {
  const ctx = checkContext(loaded);
  const all = await loadChecks(ctx, loaded.checks);
  const checks = options.limit ? limitChecks(all, options.limit) : all;
  const units = planChecks(checks, ctx);
  // node-llama-cpp is an optional peer dependency: say how to install it before anything runs.
  if (ctx.config.provider.kind === 'embedded' && !options.provider) await loadEngine();
  const provider = options.provider ?? createProvider(ctx.config, process.env, ctx.baseDir);
  const warnings = all.flatMap(({ check, definitions }) =>
    (check.provenance?.warnings?.(definitions) ?? []).map((warning) => `${check.name}: ${warning}`),
  );
  return { ctx, checks, units, growth: planGrowth(checks, ctx), provider, warnings };
}

/** The model calls a plan makes at most (maze games may end early). */
export function plannedCalls(units: readonly WorkUnit[]): number {
  return units.reduce((sum, unit) => sum + Math.max(0, unit.expectedCalls), 0);
}

/** The model calls a plan most likely makes: what the progress total starts from. */
export function expectedCalls(units: readonly WorkUnit[]): number {
  return units.reduce((sum, unit) => sum + estimatedCalls(unit), 0);
}

/**
 * `--limit N` keeps the first N items (churn), maze seeds (dragon) and probes (personas; at
 * least 2, since an answer is attributed from its assistant's other answers). The definitions
 * are cut before planning, so the plan, the resume keys and the analysis all see the same cut.
 */
export function limitChecks(checks: readonly LoadedCheck[], limit: number): LoadedCheck[] {
  return checks.map(({ check, definitions }) => ({
    check,
    definitions: check.limit(definitions, limit),
  }));
}

/** The verdict line a smoke run adds: a warning, so that it can never read as a full pass. */
export function smokeRunFinding(
  firstCheck: CheckName,
  limit: number,
): import('../checks/types.js').GateFinding {
  return {
    check: firstCheck,
    rule: 'smoke-run',
    severity: 'warn',
    message: `smoke run (--limit ${limit}): only the first ${limit} items, maze seeds and probes were measured — not the gate's verdict; run without --limit for it`,
    values: { limit },
  };
}
