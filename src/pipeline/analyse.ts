import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { resolveConfigPath } from '../config/load.js';
import { InputError } from '../errors.js';
import type { ModelMetadata, ServerInfo } from '../providers/types.js';
import type {
  AnyCheck,
  CheckContext,
  CheckPage,
  EvaluatedGateRule,
  GateFinding,
} from '../checks/types.js';
import type { HistoryEntry } from '../history/entry.js';
import { nightEntry } from '../report/historyEntry.js';
import { readHistory, recordNight } from '../history/file.js';
import { type HistorySection, historySection } from '../history/section.js';
import { operationsFindings } from '../operations/findings.js';
import type { RunOperations } from '../operations/types.js';
import { buildReport } from '../report/build.js';
import { readReport } from '../report/read.js';
import type { Report, RunMetadata } from '../report/types.js';
import { gateOutcome } from '../report/verdict.js';
import { type WrittenReport, writeReport } from '../report/write.js';
import { grownPlan } from '../plan/resumePlan.js';
import {
  type CountedLogs,
  otherWeightsNote,
  type RunInfoRecord,
  readCountedLogs,
  type SampleRecord,
} from '../sampleLog/index.js';
import { checkContext } from '../checks/context.js';
import type { WorkUnit } from '../checks/workUnit.js';
import { selectShard, shardLabel } from '../plan/shard.js';
import type { Shard } from '../config/overrides.js';
import {
  analyseChecks,
  checkPages,
  type LoadedCheck,
  loadChecks,
  modelOrder,
  planChecks,
  planGrowth,
  promptHashes,
} from './checks.js';
import { coverageFindings, measureCoverage, type UnitState } from './coverage.js';
import { checkLogsMatch, staleWarning } from './logsMatch.js';
import { ensureWritableFolder } from './outputFolder.js';
import { limitChecks, smokeRunFinding } from './prepare.js';
import { type MeasuredBefore, measuredBeforeFinding } from './measuredBefore.js';
import { sliceFindings } from './shardSlice.js';
import { type MeasureInput, type Measurement, Measuring } from './measure.js';
import { neutralise } from '../text/neutralise.js';
import { scrubData } from '../text/secrets.js';
import type { JobOutcome } from './types.js';

export interface AnalyseLogsOptions {
  loaded: LoadedConfig<AnyCheck>;
  logs: readonly string[];
  /** Output directory; default output.dir of the config. */
  outDir?: string;
  /** Dragon nightly mode: a previous report.json (default dragon.gate.previous-report). */
  previousReport?: string | null;
  /** Definitions already loaded by a run (saves reading items twice). */
  checks?: readonly LoadedCheck[];
  /** The plan of `checks`, when a run already made it (a large plan is not held twice). */
  plan?: readonly WorkUnit[];
  /** A run that was interrupted: its report is inconclusive, and says so. */
  cancelled?: boolean;
  /** A run: the units it found already in its log, said in the report (measuredBefore.ts). */
  measuredBefore?: MeasuredBefore;
  /** `run --limit N` (default: the limit recorded in the logs' run records). */
  limit?: number | null;
  /** The shard a run measured: its slice of the plan is what completeness is measured against. */
  shard?: Shard | null;
  /**
   * `model-gate analyze`: the logs must be those of this config — every configured model
   * measured by every selected check, and no shard of a set missing — or nothing is written.
   */
  requireMatchingLogs?: boolean;
  /**
   * Nightly history (output.history, single-model runs): append tonight's line. A run sets
   * it; a re-analysis shows the history without adding to it.
   */
  appendHistory?: boolean;
  /** The run starts from an empty log each time (the demo): a gap is measured by starting over. */
  startsOver?: boolean;
  /** A run's hygiene and GPU telemetry (a re-analysis has none). */
  operations?: RunOperations;
  /** Commit recorded in the history line; default GITHUB_SHA. */
  commit?: string | null;
  now?: () => Date;
}

/**
 * Logs → report.json, summary.md and charts. The same function serves a fresh run, a resumed
 * run, and a merge of shards: nothing here talks to a model.
 */
export async function analyseLogs(options: AnalyseLogsOptions): Promise<JobOutcome> {
  const { loaded } = options;
  await ensureWritableFolder(path.resolve(options.outDir ?? loaded.config.output.dir));
  const analysed = await analyseMeasured(options, previousReportFile(options));
  const report = await reportWithHistory(analysed, options);
  const shard = shardLabel(options.shard);
  return jobOutcome(report.report, report.written, options, shard, report.historyFile);
}

/**
 * What the report is made of. A function of its own: the plan and the measurement are left
 * behind when it returns, not held while the report is built and written.
 */
async function analyseMeasured(
  options: AnalyseLogsOptions,
  previousFile: string | null,
): Promise<Analysed> {
  const { loaded } = options;
  const ctx = checkContextWith(loaded, previousFile);
  const measured = await readMeasured(options, ctx);
  const { measurement, runs, checks, plan, limit } = measured;
  const previous: Report | null = previousFile ? await readReport(previousFile) : null;
  const analysed = analyseChecks(checks, measurement, ctx, previous);
  const { sections, rules } = analysed;
  const pages = checkPages(checks, measurement.collected, ctx, sections);
  const models = modelOrder(ctx);
  const shard = shardLabel(options.shard);
  const slice = selectShard(plan, options.shard);
  const findings = shard
    ? sliceFindings({ findings: analysed.findings, slice, models, shard, checks: loaded.checks })
    : analysed.findings;
  const first = checks[0]?.check.name;
  if (limit && first) findings.push(smokeRunFinding(first, limit));
  const before =
    options.measuredBefore && first ? measuredBeforeFinding(first, options.measuredBefore) : null;
  if (before) findings.push(before);
  if (options.operations) {
    findings.push(
      ...operationsFindings(
        options.operations,
        loaded.config.checks,
        loaded.config.runner.gpuContentionShare,
      ),
    );
  }
  const coverage = measureCoverage({
    checks: loaded.checks,
    units: slice,
    stateOf: sliceStates(plan, slice, measurement),
    models,
    interrupted: options.cancelled ?? false,
    runs,
    shard,
    startsOver: options.startsOver ?? false,
  });
  findings.push(...coverageFindings(coverage, loaded.config.checks));
  const run: RunMetadata = {
    ...provenance(runs, models, measurement.digestOf),
    config: reportedConfig(loaded),
    logs: options.logs.map((file) => path.basename(file)),
    requests: measurement.requests.tally(models, loaded.config.runner.perturbedTimeoutShare),
    promptHashes: promptHashes(ctx, loaded.checks),
    ...(options.operations ? { operations: options.operations } : {}),
    coverage,
  };
  for (const warning of [...measured.warnings, ...pages.problems]) run.warnings.push(warning);
  if (measurement.staleByCheck.size > 0) run.warnings.push(staleWarning(measurement.staleByCheck));
  if (measurement.records === 0)
    run.warnings.push('the sample logs hold no records: nothing was measured');
  return { run, sections, findings, rules, pages: pages.parts };
}

/**
 * The previous report nightly mode compares with: the flag, else the first check setting that
 * names one (`Check.previousReport`); refused with a candidate.
 */
function previousReportFile(options: AnalyseLogsOptions): string | null {
  const { loaded } = options;
  const setting = loaded.checks
    .map((check) => check.nightly?.previousReport)
    .find((s) => s?.read(loaded.config) !== undefined);
  const configured = setting?.read(loaded.config);
  const previousFile =
    options.previousReport ?? (configured ? resolveConfigPath(loaded, configured) : null);
  if (previousFile && loaded.config.models.candidate) {
    throw new InputError(
      `${options.previousReport ? 'flag --previous' : setting?.key}: a previous report is compared with in nightly mode (one model, no candidate); this config has candidate ${loaded.config.models.candidate}. Remove the candidate for a nightly run, or the previous report for a baseline-vs-candidate run.`,
    );
  }
  return previousFile;
}

/** The rules read which previous report is compared with, whether from the config or the flag. */
function checkContextWith(
  loaded: LoadedConfig<AnyCheck>,
  previousFile: string | null,
): CheckContext {
  const plain = checkContext(loaded);
  if (!previousFile) return plain;
  let config = plain.config;
  for (const check of loaded.checks) {
    const setting = check.nightly?.previousReport;
    if (setting) config = setting.write(config, previousFile);
  }
  return { ...plain, config };
}

interface Measured {
  measurement: Measurement;
  runs: RunInfoRecord[];
  checks: readonly LoadedCheck[];
  plan: readonly WorkUnit[];
  limit: number | null;
  warnings: string[];
}

/**
 * The logs, read in passes (src/sampleLog/countedLogs.ts) and folded record by record
 * (measure.ts): the records that count under the current weights, of the plan's settings (and
 * those no unit claims), are never held together.
 *
 * Most logs hold each measurement once, under one digest per model: then every record counts,
 * and the first pass, which reads them all anyway, folds them as they come. The checks and the
 * plan are made before it on that bet (the smoke limit given, if any, and no adaptive stages to
 * replay); when the logs lose it, the fold is dropped and the second pass folds the records
 * that count, as it always did.
 */
async function readMeasured(options: AnalyseLogsOptions, ctx: CheckContext): Promise<Measured> {
  const given = options.limit ?? null;
  const guessed = options.checks ?? (await checksWithLimit(ctx, options, given));
  const betPlan = planGrowth(guessed, ctx) ? null : (options.plan ?? planChecks(guessed, ctx));
  let bet = betPlan ? new Measuring(measureInput(options, ctx, guessed, betPlan)) : null;
  const logs = await readCountedLogs(options.logs, bet ? (record) => bet?.add(record) : undefined);
  const { runs, warnings } = logs;
  // A smoke run's log stays a smoke run when analysed again: its run record keeps the limit.
  const limit = options.limit ?? smokeLimit(runs);
  const sameChecks = options.checks !== undefined || limit === given;
  let measured: Omit<Measured, 'runs' | 'limit' | 'warnings'>;
  if (bet && betPlan && sameChecks && logs.everyRecordCounts) {
    measured = { measurement: bet.finish(), checks: guessed, plan: betPlan };
  } else {
    // The lost bet's fold is not held through the second pass.
    bet = null;
    const checks = sameChecks ? guessed : await checksWithLimit(ctx, options, limit);
    const plan = await grownPlanOf(
      checks,
      ctx,
      (sameChecks ? betPlan : null) ?? options.plan,
      logs,
    );
    const measuring = new Measuring(measureInput(options, ctx, checks, plan));
    await logs.each((record) => measuring.add(record));
    measured = { measurement: measuring.finish(), checks, plan };
  }
  const { measurement } = measured;
  if (options.requireMatchingLogs) {
    checkLogsMatch({
      loaded: options.loaded,
      logs: options.logs,
      planned: measurement.planned,
      unplanned: measurement.unplanned,
      present: measurement.present,
      stale: measurement.stale,
      staleUnits: measurement.staleUnits,
      runs,
    });
  }
  const notes = [...warnings, ...logs.otherWeights.map(otherWeightsNote)];
  return { ...measured, runs, limit, warnings: notes };
}

async function checksWithLimit(
  ctx: CheckContext,
  options: AnalyseLogsOptions,
  limit: number | null,
): Promise<LoadedCheck[]> {
  const checks = await loadChecks(ctx, options.loaded.checks);
  return limit ? limitChecks(checks, limit) : checks;
}

/** Records another config wrote (another temperature, prompt or maze) are left out, and said so. */
function measureInput(
  options: AnalyseLogsOptions,
  ctx: CheckContext,
  checks: readonly LoadedCheck[],
  plan: readonly WorkUnit[],
): MeasureInput {
  return {
    checks,
    ctx,
    plan,
    models: modelOrder(ctx),
    keepStale: options.requireMatchingLogs ?? false,
  };
}

/**
 * Adaptive sampling's later stages are planned from the answers: replayed from the records of
 * the checks whose plan grows (one more pass over the logs, only when one does).
 */
async function grownPlanOf(
  checks: readonly LoadedCheck[],
  ctx: CheckContext,
  given: readonly WorkUnit[] | undefined,
  logs: CountedLogs,
): Promise<readonly WorkUnit[]> {
  const plan = given ?? planChecks(checks, ctx);
  const growth = planGrowth(checks, ctx);
  if (!growth) return plan;
  const growing = new Set(
    checks
      .filter(({ check, definitions }) => check.adaptive?.growth(definitions, ctx))
      .map(({ check }) => check.name as string),
  );
  const records: SampleRecord[] = [];
  await logs.each((record) => {
    if (growing.has(record.check)) records.push(record);
  });
  return grownPlan(plan, growth, records);
}

interface Analysed {
  run: RunMetadata;
  sections: Report['checks'];
  findings: GateFinding[];
  rules: EvaluatedGateRule[];
  /** The checks' parts of report.html. */
  pages: CheckPage[];
}

/** The report, with tonight's line of the nightly history when there is one; written. */
async function reportWithHistory(
  analysed: Analysed,
  options: AnalyseLogsOptions,
): Promise<{ report: Report; written: WrittenReport; historyFile: string | null }> {
  const { run, sections, findings, rules } = analysed;
  const { loaded } = options;
  const createdAt = (options.now ?? (() => new Date()))();
  const nightly = await withHistory(analysed, createdAt, loaded, options);
  // Before anything renders it: a secret an error body echoed is gone from every file and
  // comment made from the report, before markdown escaping could hide it from a search.
  const built = buildReport({
    run,
    sections,
    findings: [...findings, ...(nightly?.findings ?? [])],
    rules: [...rules, ...(nightly?.rules ?? [])],
    createdAt,
    ...(nightly ? { history: nightly.section } : {}),
    checks: loaded.checks,
  });
  const report = scrubData(withTonightsVerdict(built));
  const outDir = options.outDir ?? loaded.config.output.dir;
  const gpuCsv = await readGpuCsv(outDir, options.operations?.gpu.file ?? null);
  const written = await writeReport(
    report,
    outDir,
    { parts: analysed.pages, gpuCsv },
    loaded.checks,
  );
  const appended = nightly !== null && (options.appendHistory ?? false);
  if (nightly && appended) {
    const tonight = { ...nightly.tonight, verdict: report.verdict.status };
    await recordNight(nightly.file, tonight, loaded.checks);
  }
  return { report, written, historyFile: appended && nightly ? nightly.file : null };
}

/**
 * Tonight's night in the history part carries the run's verdict, the one the report decided
 * (the nightly rules' findings included).
 */
function withTonightsVerdict(report: Report): Report {
  if (!report.history) return report;
  const status = report.verdict.status;
  const nights = report.history.nights.map((night, i, all) =>
    i === all.length - 1 ? { ...night, verdict: status } : night,
  );
  return { ...report, history: { ...report.history, nights } };
}

/** The run's GPU samples, for the page's chart; null when there are none or they cannot be read. */
async function readGpuCsv(outDir: string, file: string | null): Promise<string | null> {
  if (!file) return null;
  try {
    return await readFile(path.join(outDir, file), 'utf8');
  } catch {
    return null;
  }
}

function jobOutcome(
  report: Report,
  written: WrittenReport,
  options: AnalyseLogsOptions,
  shard: string | null,
  historyFile: string | null,
): JobOutcome {
  const decision = gateOutcome(report.verdict.status, report.run.config.failOn, {
    shard,
    interrupted: options.cancelled ?? false,
  });
  return {
    report,
    files: {
      dir: written.dir,
      report: written.report,
      summary: written.summary,
      page: written.page,
      charts: written.charts,
      logs: options.logs.map((file) => path.resolve(file)),
      ...(historyFile ? { extra: [historyFile] } : {}),
    },
    exitCode: decision.exitCode,
    decision,
    cancelled: options.cancelled ?? false,
    ...(shard === null ? {} : { shard }),
  };
}

/** Reads output.history and evaluates tonight against it (single-model runs only). */
async function withHistory(
  analysed: Analysed,
  createdAt: Date,
  loaded: LoadedConfig<AnyCheck>,
  options: AnalyseLogsOptions,
): Promise<{
  file: string;
  tonight: HistoryEntry;
  section: HistorySection;
  findings: GateFinding[];
  rules: EvaluatedGateRule[];
} | null> {
  const configured = loaded.config.output.history;
  if (!configured || loaded.config.models.candidate) return null;
  const { run, sections } = analysed;
  const commit = options.commit ?? process.env.GITHUB_SHA ?? null;
  const { checks } = loaded;
  // The trend reads the nights' numbers, never their verdicts: tonight's is the report's,
  // set once the report has decided it (`withTonightsVerdict`).
  const tonight = nightEntry({ run, sections, createdAt, commit, verdict: 'pass', checks });
  if (!tonight) return null;
  const file = path.resolve(configured);
  const prior = await readHistory(file, checks);
  const trend = historySection({
    checks,
    prior,
    tonight,
    config: loaded.config,
    file: path.basename(file),
    appended: options.appendHistory ?? false,
  });
  return {
    file,
    tonight,
    section: trend.section,
    findings: trend.findings,
    rules: trend.rules,
  };
}

const UNKNOWN_SERVER: ServerInfo = {
  provider: 'ollama',
  host: 'unknown',
  version: null,
  simulated: false,
};

/**
 * Server and model provenance from the run records (the latest wins; shards are listed). A log
 * another harness wrote has no run record: its models are the config's, their digest the one
 * their records carry, the rest unknown.
 */
function provenance(
  runs: readonly RunInfoRecord[],
  models: readonly string[],
  digestOf: (model: string) => string | null,
): Pick<RunMetadata, 'provider' | 'models' | 'loadedBefore' | 'warnings' | 'shards'> {
  const latest = runs.at(-1);
  const metadata = new Map<string, ModelMetadata>();
  for (const run of runs) for (const model of run.models) metadata.set(model.model, model);
  const find = (name: string | undefined): ModelMetadata | null =>
    name ? (metadata.get(name) ?? unrecordedModel(name, digestOf(name))) : null;
  const warnings = [...new Set(runs.flatMap((r) => r.warnings))];
  if (runs.length === 0)
    warnings.push('no run record in the logs: server and model provenance unknown');
  const provider = latest?.provider ?? UNKNOWN_SERVER;
  return {
    provider: { ...provider, version: shownMetadata(provider.version) },
    models: { baseline: shownModel(find(models[0])), candidate: shownModel(find(models[1])) },
    loadedBefore: latest?.loadedBefore?.map((name) => shownMetadata(name) ?? '') ?? null,
    warnings,
    shards: [...new Set(runs.map((r) => r.shard).filter((s): s is string => s !== null))].sort(),
  };
}

/** A configured model no run record describes: its tag, and the digest its records carry. */
function unrecordedModel(model: string, digest: string | null): ModelMetadata {
  return {
    model,
    digest,
    quantization: null,
    parameterSize: null,
    family: null,
    simulated: false,
  };
}

/** Longest server-given field kept in report.json (a digest is 64 characters). */
const METADATA_LIMIT = 200;

/**
 * What a server said about itself, as report.json keeps it: a bidi override, a control
 * character or a line break from the server is stored as a visible escape, and a runaway
 * value is cut.
 */
function shownMetadata(value: string | null): string | null {
  return value === null ? null : neutralise(value, METADATA_LIMIT);
}

function shownModel(model: ModelMetadata | null): ModelMetadata | null {
  if (!model) return null;
  return {
    ...model,
    digest: shownMetadata(model.digest),
    quantization: shownMetadata(model.quantization),
    parameterSize: shownMetadata(model.parameterSize),
    family: shownMetadata(model.family),
  };
}

/** The smallest `--limit` any run of the logs was made with, or null for full runs. */
function smokeLimit(runs: readonly RunInfoRecord[]): number | null {
  const limits = runs.map((r) => r.limit).filter((n): n is number => typeof n === 'number');
  return limits.length > 0 ? Math.min(...limits) : null;
}

/**
 * The config as report.json keeps it: the block of a check that runs only when named is left
 * out when it did not run, so a report of the same run reads as it did before the check existed.
 */
function reportedConfig(loaded: LoadedConfig<AnyCheck>): LoadedConfig['config'] {
  const { config } = loaded;
  const unused = new Set(
    loaded.checks.filter((c) => c.optIn && !config.checks.includes(c.name)).map((c) => c.name),
  );
  if (unused.size === 0) return config;
  return Object.fromEntries(
    Object.entries(config).filter(([key]) => !unused.has(key)),
  ) as LoadedConfig['config'];
}

/** The state of each unit of a shard's slice (the whole plan's, when there is no shard). */
function sliceStates(
  plan: readonly WorkUnit[],
  slice: readonly WorkUnit[],
  measurement: Measurement,
): (at: number) => UnitState {
  if (slice.length === plan.length) return measurement.stateOf;
  const position = new Map(plan.map((unit, at) => [unit, at]));
  return (at) => measurement.stateOf(position.get(slice[at] as WorkUnit) as number);
}
