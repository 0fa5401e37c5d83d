/**
 * The churn check's converters under `model-gate import`: one command per format of
 * src/import/ (`import promptfoo <config>` turns a promptfoo suite into an open-items file), on
 * standard output or into `--out`, with what was left out listed on stderr. The importer reads
 * the suite; each item it makes is checked here as `run` will read it.
 */
import path from 'node:path';
import { ExitCode, InputError } from '../../errors.js';
import { writeFileAtomic } from '../../files/safeWrite.js';
import { IMPORTERS, itemsText } from '../../import/index.js';
import type { Importer } from '../../import/types.js';
import { errorMessage } from '../../text/format.js';
import type { CheckCommand } from '../command.js';
import { DEFAULT_MAX_TOKENS } from './itemSchema.js';
import { validateOpenItem } from './openItems.js';

/** An imported item's problems as `run` will read it (module paths relative to `dir`). */
function problemsOf(item: Readonly<Record<string, unknown>>, dir: string): string[] {
  const read = validateOpenItem(
    item,
    0,
    { name: 'item', baseDir: dir, maxTokens: DEFAULT_MAX_TOKENS },
    [],
  );
  return Array.isArray(read) ? read.map((problem) => problem.message) : [];
}

/** The items file of a suite: its text, how many items, and the lines of what was left out. */
export function importSuite(
  importer: Importer,
  file: string,
  name = file,
  itemsFile: string | null = file,
): { text: string; items: number; report: string[]; summary: string[] } {
  const imported = importer.read(file, {
    name,
    check: problemsOf,
    itemsFile,
    write: writeFileAtomic,
  });
  return {
    text: itemsText(importer, name, imported),
    items: imported.items.length,
    report: imported.warnings,
    summary: imported.summary ?? [],
  };
}

function importCommand(importer: Importer): CheckCommand {
  return {
    name: importer.format,
    description: importer.description,
    arguments: [{ name: 'config', required: true }],
    options: [
      {
        flags: '--out <file>',
        description: 'write the items file there (default: standard output)',
      },
    ],
    example: importer.example,
    async run(options, out, err) {
      const config = String(options.config ?? '');
      const file = path.resolve(config);
      const target = typeof options.out === 'string' ? options.out : null;
      // Printed, the items have no folder to write a grader module beside.
      const result = importSuite(
        importer,
        file,
        config,
        target === null ? null : path.resolve(target),
      );
      if (!importer.detect(file)) {
        err(`model-gate import: ${config} does not look like a ${importer.format} suite\n`);
      }
      for (const line of result.report) err(`model-gate import: ${line}\n`);
      for (const line of result.summary) err(`${line}\n`);
      if (target === null) {
        out(result.text);
      } else {
        writeImportedItems(target, result.text);
        out(
          `wrote ${target}: ${result.items} open items${result.report.length > 0 ? ` (${result.report.length} notes above)` : ''}\nnext: set churn.items: ${target} in model-gate.yml, then npx model-gate validate\n`,
        );
      }
      return ExitCode.pass;
    },
  };
}

export const churnImports: readonly CheckCommand[] = IMPORTERS.map(importCommand);

/** `import --out`: written whole and never through a link; a folder that cannot take it is a bad flag. */
function writeImportedItems(target: string, text: string): void {
  try {
    writeFileAtomic(target, text);
  } catch (error) {
    throw new InputError(`--out ${target}: cannot write the items file: ${errorMessage(error)}`, [
      'give --out a path in a folder that exists and can be written',
    ]);
  }
}
