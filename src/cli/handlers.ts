import { existsSync } from 'node:fs';
import path from 'node:path';
import { CHECKS } from '../checks/builtIn.js';
import { type CheckList, checkNamed } from '../checks/list.js';
import { DEFAULT_CONFIG_FILE, type LoadedConfig } from '../config/load.js';
import { integerFlag, parseShard } from '../config/overrides.js';
import { ExitCode, InputError } from '../errors.js';
import { analyseLogs } from '../pipeline/analyse.js';
import { DEMO_SCENARIOS, type DemoScenario, runDemo } from '../pipeline/demo.js';
import { scenarioPath } from '../packageRoot.js';
import { initProject, VENDORED_ACTION } from '../pipeline/init.js';
import { ansi, type Paint, plain, wantsColour } from './colour.js';
import { expectedCalls, plannedCalls, prepareJob } from '../pipeline/prepare.js';
import { runJob, sampleLogPath } from '../pipeline/run.js';
import type { WorkUnit } from '../checks/workUnit.js';
import type { CheckName } from '../config/schema.js';
import type { JobOutcome } from '../pipeline/types.js';
import { onStopSignals } from '../signals.js';
import { startSimulator } from '../simulator/server.js';
import type { CommandHandler, CommandHandlers } from './program.js';
import { collectOverrides, interruptSignal, loadConfigFromFlags } from './shared.js';
import { neutralise } from '../text/neutralise.js';
import { plural } from '../text/format.js';
import { openerFor, openFile, pageFile } from './view.js';

/** A reason longer than this quotes something huge (a server reply): the terminal shows its start. */
const REASON_LIMIT = 2000;

/** A command: its parsed flags, where it writes, the checks it knows. */
type CliCommand = (...args: [...Parameters<CommandHandler>, checks: CheckList]) => Promise<number>;

/** The closing lines of a run: the verdict, its reasons, and where the files are. */
export function describeOutcome(outcome: JobOutcome, paint: Paint = plain): string {
  const { report, files } = outcome;
  const status = report.verdict.status;
  const measuredShard = outcome.shard && status !== 'inconclusive';
  const lines = [
    '',
    measuredShard
      ? `shard ${outcome.shard} measured (its slice alone reads ${status.toUpperCase()}: not the gate's verdict; merge every shard's log with model-gate analyze)`
      : `verdict${outcome.shard ? ` of shard ${outcome.shard}` : ''}: ${paint(status.toUpperCase(), status)}${outcome.cancelled ? ' (interrupted: partial report)' : ''}${report.verdict.reasons.some((r) => r.rule === 'smoke-run') ? " (smoke run: part of the plan, not the gate's verdict)" : ''}`,
  ];
  const missing = report.run.coverage?.missing;
  if (missing) lines.push(`  ${missing}`);
  const shown = report.verdict.reasons.filter((r) => r.severity !== 'info');
  // As wide as the longest severity listed: "fail" lines need no room for "inconclusive".
  const width = shown.reduce((w, r) => Math.max(w, r.severity.length), 0);
  for (const reason of shown) {
    lines.push(
      `  ${paint(reason.severity, reason.severity)}${' '.repeat(width - reason.severity.length)}  ${reason.check}: ${neutralise(reason.message, REASON_LIMIT)}`,
    );
  }
  lines.push('', `report:  ${files.report}`, `summary: ${files.summary}`);
  if (files.page) lines.push(`page:    ${files.page} (model-gate view ${files.dir})`);
  if (files.charts.length > 0)
    lines.push(
      `charts:  ${files.charts.map((c) => path.basename(c)).join(', ')} (in ${files.dir})`,
    );
  lines.push(`log:     ${files.logs.join(', ')}`, '');
  return lines.join('\n');
}

/** What `validate` checked and what `run` would do: calls per check and model. */
export function describeValidated(
  file: string,
  checks: readonly CheckName[],
  units: readonly WorkUnit[],
  notes: readonly string[] = [],
  warnings: readonly string[] = [],
): string {
  const verdict =
    warnings.length > 0 ? `valid, with ${plural(warnings.length, 'warning')}` : 'valid';
  const lines = [
    `${path.basename(file)}: ${verdict} (config, items, catalogue; no server contacted)`,
  ];
  const models = [...new Set(units.map((u) => u.model))];
  for (const check of checks) {
    const own = units.filter((u) => u.check === check);
    const perModel = models
      .map((m) => {
        const mine = own.filter((u) => u.model === m);
        const [likely, most] = [expectedCalls(mine), plannedCalls(mine)];
        return `${likely === most ? likely : `about ${likely} (at most ${most})`} for ${m}`;
      })
      .join(', ');
    lines.push(`  ${check}: ${own.length} units, calls ${perModel}`);
  }
  lines.push(
    `  plan: about ${expectedCalls(units)} calls expected, ${plannedCalls(units)} at most (maze games end at different lengths)`,
    ...notes.map((note) => `  ${note}`),
    ...warnings.map((warning) => `  warning: ${neutralise(warning, REASON_LIMIT)}`),
    '',
  );
  return lines.join('\n');
}

/** The `run` command with the config and flags this command was given, then `extra`. */
function runCommandLine(
  options: Record<string, unknown>,
  extra: string,
  checks: CheckList,
): string {
  const parts = ['npx model-gate run'];
  if (typeof options.config === 'string' && options.config !== DEFAULT_CONFIG_FILE)
    parts.push(`--config ${shellWord(options.config)}`);
  for (const [name, value] of Object.entries(collectOverrides(options, checks)))
    parts.push(`--${name} ${shellWord(value)}`);
  parts.push(extra);
  return parts.join(' ');
}

/** A value as a shell reads it back: quoted unless it is plain. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** `--log` as given, or the sample log the config's runs write (output.log). */
function logsToAnalyse(given: unknown, loaded: LoadedConfig): string[] {
  if (Array.isArray(given) && given.length > 0) return given.map(String);
  const own = sampleLogPath({ loaded });
  if (!existsSync(own)) {
    const config = loaded.file ? path.basename(loaded.file) : 'the built-in defaults';
    throw new InputError(
      `${path.relative(process.cwd(), own) || own}: no sample log there (output.log of ${config}), and no --log given`,
      [
        'name the logs to analyse: --log FILE [FILE…] (several for shards)',
        'or measure first: npx model-gate run (it writes that log)',
      ],
    );
  }
  return [own];
}

/** What the demo's verdict means, or that it was interrupted and starts over when run again. */
function demoClosing(scenario: DemoScenario, cancelled: boolean): string {
  if (cancelled) {
    return 'The demo was interrupted: the report above covers part of the plan. model-gate demo starts over when run again (about ten seconds).\n';
  }
  const next =
    'Next: the same job against your own server, after npx model-gate init (or with --baseline and --candidate): npx model-gate run --limit 3\n';
  return scenario === 'demo'
    ? `The demo candidate is built to regress (a lost domain, overconfidence, two merged assistants, a slower decode):\nthe FAIL verdict above is the expected result. Open summary.md to read it, or report.html for every item, game and assistant behind it (model-gate view).\n${next}`
    : `Identical models: the gate passes. Open summary.md to read it, or report.html (model-gate view).\n${next}`;
}

function printOutcome(outcome: JobOutcome, json: boolean, out: (text: string) => void): number {
  if (json) {
    out(
      `${JSON.stringify(
        {
          verdict: outcome.report.verdict.status,
          exitCode: outcome.exitCode,
          cancelled: outcome.cancelled,
          incomplete: outcome.report.run.coverage?.missing ?? null,
          ...(outcome.shard ? { shard: outcome.shard } : {}),
          reasons: outcome.report.verdict.reasons,
          files: outcome.files,
        },
        null,
        2,
      )}\n`,
    );
  } else {
    out(describeOutcome(outcome, wantsColour(process.stdout) ? ansi : plain));
  }
  return outcome.exitCode;
}

const runCommand: CliCommand = async (options, { stdout: out }, checks) => {
  const loaded = loadConfigFromFlags(options, checks);
  const shard = parseShard(
    typeof options.shard === 'string' ? options.shard : undefined,
    'flag --shard',
  );
  const interrupt = interruptSignal();
  try {
    const outcome = await runJob({
      loaded,
      shard,
      cacheDir: typeof options.cacheDir === 'string' ? options.cacheDir : null,
      keepHistory: options.keepHistory === true,
      limit: options.limit === undefined ? null : integerFlag(options.limit, '--limit', 1),
      fresh: options.fresh === true,
      signal: interrupt.signal,
    });
    return printOutcome(outcome, options.json === true, out);
  } finally {
    interrupt.dispose();
  }
};

const analyzeCommand: CliCommand = async (options, { stdout: out }, checks) => {
  // Its flags that override the config are --fail-on, --baseline and --candidate (its --log
  // names several logs: a list, never read as the config's own output.log).
  const loaded = loadConfigFromFlags(options, checks);
  const outcome = await analyseLogs({
    loaded,
    logs: logsToAnalyse(options.log, loaded),
    outDir: typeof options.out === 'string' ? options.out : undefined,
    previousReport:
      typeof options.previous === 'string' ? path.resolve(options.previous) : undefined,
    requireMatchingLogs: true,
  });
  return printOutcome(outcome, options.json === true, out);
};

const validateCommand: CliCommand = async (options, { stdout: out }, checks) => {
  const loaded = loadConfigFromFlags(options, checks);
  // The same preparation as run (definitions, plan, provider), stopped before any request.
  const { ctx, units, warnings } = await prepareJob(loaded);
  const file = loaded.file ?? 'no config file, built-in defaults and flags';
  const notes = ctx.config.checks.flatMap(
    (name) => checkNamed(checks, name).adaptive?.planNotes(ctx.config, units) ?? [],
  );
  out(describeValidated(file, ctx.config.checks, units, notes, warnings));
  out(`next: a smoke run against the server: ${runCommandLine(options, '--limit 3', checks)}\n`);
  return ExitCode.pass;
};

const initCommand: CliCommand = async (options, { stdout: out }, checks) => {
  const dir = path.resolve(typeof options.dir === 'string' ? options.dir : '.');
  // Written elsewhere: the next commands are typed in that folder.
  const away = path.relative(process.cwd(), dir);
  const inDir = (command: string) => (away ? `(cd ${shellWord(away)} && ${command})` : command);
  const written = await initProject({
    checks,
    dir,
    baseline: typeof options.baseline === 'string' ? options.baseline : undefined,
    candidate: typeof options.candidate === 'string' ? options.candidate : undefined,
  });
  out(
    `${[
      'wrote:',
      ...written.map((f) => `  ${path.relative(process.cwd(), f) || f}`),
      '',
      'next: edit the model tags in model-gate.yml, then check everything without a server:',
      `  ${inDir('npx model-gate validate')}`,
      `and a quick smoke run against your server: ${inDir('npx model-gate run --limit 3')}`,
      'no server yet? the whole job against the built-in simulator: npx model-gate demo',
      `the workflow runs the action from ${VENDORED_ACTION} of your repository: copy it there (README: Where the action lives)`,
    ].join('\n')}\n`,
  );
  return ExitCode.pass;
};

const demoCommand: CliCommand = async (options, { stdout: out, stderr: err }, checks) => {
  const scenario = String(options.scenario ?? 'demo');
  if (!(scenario in DEMO_SCENARIOS)) {
    throw new InputError(
      `flag --scenario: expected one of ${Object.keys(DEMO_SCENARIOS).join(', ')}, got ${JSON.stringify(scenario)}`,
    );
  }
  // The demo starts from a fresh log every time: an interrupted one is started over.
  const interrupt = interruptSignal(
    process.stderr,
    'stopping after the requests in flight; the demo starts over when run again',
  );
  try {
    err(
      `model-gate demo: scenario "${scenario}" — simulated models on a loopback simulator, no GPU\n`,
    );
    const outcome = await runDemo({
      checks,
      scenario: scenario as DemoScenario,
      // Each scenario keeps its own folder: the A/A run does not overwrite the regression demo.
      outDir: String(
        options.out ??
          (scenario === 'demo' ? 'model-gate-out/demo' : `model-gate-out/demo-${scenario}`),
      ),
      signal: interrupt.signal,
    });
    // The demo's regression is the point of the demo, not an error of the command: the
    // command succeeds when the scenario gives the verdict it was built to give.
    const expected = DEMO_SCENARIOS[scenario as DemoScenario].expected;
    const exitCode = outcome.report.verdict.status === expected ? ExitCode.pass : outcome.exitCode;
    const code = printOutcome({ ...outcome, exitCode }, options.json === true, out);
    if (options.json !== true) out(demoClosing(scenario as DemoScenario, outcome.cancelled));
    return code;
  } finally {
    interrupt.dispose();
  }
};

const viewCommand: CliCommand = async (options, { stdout: out, stderr: err }, checks) => {
  const operands = Array.isArray(options.operands) ? options.operands : [];
  let target = typeof operands[0] === 'string' ? operands[0] : undefined;
  target ??= loadConfigFromFlags(options, checks).config.output.dir;
  const page = pageFile(target);
  const opener = options.print === true ? null : openerFor(process.platform, process.env);
  if (opener && (await openFile(page, opener))) {
    out(`opened ${page}\n`);
    return ExitCode.pass;
  }
  out(`${page}\n`);
  if (options.print !== true) {
    err(
      'model-gate view: no browser can be opened here (CI, or no display): open the file above in one\n',
    );
  }
  return ExitCode.pass;
};

const simulateCommand: CliCommand = async (options, { stdout: out }) => {
  const port = integerFlag(options.port, '--port');
  const host = String(options.host ?? '127.0.0.1');
  if (!['127.0.0.1', 'localhost', '::1'].includes(host) && !host.startsWith('127.')) {
    throw new InputError(
      `flag --host: the simulator only binds loopback addresses (127.0.0.1, ::1), got ${JSON.stringify(host)}`,
    );
  }
  const simulator = await startSimulator({
    port,
    host,
    scenario: scenarioPath(String(options.scenario ?? 'demo')),
  });
  const models = simulator.scenario.models.map((m) => m.name).join(', ');
  out(
    `model-gate simulator (simulated models, not language models) listening on ${simulator.url}\n`,
  );
  const [first, second] = simulator.scenario.models.map((m) => m.name);
  const tags = `--baseline ${first ?? 'TAG'}${second ? ` --candidate ${second}` : ''}`;
  out(
    `models: ${models}\nrun against it from another terminal (Ctrl-C here stops it):\n  OLLAMA_HOST=${simulator.url} npx model-gate run ${tags}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = onStopSignals(() => {
      stop();
      resolve();
    });
  });
  await simulator.close();
  return ExitCode.pass;
};

/** The CLI's handlers for a list of checks. */
export function createHandlers(checks: CheckList): CommandHandlers {
  const bind =
    (command: CliCommand): CommandHandler =>
    (options, io) =>
      command(options, io, checks);
  return {
    checks,
    run: bind(runCommand),
    analyze: bind(analyzeCommand),
    validate: bind(validateCommand),
    init: bind(initCommand),
    demo: bind(demoCommand),
    view: bind(viewCommand),
    simulate: bind(simulateCommand),
  };
}

/** The CLI of the built-in checks. */
export const handlers: CommandHandlers = createHandlers(CHECKS);
