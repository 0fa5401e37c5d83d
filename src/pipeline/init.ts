/**
 * `model-gate init`: a starter config, items file, persona catalogue and pull-request
 * workflow in a folder, ready for `model-gate validate`. It never overwrites: when any of the
 * files exists, nothing is written and the error names the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CheckList } from '../checks/list.js';
import { configSchema } from '../config/schema.js';
import type { CheckStarter, StarterFile } from '../checks/starter.js';
import { type SchemaNode, documentedConfig } from '../config/documented.js';
import { configJsonSchema, configSchemaUrl } from '../config/jsonSchema.js';
import { InputError } from '../errors.js';
import { TOOL_VERSION } from '../version.js';
import { packageRoot } from '../packageRoot.js';

export interface InitOptions {
  /** The checks whose blocks and files the starter holds. */
  checks: CheckList;
  /** Folder to write into (the repository root). */
  dir: string;
  baseline?: string;
  candidate?: string;
}

const STARTER_CONFIG = 'model-gate.yml';
const STARTER_WORKFLOW = '.github/workflows/model-gate.yml';
/** Where the starter workflow takes the action from: a copy in the user's repository. */
export const VENDORED_ACTION = '.github/actions/model-gate';

/** The config, each check's files (items, catalogue) and the pull-request workflow. */
export function starterFiles(options: Omit<InitOptions, 'dir'> & { dir?: string }): StarterFile[] {
  const starters = options.checks.flatMap((check) => {
    const starter = check.cli?.starter?.();
    return starter ? [{ name: check.name, ...starter }] : [];
  });
  const workflow = readFileSync(
    path.join(packageRoot(), 'docs', 'workflows', 'model-upgrade-gate.yml'),
    'utf8',
  );
  return [
    { file: STARTER_CONFIG, text: starterConfig(options, starters) },
    ...starters.flatMap((s) => s.files),
    { file: STARTER_WORKFLOW, text: workflow },
  ];
}

/** Writes the starter files, or throws (exit 2) naming the first file that already exists. */
export async function initProject(options: InitOptions): Promise<string[]> {
  const files = starterFiles(options);
  const existing = files.filter((f) => existsSync(path.join(options.dir, f.file)));
  if (existing.length > 0) {
    throw new InputError(
      `${existing.map((f) => f.file).join(', ')}: already exists; model-gate init never overwrites a file`,
      [
        'move or delete it, or run model-gate init in another folder (model-gate init --dir <folder>)',
      ],
    );
  }
  const written: string[] = [];
  for (const { file, text } of files) {
    const target = path.join(options.dir, file);
    await mkdir(path.dirname(target), { recursive: true });
    // "wx": fail rather than overwrite a file created since the check above.
    await writeFile(target, text, { flag: 'wx' });
    written.push(target);
  }
  return written;
}

/** The header lines of the starter config: where editors find its schema, and what to do next. */
function starterHeader(dir: string): string[] {
  // The installed package's copy when the package is installed in this project; otherwise the
  // registry's copy of this version.
  const local = path.relative(dir, path.join(packageRoot(), 'schema', 'config.schema.json'));
  const inProject = !local.startsWith('..') && !path.isAbsolute(local);
  return [
    `yaml-language-server: $schema=${inProject ? `./${local.split(path.sep).join('/')}` : configSchemaUrl(TOOL_VERSION)}`,
    ...(inProject
      ? []
      : [
          `(that schema URL answers once model-gate ${TOOL_VERSION} is on the npm registry; with model-gate`,
          'installed in this project, ./node_modules/model-gate/schema/config.schema.json works today)',
        ]),
    'model-gate config: every setting with its default and what it does. The lines this starter',
    'sets are active; the others are commented out (remove the "# " to change one).',
    'Check it without a server: npx model-gate validate',
  ];
}

function starterConfig(
  options: Omit<InitOptions, 'dir'> & { dir?: string },
  starters: readonly (CheckStarter & { name: string })[],
): string {
  const values: Record<string, unknown> = {
    'provider.kind': 'ollama',
    'models.baseline': options.baseline ?? 'qwen2.5:7b',
    'models.candidate': options.candidate ?? 'qwen2.5:14b',
    checks: starters.map((s) => s.name),
    'fail-on': 'regression',
    'runner.concurrency': 1,
  };
  for (const starter of starters) {
    for (const [key, value] of Object.entries(starter.settings))
      values[`${starter.name}.${key}`] = value;
  }
  return documentedConfig(configJsonSchema(configSchema(options.checks)) as SchemaNode, {
    header: starterHeader(path.resolve(options.dir ?? '.')),
    values,
    activeDefaults: false,
  });
}
