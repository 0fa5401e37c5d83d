/**
 * The formats `model-gate import` reads, one line each, and the items file an import writes:
 * a header saying what was converted and what was left out, then the items as YAML.
 */
import path from 'node:path';
import { stringify } from 'yaml';
import { promptfoo } from './promptfoo.js';
import type { ImportedItems, Importer } from './types.js';

export const IMPORTERS: readonly Importer[] = [promptfoo];

/** The items file of an import: its header comment, then the items. */
export function itemsText(importer: Importer, name: string, imported: ImportedItems): string {
  const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, ' ');
  const header = [
    `# Open items converted from ${oneLine(path.basename(name))} by \`model-gate import ${importer.format}\`:`,
    ...importer.header.map((line) => `# ${line}`),
    ...(imported.warnings.length === 0
      ? ['# Every test converted as it is.']
      : [
          '# Left out, or converted with a difference:',
          ...imported.warnings.map((r) => `#   ${oneLine(r)}`),
        ]),
    '',
  ];
  return `${header.join('\n')}${stringify(imported.items, { aliasDuplicateObjects: false, lineWidth: 0 })}`;
}
