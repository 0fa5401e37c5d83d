import { Option } from 'commander';
import { allChecks } from '../checks/registry.js';
import { kebabToCamel } from '../config/keys.js';
import { onStopSignals } from '../signals.js';
import { configFileRequired, loadConfig, type LoadedConfig } from '../config/load.js';
import { type ConfigOverridableName, overridableNames, toOverrides } from '../config/overrides.js';
import { checkNames } from '../config/schema.js';

interface FlagHelp {
  flag: string;
  help: string;
}

/** Flags of `run` and `validate` that override model-gate.yml: the config's own settings. */
const OVERRIDE_FLAGS: Record<ConfigOverridableName, FlagHelp> = {
  baseline: { flag: '--baseline <tag>', help: 'baseline model tag (models.baseline)' },
  candidate: {
    flag: '--candidate <tag>',
    help: 'candidate model tag (models.candidate); omit for a single-model nightly run',
  },
  checks: {
    flag: '--checks <list>',
    // The registered checks, read when the help is built (the registry is loaded by then).
    get help() {
      return `comma-separated subset of ${checkNames().join(',')}`;
    },
  },
  provider: { flag: '--provider <kind>', help: 'ollama | openai | embedded (provider.kind)' },
  'ollama-host': {
    flag: '--ollama-host <url>',
    help: 'server URL (provider.host; default OLLAMA_HOST or http://127.0.0.1:11434)',
  },
  concurrency: {
    flag: '--concurrency <n>',
    help: "requests in flight; match the server's parallel slots (runner.concurrency)",
  },
  timeout: {
    flag: '--timeout <seconds>',
    help: 'per-request timeout before one retry (runner.timeout-s)',
  },
  'fail-on': { flag: '--fail-on <when>', help: 'regression | inconclusive | never (fail-on)' },
  'output-dir': {
    flag: '--output-dir <dir>',
    help: 'where report.json, summary.md and charts go (output.dir)',
  },
  log: {
    flag: '--log <file>',
    help: 'sample log path (output.log; default <output-dir>/samples.jsonl)',
  },
};

/** An overridable setting's flag: the config's own, or one a check declares (`Check.overrides`). */
function flagOf(name: string): FlagHelp {
  if (name in OVERRIDE_FLAGS) return OVERRIDE_FLAGS[name as ConfigOverridableName];
  const own = allChecks()
    .flatMap((check) => check.overrides)
    .find((override) => override.name === name);
  if (!own) throw new Error(`no flag is declared for the override ${name}`);
  return { flag: `--${own.name} ${own.value}`, help: own.help };
}

/** Every overridable setting as a flag, in the order of the help. */
export function overrideOptions(): Option[] {
  return overridableNames().map((name) => new Option(flagOf(name).flag, flagOf(name).help));
}

/** Commander stores `--ollama-host` as `ollamaHost`; map back to the kebab names. */
export function collectOverrides(options: Record<string, unknown>): Record<string, string> {
  const given: Record<string, string> = {};
  for (const name of overridableNames()) {
    const value = options[kebabToCamel(name)];
    if (typeof value === 'string') given[name] = value;
  }
  return given;
}

export function loadConfigFromFlags(
  options: Record<string, unknown>,
  exclude: readonly string[] = [],
): LoadedConfig {
  const given = collectOverrides(options);
  for (const name of exclude) delete given[name];
  const file = typeof options.config === 'string' ? options.config : undefined;
  return loadConfig({
    file,
    required: configFileRequired(file),
    overrides: toOverrides(given, (n) => `flag --${n}`),
  });
}

/**
 * An AbortSignal tied to SIGINT/SIGTERM: the first signal stops scheduling and lets the
 * requests in flight finish into the sample log; a second one exits at once.
 */
export function interruptSignal(
  stderr: NodeJS.WritableStream = process.stderr,
  stopping = 'stopping; the sample log keeps every finished request (rerun to resume)',
): {
  signal: AbortSignal;
  dispose(): void;
} {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals): void => {
    if (controller.signal.aborted) {
      stderr.write(`\nmodel-gate: ${name} again, exiting now\n`);
      process.exit(130);
    }
    stderr.write(`\nmodel-gate: ${name} received, ${stopping}\n`);
    controller.abort(new Error(`interrupted by ${name}`));
  };
  return { signal: controller.signal, dispose: onStopSignals(onSignal) };
}
