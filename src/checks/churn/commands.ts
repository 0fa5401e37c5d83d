/**
 * The churn check's converters under `model-gate import`: `import promptfoo <config>` turns a
 * promptfoo suite into an open-items file (import/promptfoo.ts), on standard output or into
 * `--out`, with what was left out listed on stderr.
 */
import path from 'node:path';
import { ExitCode, InputError } from '../../errors.js';
import { writeFileAtomic } from '../../files/safeWrite.js';
import { errorMessage } from '../../text/format.js';
import type { CheckCommand } from '../command.js';
import { importPromptfoo } from './import/promptfoo.js';

export const churnImports: readonly CheckCommand[] = [
  {
    name: 'promptfoo',
    description:
      "Open items from a promptfoo suite: each test's prompt with its vars rendered, its deterministic assertions (equals, contains, icontains, contains-all, contains-any, starts-with, regex, is-json, contains-json) as the grader; what is left out is listed on stderr",
    arguments: [{ name: 'config', required: true }],
    options: [
      {
        flags: '--out <file>',
        description: 'write the items file there (default: standard output)',
      },
    ],
    example: 'model-gate import promptfoo promptfooconfig.yaml --out items/promptfoo.yml',
    async run(options, out, err) {
      const config = String(options.config ?? '');
      const result = importPromptfoo(path.resolve(config), config);
      const target = typeof options.out === 'string' ? options.out : null;
      for (const line of result.report) err(`model-gate import: ${line}\n`);
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
  },
];

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
