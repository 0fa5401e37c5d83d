/**
 * `model-gate analyze` labels its report with the config it is given, whatever run wrote the
 * logs. When they do not belong together the report would be wrong without saying so (a
 * candidate with no record passed; records made at temperature 0.7 were reported as 0.5), so
 * the mismatch is bad input, named model by model.
 */
import path from 'node:path';
import { type CheckList, checkNamed } from '../checks/list.js';
import type { AnyCheck } from '../checks/types.js';
import type { WorkUnit } from '../checks/workUnit.js';
import type { LoadedConfig } from '../config/load.js';
import { InputError } from '../errors.js';
import type { RecordedOptions, RunInfoRecord, SampleRecord } from '../sampleLog/index.js';
import { isCall } from '../sampleLog/schema.js';
import { missingShardsOf } from './coverage.js';
import type { Counts } from './measure.js';

const OTHER_SETTINGS =
  'other settings (temperature, seed, num-ctx, num-predict, think, prompt or maze)';

/** The report warning for records left out because another config wrote them, per check. */
export function staleWarning(byCheck: ReadonlyMap<string, number>): string {
  const counts = [...byCheck].map(([check, n]) => `${check} ${n}`).join(', ');
  const total = [...byCheck.values()].reduce((a, b) => a + b, 0);
  return `${total} sample-log records were written under ${OTHER_SETTINGS} than this config and are left out (${counts}); they stay in the log`;
}

export interface LogsMatchInput {
  loaded: LoadedConfig<AnyCheck>;
  logs: readonly string[];
  /** Per check and model, the records the plan of this config claims, and those it does not. */
  planned: Counts;
  unplanned: Counts;
  /** The models with a record of a check (planned, stale or unplanned). */
  present(check: string): string[];
  stale: readonly SampleRecord[];
  /** Planned units the log holds only under other settings. */
  staleUnits: readonly WorkUnit[];
  runs: readonly RunInfoRecord[];
}

/**
 * Throws InputError listing each configured model a selected check has no record of. A log
 * that holds part of a model's plan (a shard left out, a run cut short) is not a mismatch, nor
 * is a model without records while a shard of the set is missing: the report is inconclusive
 * and names what is missing (see coverage.ts).
 */
export function checkLogsMatch(input: LogsMatchInput): void {
  const { config } = input.loaded;
  const problems: string[] = [];
  // With a shard of a set left out, a model may have no record at all (two shards: one may
  // hold all of a model's games): the report is inconclusive and names the shard.
  const shardMissing = missingShardsOf(input.runs).length > 0;
  const roles: [string, string | null][] = [
    ['models.baseline', config.models.baseline],
    [
      'models.candidate',
      config.models.candidate === config.models.baseline ? null : (config.models.candidate ?? null),
    ],
  ];
  for (const check of config.checks) {
    // A check that reads every check's records (speed) may have none of its own.
    if (checkNamed(input.loaded.checks, check).log?.everyCheck) continue;
    for (const [role, model] of roles) {
      if (model === null) continue;
      const staleUnits = input.staleUnits.filter((u) => u.check === check && u.model === model);
      if (staleUnits.length > 0) {
        const differences = describeDifferences(staleUnits, input.stale, input.loaded.checks);
        problems.push(
          `${check}: ${staleUnits.length} ${checkNamed(input.loaded.checks, check).unit[staleUnits.length === 1 ? 0 : 1]} of ${model} (${role}) are in the logs only under other settings than this config: ${differences}`,
        );
        continue;
      }
      if (input.planned.of(check, model) > 0) continue;
      const unplanned = input.unplanned.of(check, model);
      if (unplanned > 0) {
        problems.push(
          `${check}: the ${unplanned} records of ${model} (${role}) are for items, assistants or seeds this config does not plan`,
        );
      } else if (!shardMissing) {
        const present = input
          .present(check)
          .filter((m) => !checkNamed(input.loaded.checks, check).log?.isControl?.(m));
        problems.push(
          `${check}: no record of ${model} (${role}); the logs hold ${present.length > 0 ? present.join(', ') : 'no record of this check'}`,
        );
      }
    }
  }
  if (problems.length === 0) return;
  const configName = input.loaded.file ? path.basename(input.loaded.file) : 'the default config';
  throw new InputError(
    `${input.logs.map((l) => path.basename(l)).join(', ')}: the sample logs do not match ${configName}`,
    [
      ...problems,
      'analyse the logs with the config they were written with (--config), or measure what is missing with model-gate run (it resumes from a log given with --log)',
    ],
  );
}

const OPTION_NAMES: Record<keyof RecordedOptions, string> = {
  temperature: 'temperature',
  seed: 'seed',
  num_ctx: 'num-ctx',
  num_predict: 'num-predict',
  think: 'think',
};

/**
 * What differs between the stale records and what this config would send, in words: the
 * prompt hash (the items' or catalogue's text, or the prompt version), and/or which option,
 * with both values; the maze when prompt and options agree (dragon walls or protocol).
 */
export function describeDifferences(
  units: readonly WorkUnit[],
  stale: readonly SampleRecord[],
  checks: CheckList,
): string {
  const found = new Map<string, string>();
  for (const unit of units) {
    const expected = unit.expected;
    const own = stale.filter(
      (r) =>
        r.check === unit.check &&
        r.model === unit.model &&
        (r.key === unit.key || r.key.startsWith(`${unit.key}/`)),
    );
    for (const record of own) {
      if (!expected) continue;
      const hash = record.prompt_sha256;
      if (typeof hash === 'string' && hash !== expected.promptSha256 && !found.has('prompt')) {
        found.set(
          'prompt',
          `the prompt hash differs (${hash.slice(0, 12)}… in the logs, ${expected.promptSha256.slice(0, 12)}… for this config: the question text, choices, system prompt, probe or prompt version changed)`,
        );
      }
      if (!isCall(record)) continue;
      for (const key of Object.keys(OPTION_NAMES) as (keyof RecordedOptions)[]) {
        const logged = record.options[key];
        const wanted = expected.options[key];
        const name = `option ${OPTION_NAMES[key]}`;
        if (logged !== wanted && !found.has(name)) {
          found.set(
            name,
            `${name} is ${String(logged)} in the logs, ${String(wanted)} for this config`,
          );
        }
      }
    }
  }
  if (found.size === 0) {
    const reasons = units.map((u) => checkNamed(checks, u.check).log?.staleReason);
    return reasons.find((r) => r !== undefined) ?? OTHER_SETTINGS;
  }
  return [...found.values()].join('; ');
}
