import { Option } from 'commander';
import type { CheckList } from '../checks/list.js';
import type { AnyCheck } from '../checks/types.js';
import { kebabToCamel } from '../config/keys.js';
import { onStopSignals } from '../signals.js';
import { configFileRequired, loadConfig, type LoadedConfig } from '../config/load.js';
import { type ConfigOverridableName, overridableNames, toOverrides } from '../config/overrides.js';

interface FlagHelp {
  flag: string;
  help: string;
}

/** Flags of `run` and `validate` that override model-gate.yml: the config's own settings. */
const OVERRIDE_FLAGS: Record<Exclude<ConfigOverridableName, 'checks'>, FlagHelp> = {
  baseline: { flag: '--baseline <tag>', help: 'baseline model tag (models.baseline)' },
  candidate: {
    flag: '--candidate <tag>',
    help: 'candidate model tag (models.candidate); omit for a single-model nightly run',
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

/** An overridable setting's flag: the config's own, or one a check declares (`cli.overrides`). */
function flagOf(name: string, checks: CheckList): FlagHelp {
  if (name === 'checks') {
    const names = checks.map((c) => c.name).join(',');
    return { flag: '--checks <list>', help: `comma-separated subset of ${names}` };
  }
  if (name in OVERRIDE_FLAGS) return OVERRIDE_FLAGS[name as keyof typeof OVERRIDE_FLAGS];
  const own = checks
    .flatMap((check) => check.cli?.overrides ?? [])
    .find((override) => override.name === name);
  if (!own) throw new Error(`no flag is declared for the override ${name}`);
  return { flag: `--${own.name} ${own.value}`, help: own.help };
}

/** Every overridable setting as a flag, in the order of the help. */
export function overrideOptions(checks: CheckList): Option[] {
  return overridableNames(checks).map((name) => {
    const { flag, help } = flagOf(name, checks);
    return new Option(flag, help);
  });
}

/** Commander stores `--ollama-host` as `ollamaHost`; map back to the kebab names. */
export function collectOverrides(
  options: Record<string, unknown>,
  checks: CheckList,
): Record<string, string> {
  const given: Record<string, string> = {};
  for (const name of overridableNames(checks)) {
    const value = options[kebabToCamel(name)];
    if (typeof value === 'string') given[name] = value;
  }
  return given;
}

export function loadConfigFromFlags(
  options: Record<string, unknown>,
  checks: CheckList,
): LoadedConfig<AnyCheck> {
  const given = collectOverrides(options, checks);
  const file = typeof options.config === 'string' ? options.config : undefined;
  return loadConfig({
    checks,
    file,
    required: configFileRequired(file),
    overrides: toOverrides(given, (n) => `flag --${n}`, checks),
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
