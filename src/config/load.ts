import { existsSync } from 'node:fs';
import path from 'node:path';
import { decodeUserText } from './textFile.js';
import { lineOfPath, parseYamlDocument } from './yaml.js';
import type { z } from 'zod';
import { explainIssue } from './issues.js';
import { InputError } from '../errors.js';
import { camelizeKeys, camelToKebab, displayPath } from './keys.js';
import {
  type ConfigCheck,
  type ConfigOf,
  type ConfigSchema,
  configSchema,
  CREDENTIALS_REFUSED,
} from './schema.js';
import { parseUrl, registerUrlSecrets } from './hostUrl.js';
import { MAX_CONFIG_BYTES, readLimitedFile } from './limits.js';
import { nearWords } from '../text/nearest.js';

/** A value given outside the file (action input, CLI flag), applied over the file. */
export interface ConfigOverride {
  /** camelCase path in the config, e.g. ['churn', 'samples']. */
  path: readonly string[];
  value: unknown;
  /** How the user wrote it, for messages: "flag --samples", "input 'samples'". */
  source: string;
}

/** `Check`: the checks the config was read for, as the caller typed them. */
export interface LoadedConfig<Check extends ConfigCheck = ConfigCheck> {
  config: ConfigOf<Check>;
  /** Absolute path of the config file, or null when none was read. */
  file: string | null;
  /** Directory that relative paths in the config are resolved against. */
  baseDir: string;
  /** The checks of the run (the entry point's list), in report order. */
  checks: readonly Check[];
}

export interface LoadConfigOptions<Check extends ConfigCheck = ConfigCheck> {
  /** The checks a config may select and whose settings blocks it holds (the entry point's list). */
  checks: readonly Check[];
  /** Path of model-gate.yml; null reads no file at all (defaults and overrides only). */
  file?: string | null;
  /** When false, a missing file means "defaults and overrides only". */
  required?: boolean;
  overrides?: readonly ConfigOverride[];
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Who gives the settings besides the file, for the hints of a missing config. */
  origin?: ConfigOrigin;
}

/** The CLI names flags in its hints, the action names its inputs. */
export type ConfigOrigin = 'cli' | 'action';

const HOW_TO: Record<ConfigOrigin, { models: string; config: string }> = {
  cli: {
    models: 'or name the models on the command line: --baseline TAG --candidate TAG',
    config: 'or pass the path of an existing config with --config',
  },
  action: {
    models: "or set the action's baseline (and candidate) inputs",
    config: "or set the action's config input to the path of an existing config",
  },
};

/** The hint that opens every "no config" message: the command that writes one. */
export const INIT_HINT =
  'npx model-gate init writes a starter model-gate.yml, items file, persona catalogue and workflow here';

export const DEFAULT_CONFIG_FILE = 'model-gate.yml';

/**
 * Whether a config file must exist: one named by the user must; the default may be absent,
 * since flags or inputs alone can describe a run.
 */
export function configFileRequired(file: string | undefined): boolean {
  return file !== undefined && file !== '' && file !== DEFAULT_CONFIG_FILE;
}

export function loadConfig<Check extends ConfigCheck>(
  options: LoadConfigOptions<Check>,
): LoadedConfig<Check> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const requested = options.file ?? DEFAULT_CONFIG_FILE;
  const file = path.resolve(cwd, requested ?? DEFAULT_CONFIG_FILE);
  const required = options.required ?? options.file !== undefined;

  let raw: Record<string, unknown> = {};
  let locate: ParsedYaml['locate'] = () => '';
  let fileRead: string | null = null;

  if (options.file === null) {
    // Defaults and overrides only.
  } else if (existsSync(file)) {
    const bytes = readLimitedFile(file, requested, MAX_CONFIG_BYTES, 'config file');
    if (bytes === null) throw new InputError(`${requested}: config file not found in ${cwd}`);
    const text = decodeUserText(bytes, requested);
    const parsed = parseYamlConfig(text, requested);
    raw = parsed.value;
    locate = parsed.locate;
    fileRead = file;
  } else if (required) {
    throw new InputError(`${requested}: config file not found in ${cwd}`, [
      INIT_HINT,
      HOW_TO[options.origin ?? 'cli'].config,
    ]);
  }

  registerUrlSecrets(getPath(raw, ['provider', 'host']));
  const overrides = [...(options.overrides ?? [])];
  if (getPath(raw, ['provider', 'host']) === undefined && !overrides.some(isHostOverride)) {
    const fromEnv = env.OLLAMA_HOST?.trim();
    if (fromEnv)
      overrides.push({
        path: ['provider', 'host'],
        value: normaliseOllamaHost(fromEnv),
        source: 'environment OLLAMA_HOST',
      });
  }
  for (const override of overrides) setPath(raw, override.path, override.value);
  // Secrets in the server URL are masked from here on, even when the URL is then refused.
  registerUrlSecrets(getPath(raw, ['provider', 'host']));
  if (
    fileRead === null &&
    options.file !== null &&
    getPath(raw, ['models', 'baseline']) === undefined
  ) {
    // Without a file and without a model there is nothing to run: say which file was looked
    // for and how to write one, not that "models" is missing from a file the user never wrote.
    throw new InputError(`${requested}: config file not found in ${cwd}, and no model named`, [
      INIT_HINT,
      `${HOW_TO[options.origin ?? 'cli'].models} (the built-in items, persona catalogue and maze seeds are used)`,
    ]);
  }

  const schema = configSchema(options.checks);
  const result = schema.safeParse(raw, { reportInput: true });
  if (!result.success) {
    const where = fileRead ? requested : 'config';
    const details = result.error.issues.map((issue) =>
      describeIssue(issue, overrides, locate, schema),
    );
    throw new InputError(
      `${where}: ${details.length === 1 ? 'invalid value' : `${details.length} invalid values`}`,
      details,
    );
  }
  return {
    // The schema holds each check's block, read by the check's own settings schema.
    config: result.data,
    file: fileRead,
    baseDir: fileRead ? path.dirname(fileRead) : cwd,
    checks: options.checks,
  };
}

/** Resolves a path written in the config relative to the config file's folder. */
export function resolveConfigPath(loaded: Pick<LoadedConfig, 'baseDir'>, p: string): string {
  return path.resolve(loaded.baseDir, p);
}

/** OLLAMA_HOST may be "0.0.0.0:11434" or "host"; the client needs a URL. */
export function normaliseOllamaHost(value: string): string {
  registerUrlSecrets(value);
  const url = parseUrl(value.includes('://') ? value : `http://${value}`);
  if (url === null) {
    // What stands before an "@" may be a password: never echoed.
    const shown = value.includes('@') ? 'a value with "@"' : JSON.stringify(value);
    throw new InputError(`environment OLLAMA_HOST: not a server address: ${shown}`, [
      'expected host:port (127.0.0.1:11434) or a URL (http://127.0.0.1:11434), or unset it',
    ]);
  }
  if (url.username !== '' || url.password !== '') {
    throw new InputError('environment OLLAMA_HOST: not accepted', [CREDENTIALS_REFUSED]);
  }
  if (url.hostname === '0.0.0.0') url.hostname = '127.0.0.1';
  if (!url.port && !value.includes('://')) url.port = '11434';
  return url.toString().replace(/\/$/, '');
}

function isHostOverride(o: ConfigOverride): boolean {
  return o.path.length === 2 && o.path[0] === 'provider' && o.path[1] === 'host';
}

interface ParsedYaml {
  value: Record<string, unknown>;
  locate: (issuePath: readonly PropertyKey[], key?: string) => string;
}

function parseYamlConfig(text: string, name: string): ParsedYaml {
  const { doc, lineCounter } = parseYamlDocument(text, name);
  const value: unknown = doc.toJS();
  if (value === null || value === undefined) {
    throw new InputError(`${name}: the file is empty`, [
      'expected at least a "models:" section with "baseline:" (and "candidate:" to compare two models)',
    ]);
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new InputError(`${name}: expected a mapping of settings at the top level`, [
      `found ${Array.isArray(value) ? 'a list' : `a ${typeof value}`}`,
    ]);
  }
  // An unknown key's own line, else the line of the deepest part of the path that is written.
  const locate = (issuePath: readonly PropertyKey[], key?: string): string => {
    const line = lineOfPath(lineCounter, doc.contents, key ? [...issuePath, key] : issuePath);
    return line === null ? '' : `line ${line}`;
  };
  return { value: camelizeKeys(value) as Record<string, unknown>, locate };
}

function describeIssue(
  issue: z.core.$ZodIssue,
  overrides: readonly ConfigOverride[],
  locate: (p: readonly PropertyKey[], key?: string) => string,
  schema: ConfigSchema,
): string {
  const override = [...overrides]
    .reverse()
    .find((o) => o.path.length <= issue.path.length && o.path.every((s, i) => issue.path[i] === s));
  if (issue.code === 'unrecognized_keys') {
    return issue.keys
      .map((key) => {
        const line = locate(issue.path, key);
        const at = displayPath([...issue.path, key]);
        return `${line ? `${line}: ` : ''}unknown setting ${at}${suggest(issue.path, key, schema)}`;
      })
      .join('\n  - ');
  }
  const at = displayPath(issue.path);
  const expected = explainIssue(issue);
  if (override) return `${at} (from ${override.source}): ${expected}`;
  // A missing setting has no line of its own; pointing at its parent would mislead.
  const line = issue.code === 'invalid_type' && issue.input === undefined ? '' : locate(issue.path);
  return `${line ? `${line}: ` : ''}${at}: ${expected}`;
}

/** Longest list of a block's settings shown when none is near the unknown one. */
const KNOWN_SHOWN = 16;

function suggest(parent: readonly PropertyKey[], key: string, schema: ConfigSchema): string {
  let keys = settingsAt(schema, parent);
  // History last, after the checks: the order the blocks are documented in.
  if (parent.length === 0) keys = [...keys.filter((k) => k !== 'history'), 'history'];
  const near = nearWords(camelToKebab(key), keys.map(camelToKebab));
  if (near[0] !== undefined) return `; did you mean ${displayPath([...parent, near[0]])}?`;
  if (keys.length === 0 || keys.length > KNOWN_SHOWN) return '';
  return ` (known: ${keys.map(camelToKebab).join(', ')})`;
}

/** The part of a zod schema's definition walked to find the settings of a block. */
interface SchemaDef {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: readonly z.ZodType[];
}

/** The settings a block of the config accepts (camelCase), by the block's path. */
function settingsAt(schema: z.ZodType, at: readonly PropertyKey[]): string[] {
  let nodes = [schema];
  for (const segment of at) {
    nodes = nodes.flatMap(unwrapped).flatMap((node) => {
      const def = node._zod.def as unknown as SchemaDef;
      if (def.type === 'array' && typeof segment === 'number' && def.element) return [def.element];
      const child = typeof segment === 'string' ? def.shape?.[segment] : undefined;
      return def.type === 'object' && child ? [child] : [];
    });
  }
  const keys = nodes
    .flatMap(unwrapped)
    .flatMap((node) => Object.keys((node._zod.def as unknown as SchemaDef).shape ?? {}));
  return [...new Set(keys)];
}

/** A schema without its wrappers (defaults, optional, pipes), each member of a union. */
function unwrapped(node: z.ZodType): z.ZodType[] {
  const def = node._zod.def as unknown as SchemaDef;
  if (def.type === 'union') return (def.options ?? []).flatMap(unwrapped);
  const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
  return inner ? unwrapped(inner) : [node];
}

function getPath(root: Record<string, unknown>, p: readonly string[]): unknown {
  let node: unknown = root;
  for (const segment of p) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[segment];
  }
  return node;
}

function setPath(root: Record<string, unknown>, p: readonly string[], value: unknown): void {
  let node = root;
  for (const segment of p.slice(0, -1)) {
    const next = node[segment];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[segment] = {};
    node = node[segment] as Record<string, unknown>;
  }
  const last = p[p.length - 1];
  if (last !== undefined) node[last] = value;
}
