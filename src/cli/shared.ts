import { Option } from 'commander';
import { kebabToCamel } from '../config/keys.js';
import { onStopSignals } from '../signals.js';
import { configFileRequired, loadConfig, type LoadedConfig } from '../config/load.js';
import { OVERRIDABLE, type OverridableName, toOverrides } from '../config/overrides.js';

/** Flags shared by `run` and `analyze` that override model-gate.yml. */
export const OVERRIDE_FLAGS: Record<OverridableName, { flag: string; help: string }> = {
  baseline: { flag: '--baseline <tag>', help: 'baseline model tag (models.baseline)' },
  candidate: {
    flag: '--candidate <tag>',
    help: 'candidate model tag (models.candidate); omit for a single-model nightly run',
  },
  checks: { flag: '--checks <list>', help: 'comma-separated subset of churn,dragon,personas' },
  provider: { flag: '--provider <kind>', help: 'ollama | openai | embedded (provider.kind)' },
  'ollama-host': {
    flag: '--ollama-host <url>',
    help: 'server URL (provider.host; default OLLAMA_HOST or http://127.0.0.1:11434)',
  },
  samples: {
    flag: '--samples <K>',
    help: 'churn: stochastic samples per item and model (churn.samples)',
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

export function overrideOptions(names: readonly OverridableName[]): Option[] {
  return names.map((name) => new Option(OVERRIDE_FLAGS[name].flag, OVERRIDE_FLAGS[name].help));
}

/** Commander stores `--ollama-host` as `ollamaHost`; map back to the kebab names. */
export function collectOverrides(
  options: Record<string, unknown>,
): Partial<Record<OverridableName, string>> {
  const given: Partial<Record<OverridableName, string>> = {};
  for (const name of Object.keys(OVERRIDABLE) as OverridableName[]) {
    const value = options[kebabToCamel(name)];
    if (typeof value === 'string') given[name] = value;
  }
  return given;
}

export function loadConfigFromFlags(
  options: Record<string, unknown>,
  exclude: readonly OverridableName[] = [],
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
