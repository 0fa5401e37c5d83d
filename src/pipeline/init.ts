/**
 * `model-gate init`: a starter config, items file, persona catalogue and pull-request
 * workflow in a folder, ready for `model-gate validate`. It never overwrites: when any of the
 * files exists, nothing is written and the error names the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { allChecks } from '../checks/registry.js';
import type { CheckStarter, StarterFile } from '../checks/starter.js';
import { schemaModeline } from '../config/jsonSchema.js';
import { InputError } from '../errors.js';
import { TOOL_VERSION } from '../version.js';
import { packageRoot } from '../packageRoot.js';

export interface InitOptions {
  /** Folder to write into (the repository root). */
  dir: string;
  baseline?: string;
  candidate?: string;
}

const STARTER_CONFIG = 'model-gate.yml';
const STARTER_WORKFLOW = '.github/workflows/model-gate.yml';

/** The config, each check's files (items, catalogue) and the pull-request workflow. */
export function starterFiles(options: Omit<InitOptions, 'dir'> = {}): StarterFile[] {
  const starters = allChecks().flatMap((check) => {
    const starter = check.starter();
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

function starterConfig(
  options: Omit<InitOptions, 'dir'>,
  starters: readonly (CheckStarter & { name: string })[],
): string {
  const blocks = starters
    .map((s) => `${s.name}:\n${s.config.map((line) => `  ${line}\n`).join('')}`)
    .join('\n');
  return `${schemaModeline(TOOL_VERSION)}
# model-gate config: every setting and its default is documented in the JSON Schema above
# (your editor completes and checks keys) and in model-gate.yml of the model-gate repository.
# Check it without a server: npx model-gate validate

provider:
  kind: ollama                   # ollama | openai | embedded

models:
  baseline: ${options.baseline ?? 'qwen2.5:7b'}           # today's model
  candidate: ${options.candidate ?? 'qwen2.5:14b'}         # the upgrade; omit for a single-model run

checks: [${starters.map((s) => s.name).join(', ')}]
fail-on: regression

runner:
  concurrency: 1                 # the server's parallel slots (OLLAMA_NUM_PARALLEL)

${blocks}`;
}
