/**
 * The settings a user may give outside model-gate.yml — as CLI flags or action inputs — and
 * where each lands in the config. One table for both entry points, so they cannot drift.
 */
import { InputError } from '../errors.js';
import type { ConfigOverride } from './load.js';

type Parse = (raw: string, source: string) => unknown;

const text: Parse = (raw) => raw.trim();
const integer: Parse = (raw) => (/^-?\d+$/.test(raw.trim()) ? Number(raw.trim()) : raw.trim());
const decimal: Parse = (raw) =>
  /^-?\d+(\.\d+)?$/.test(raw.trim()) ? Number(raw.trim()) : raw.trim();
const list: Parse = (raw) =>
  raw
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);

/** How a value given as text becomes a setting's value (the config schema checks it after). */
const PARSERS = { text, integer, decimal, list } as const satisfies Record<string, Parse>;
export type OverrideParser = keyof typeof PARSERS;

interface Overridable {
  path: readonly string[];
  parse: Parse;
}

/**
 * The config's own settings, name (kebab-case, as in action.yml and the CLI) → config path and
 * parser: the models and the server first, the checks' own settings next, then the runner's
 * and the output's (the order of the help and of a command line printed back).
 */
const LEADING = {
  baseline: { path: ['models', 'baseline'], parse: text },
  candidate: { path: ['models', 'candidate'], parse: text },
  checks: { path: ['checks'], parse: list },
  provider: { path: ['provider', 'kind'], parse: text },
  'ollama-host': { path: ['provider', 'host'], parse: text },
} as const satisfies Record<string, Overridable>;

const TRAILING = {
  concurrency: { path: ['runner', 'concurrency'], parse: integer },
  timeout: { path: ['runner', 'timeoutS'], parse: decimal },
  'fail-on': { path: ['failOn'], parse: text },
  'output-dir': { path: ['output', 'dir'], parse: text },
  log: { path: ['output', 'log'], parse: text },
} as const satisfies Record<string, Overridable>;

/** A setting of the config's own a user may give outside the file. */
export type ConfigOverridableName = keyof typeof LEADING | keyof typeof TRAILING;

/**
 * A setting of a check's block that a user may give outside model-gate.yml: a flag of `run`
 * and `validate`, and an action input of the same name. The CLI builds the flag and its help
 * from it.
 */
export interface CheckOverride {
  /** The flag's and the input's name, kebab-case: "samples" is `--samples` and input `samples`. */
  name: string;
  /** The value in the flag's help: "<K>" shows `--samples <K>`. */
  value: string;
  /** The flag's help, naming the setting it sets. */
  help: string;
  /** Where the value lands in the check's settings block (camelCase keys): ["samples"]. */
  setting: readonly string[];
  /** How the text given becomes the value; the check's settings schema validates it after. */
  parse: OverrideParser;
}

/** What the overrides read of a check: its name and the settings it lets a user give. */
export interface OverridingCheck {
  name: string;
  cli?: { overrides?: readonly CheckOverride[] };
}

/** The checks' own overridable settings, in the order of the checks, each under its block. */
function checkSettings(checks: readonly OverridingCheck[]): [string, Overridable][] {
  const own = checks.flatMap((check) =>
    (check.cli?.overrides ?? []).map((o): [string, Overridable] => [
      o.name,
      { path: [check.name, ...o.setting], parse: PARSERS[o.parse] },
    ]),
  );
  const names = own.map(([name]) => name);
  for (const [i, name] of names.entries()) {
    if (name in LEADING || name in TRAILING || names.indexOf(name) !== i) {
      throw new Error(`two settings are overridable as ${name}`);
    }
  }
  return own;
}

/** Every overridable setting by name, in the order of the help. */
function overridable(checks: readonly OverridingCheck[]): [string, Overridable][] {
  return [...Object.entries(LEADING), ...checkSettings(checks), ...Object.entries(TRAILING)];
}

/** The names of every overridable setting, in the order of the help. */
export function overridableNames(checks: readonly OverridingCheck[]): string[] {
  return overridable(checks).map(([name]) => name);
}

/** The values a user gave, by overridable name; an empty string means "not given". */
export type GivenOverrides = Partial<Record<string, string | undefined>>;

/**
 * Turns the values the user gave (empty strings mean "not given") into config overrides.
 * `describe` says how the user wrote a name, e.g. (n) => `flag --${n}`.
 */
export function toOverrides(
  given: GivenOverrides,
  describe: (name: string) => string,
  checks: readonly OverridingCheck[],
): ConfigOverride[] {
  const overrides: ConfigOverride[] = [];
  for (const [name, { path, parse }] of overridable(checks)) {
    const raw = given[name];
    if (raw === undefined || raw.trim() === '') continue;
    overrides.push({ path, value: parse(raw, describe(name)), source: describe(name) });
  }
  return overrides;
}

export interface Shard {
  /** 1-based, as the user writes it: "2/4" is the second of four. */
  index: number;
  count: number;
}

/** Whether a shard names one slice of a split: whole numbers with 1 ≤ index ≤ count. */
export function isShard({ index, count }: Shard): boolean {
  return Number.isInteger(index) && Number.isInteger(count) && index >= 1 && index <= count;
}

/** "i/n" with 1 ≤ i ≤ n. */
export function parseShard(raw: string | undefined, source: string): Shard | null {
  if (raw === undefined || raw.trim() === '') return null;
  const match = /^(\d+)\s*\/\s*(\d+)$/.exec(raw.trim());
  const index = match ? Number(match[1]) : Number.NaN;
  const count = match ? Number(match[2]) : Number.NaN;
  if (!match || !isShard({ index, count })) {
    throw new InputError(
      `${source}: expected a shard "i/n" with 1 ≤ i ≤ n (e.g. "2/4"), got ${JSON.stringify(raw)}`,
    );
  }
  return { index, count };
}

/** Integer flag parsing with a message naming the flag. */
export function integerFlag(value: unknown, flag: string, min = 0): number {
  const text = String(value ?? '').trim();
  if (!/^\d+$/.test(text) || Number(text) < min) {
    throw new InputError(
      `flag ${flag}: expected an integer ≥ ${min}, got ${JSON.stringify(value)}`,
    );
  }
  return Number(text);
}
