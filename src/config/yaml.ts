/**
 * YAML files written by users (config, persona catalogue, simulator scenario) are parsed
 * here, so a syntax error reads the same everywhere: the file, then one line per error with
 * its line and column.
 */
import { type Document, LineCounter, parseDocument } from 'yaml';
import { InputError } from '../errors.js';

export interface ParsedYamlDocument {
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

/** Parses `text` (duplicate keys are errors); throws InputError "<name>: not valid YAML". */
export function parseYamlDocument(text: string, name: string): ParsedYamlDocument {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) {
    throw new InputError(
      `${name}: not valid YAML`,
      doc.errors.map((e) => {
        // Without prettyErrors the parser leaves linePos unset: the offset gives the position.
        const pos = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
        const message = e.message.split('\n')[0] ?? e.message;
        return `line ${pos.line}, column ${pos.col}: ${message}`;
      }),
    );
  }
  return { doc, lineCounter };
}
