/**
 * `model-gate init`: a starter config, items file, persona catalogue and pull-request
 * workflow in a folder, ready for `model-gate validate`. It never overwrites: when any of the
 * files exists, nothing is written and the error names the file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
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

export interface StarterFile {
  /** Relative to the folder, with "/" separators. */
  file: string;
  text: string;
}

export const STARTER_PATHS = {
  config: 'model-gate.yml',
  items: 'items/items.yml',
  catalogue: 'personas/catalogue.yml',
  workflow: '.github/workflows/model-gate.yml',
} as const;

export function starterFiles(options: Omit<InitOptions, 'dir'> = {}): StarterFile[] {
  const root = packageRoot();
  const read = (...parts: string[]) => readFileSync(path.join(root, ...parts), 'utf8');
  return [
    { file: STARTER_PATHS.config, text: starterConfig(options) },
    {
      file: STARTER_PATHS.items,
      text: `# Starter items (model-gate's built-in set): replace them with your own.\n# Format: docs/items.md in the model-gate package.\n${stripLeadingComments(read('fixtures', 'items', 'general.yml'))}`,
    },
    {
      file: STARTER_PATHS.catalogue,
      text: `# Starter persona catalogue: declare your own assistants and probes.\n# Format: docs/personas-catalogue.md in the model-gate package.\n${stripLeadingComments(read('fixtures', 'personas', 'catalogue.yml'))}`,
    },
    { file: STARTER_PATHS.workflow, text: read('docs', 'workflows', 'model-upgrade-gate.yml') },
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

function stripLeadingComments(text: string): string {
  const lines = text.split('\n');
  let start = 0;
  while (start < lines.length && /^\s*(#.*)?$/.test(lines[start] ?? '')) start++;
  return lines.slice(start).join('\n');
}

function starterConfig(options: Omit<InitOptions, 'dir'>): string {
  return `${schemaModeline(TOOL_VERSION)}
# model-gate config: every setting and its default is documented in the JSON Schema above
# (your editor completes and checks keys) and in model-gate.yml of the model-gate repository.
# Check it without a server: npx model-gate validate

provider:
  kind: ollama                   # ollama | openai | embedded

models:
  baseline: ${options.baseline ?? 'qwen2.5:7b'}           # today's model
  candidate: ${options.candidate ?? 'qwen2.5:14b'}         # the upgrade; omit for a single-model run

checks: [churn, dragon, personas]
fail-on: regression

runner:
  concurrency: 1                 # the server's parallel slots (OLLAMA_NUM_PARALLEL)

churn:
  items: ${STARTER_PATHS.items}
  samples: 10

dragon:
  seeds: 0-9

personas:
  catalogue: ${STARTER_PATHS.catalogue}
`;
}
