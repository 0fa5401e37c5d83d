import { Command, CommanderError } from 'commander';
import type { CheckList } from '../checks/list.js';
import type { CheckCommand, CheckCommands } from '../checks/command.js';
import {
  ExitCode,
  formatGateError,
  type GateError,
  InfrastructureError,
  InputError,
  isGateError,
} from '../errors.js';
import { TOOL_VERSION } from '../version.js';
import { overrideOptions } from './shared.js';
import { scrubSecrets } from '../text/secrets.js';
import { OWN_SEQUENCES, wantsColour } from './colour.js';
import { describeSystemError } from './systemError.js';
import { errorMessage } from '../text/format.js';
import { forLog } from '../text/sinks.js';

/** What a command handler returns: the process exit code. */
export type CommandHandler = (options: Record<string, unknown>, io: CliIo) => Promise<number>;

/**
 * The handlers, injected so the program can be built (and its help tested) without running
 * anything, with the checks they run: the checks' commands, converters and flags join the
 * program's.
 */
export interface CommandHandlers {
  checks: CheckList;
  run: CommandHandler;
  validate: CommandHandler;
  init: CommandHandler;
  analyze: CommandHandler;
  demo: CommandHandler;
  simulate: CommandHandler;
  view: CommandHandler;
}

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stdout shows colours (a terminal without NO_COLOR); decided from process.stdout when absent. */
  colour?: boolean;
}

const EXIT_CODES_HELP = `
Exit codes:
  0  pass (warnings allowed)
  1  regression: at least one gate rule failed
  2  bad input: config, items, personas or flags (nothing was run)
  3  infrastructure: server unreachable, model missing, measurement perturbed (inconclusive)`;

type Wrap = (handler: CommandHandler) => (...args: unknown[]) => Promise<void>;

export function buildProgram(
  handlers: CommandHandlers,
  io: CliIo,
  setExit: (code: number) => void,
): Command {
  const program = new Command('model-gate')
    .description(
      `Decide whether a local language model can be upgraded: ${checksMeasured(handlers.checks)}.`,
    )
    .version(TOOL_VERSION, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', EXIT_CODES_HELP)
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr });

  const wrap: Wrap =
    (handler) =>
    async (...args) => {
      const command = args[args.length - 1] as Command;
      // Positional arguments (`view [dir]`) reach the handler as `operands`.
      const options: Record<string, unknown> = {
        ...command.opts(),
        operands: command.processedArgs,
      };
      try {
        setExit(await handler(options, io));
      } catch (error) {
        // A script reading --json gets an answer on stdout even when nothing was measured.
        if (options.json === true && isGateError(error)) io.stdout(jsonErrorAnswer(error));
        throw error;
      }
    };
  addRunCommands(program, handlers, wrap);
  addReportCommands(program, handlers, wrap);
  for (const check of handlers.checks) {
    if (check.cli?.commands) addCheckCommands(program, check.cli.commands, wrap);
  }
  addImportCommands(
    program,
    handlers.checks.flatMap((check) => check.cli?.imports ?? []),
    wrap,
  );
  return program;
}

function jsonErrorAnswer(error: GateError): string {
  const answer = {
    verdict: null,
    exitCode: error.exitCode,
    error: {
      message: error.message,
      details: error instanceof InputError ? error.details : [],
      hint: error instanceof InfrastructureError ? (error.hint ?? null) : null,
    },
  };
  return `${JSON.stringify(answer, null, 2)}\n`;
}

/**
 * `run` and `validate` take the same overrides (every overridable setting, the checks' own
 * included), listed after their own options: `validate` refuses what `run` refuses.
 */
function withRunOverrides(command: Command, checks: CheckList): void {
  for (const option of overrideOptions(checks)) command.addOption(option);
}

function addRunCommands(program: Command, handlers: CommandHandlers, wrap: Wrap): void {
  const run = program
    .command('run')
    .description(
      'Evaluate the baseline and candidate models, analyse, write the report and exit with the verdict',
    )
    .option('-c, --config <file>', 'config file', 'model-gate.yml')
    .option(
      '--shard <i/n>',
      'run only slice i of n of the plan; exits 0 once it is measured (the verdict comes from analyze over every shard)',
    )
    .option('--cache-dir <dir>', 'reuse and refresh a sample log kept across runs (actions/cache)')
    .option(
      '--keep-history',
      'with --cache-dir: keep the records of models no longer in the config (by default the cached log keeps only the models measured now)',
    )
    .option(
      '--limit <n>',
      'smoke run: only the first n items, maze seeds and probes; the verdict says "smoke run" and is never a pass',
    )
    .option(
      '--fresh',
      'start a new sample log instead of resuming (the previous one is kept, renamed with the time) and ignore --cache-dir',
    )
    .option('--json', 'print the verdict and paths as JSON on stdout')
    .addHelpText(
      'after',
      '\nExamples:\n  model-gate run --config model-gate.yml --candidate qwen2.5:14b --samples 10\n  model-gate run --limit 3      # a smoke run: is everything wired up?',
    )
    .action(wrap(handlers.run));
  withRunOverrides(run, handlers.checks);

  const validate = program
    .command('validate')
    .description(
      'Check the config, items and persona catalogue as run would, without contacting a server; print the plan',
    )
    .option('-c, --config <file>', 'config file', 'model-gate.yml')
    .action(wrap(handlers.validate));
  withRunOverrides(validate, handlers.checks);

  program
    .command('init')
    .description(
      'Write a starter model-gate.yml, items file, persona catalogue and pull-request workflow (never overwrites)',
    )
    .option('--dir <folder>', 'where to write them', '.')
    .option('--baseline <tag>', 'baseline model tag for the starter config')
    .option('--candidate <tag>', 'candidate model tag for the starter config')
    .action(wrap(handlers.init));
}

function addReportCommands(program: Command, handlers: CommandHandlers, wrap: Wrap): void {
  program
    .command('analyze')
    .description(
      'Turn one or more sample logs (a run, a resumed run, several shards) into the report; no model is called',
    )
    .option(
      '--log <file...>',
      "sample log(s) to analyse (repeat or list several; default: the config's own, output.log)",
    )
    .option('-c, --config <file>', 'config file the logs were produced with', 'model-gate.yml')
    .option('--out <dir>', 'output directory (default: output.dir of the config)')
    .option('--previous <report>', 'dragon nightly mode: a previous report.json to compare with')
    .option('--fail-on <when>', 'regression | inconclusive | never')
    .option('--baseline <tag>', 'baseline model tag (models.baseline)')
    .option('--candidate <tag>', 'candidate model tag (models.candidate)')
    .option('--json', 'print the verdict and paths as JSON on stdout')
    .addHelpText(
      'after',
      '\nExample (merge shards):\n  model-gate analyze --log shard-1/samples.jsonl shard-2/samples.jsonl --out report/',
    )
    .action(wrap(handlers.analyze));

  program
    .command('demo')
    .description('The whole job against the built-in simulator: no GPU, no server to install')
    .option(
      '--scenario <name>',
      'demo (a regression to show every check) | aa (identical models, a clean pass)',
      'demo',
    )
    .option(
      '--out <dir>',
      'output directory (default: model-gate-out/demo, model-gate-out/demo-aa for aa)',
    )
    .option('--json', 'print the verdict and paths as JSON on stdout')
    .action(wrap(handlers.demo));

  program
    .command('view')
    .description(
      'Open report.html (the evidence behind the verdict) in the browser, or print its path where none can be opened',
    )
    .argument(
      '[dir]',
      'folder of the report, or the report.html file (default: output.dir of the config)',
    )
    .option(
      '-c, --config <file>',
      'config file whose output.dir holds the report',
      'model-gate.yml',
    )
    .option('--print', 'only print the path of report.html')
    .action(wrap(handlers.view));

  program
    .command('simulate')
    .description(
      'Start the Ollama-compatible simulator on loopback (scripted models, for tests and dry runs)',
    )
    .option('--port <n>', 'port (0 picks a free one)', '11435')
    .option('--host <address>', 'loopback address to bind', '127.0.0.1')
    .option('--scenario <file>', 'scenario file or built-in name (demo, aa)', 'demo')
    .action(wrap(handlers.simulate));
}

/** What the checks measure, each with its name: the program's description. */
function checksMeasured(checks: CheckList): string {
  return checks
    .map((check) => (check.cli?.measures ? `${check.cli.measures} (${check.name})` : check.name))
    .join(', ');
}

/** A check's own commands (`Check.commands`), under its group. */
function addCheckCommands(program: Command, group: CheckCommands, wrap: Wrap): void {
  const parent = program.command(group.name).description(group.description);
  for (const own of group.commands) addCheckCommand(parent, own, wrap);
}

/** The checks' converters (`Check.imports`), under `import`. */
function addImportCommands(program: Command, imports: readonly CheckCommand[], wrap: Wrap): void {
  if (imports.length === 0) return;
  const importing = program
    .command('import')
    .description("Turn another tool's test suite into a model-gate items file");
  for (const own of imports) addCheckCommand(importing, own, wrap);
}

/** A check's command: its arguments, options and example, run with the arguments by name. */
function addCheckCommand(parent: Command, own: CheckCommand, wrap: Wrap): void {
  const command = parent.command(own.name).description(own.description);
  const named = own.arguments ?? [];
  for (const argument of named) {
    const spelled = argument.required ? `<${argument.name}>` : `[${argument.name}]`;
    command.argument(spelled, argument.description);
  }
  for (const option of own.options) {
    if (option.required) command.requiredOption(option.flags, option.description, option.default);
    else command.option(option.flags, option.description, option.default);
  }
  if (own.example) command.addHelpText('after', `\nExample:\n  ${own.example}`);
  const run = wrap((options, io) => {
    const operands = Array.isArray(options.operands) ? options.operands : [];
    const given = named.map((argument, i) => [argument.name, operands[i]]);
    return own.run({ ...options, ...Object.fromEntries(given) }, io.stdout, io.stderr);
  });
  command.action(run);
}

/** Runs the CLI and returns the exit code; never throws, never prints a stack trace for user errors. */
export async function runCli(
  argv: readonly string[],
  handlers: CommandHandlers,
  given: CliIo,
): Promise<number> {
  // Messages quote servers and user files: nothing reaches the terminal that it would act on,
  // but for the colours the CLI itself paints on a terminal, and no registered secret at all.
  const colour = given.colour ?? wantsColour(process.stdout);
  const io: CliIo = {
    stdout: (text) => given.stdout(colour ? keepingOwnColours(text) : forLog(text)),
    stderr: (text) => given.stderr(forLog(text)),
  };
  let exitCode: number = ExitCode.pass;
  const program = buildProgram(handlers, io, (code) => {
    exitCode = code;
  });
  program.exitOverride();
  for (const command of allCommands(program)) command.exitOverride();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      ) {
        return ExitCode.pass;
      }
      // Commander already printed its message.
      return ExitCode.badInput;
    }
    if (isGateError(error)) {
      io.stderr(`model-gate: ${formatGateError(error)}\n`);
      return error.exitCode;
    }
    const system = describeSystemError(error);
    if (system) {
      io.stderr(`model-gate: ${system.message}\n`);
      return system.exitCode;
    }
    const message = errorMessage(error);
    io.stderr(`model-gate: internal error: ${message}\n`);
    if (process.env.MODEL_GATE_DEBUG && error instanceof Error && error.stack)
      io.stderr(`${error.stack}\n`);
    else io.stderr('  (set MODEL_GATE_DEBUG=1 to see where it happened, and please report it)\n');
    return ExitCode.infrastructure;
  }
}

function keepingOwnColours(text: string): string {
  // Masked whole first: a secret is found before the text is cut into parts.
  return scrubSecrets(text)
    .split(OWN_SEQUENCES)
    .map((part, i) => (i % 2 === 1 ? part : forLog(part)))
    .join('');
}

function allCommands(command: Command): Command[] {
  return command.commands.flatMap((c) => [c, ...allCommands(c)]);
}
