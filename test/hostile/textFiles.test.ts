/**
 * Items, persona catalogue and config are read by one decoder: a UTF-8 byte-order mark is
 * dropped, bytes that are not UTF-8 are bad input naming the file and line, and a JSONL line
 * that is not JSON is described, never quoted (it may hold a secret pasted by mistake).
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadItemsFile } from '../../src/checks/churn/items.js';
import { readCatalogue } from '../../src/checks/personas/catalogue.js';
import { loadConfig } from '../../src/config/load.js';
// The checks hand their settings blocks to the config when the registry loads.
import '../../src/checks/builtIn.js';
import { InputError } from '../../src/errors.js';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-text-'));

function file(name: string, ...parts: (string | Buffer)[]): string {
  const at = path.join(dir, name);
  writeFileSync(at, Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p))));
  return at;
}

async function inputError(work: () => unknown): Promise<InputError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

const text = (error: InputError) => [error.message, ...error.details].join('\n');
const item = (id: string) =>
  `${JSON.stringify({ id, domain: 'law', question: 'Which?', choices: ['a', 'b'], answer: 'A' })}\n`;

describe('user text files', () => {
  it('drop a UTF-8 byte-order mark in JSONL and YAML items', () => {
    const jsonl = file('bom.jsonl', BOM, item('q1'), item('q2'));
    expect(loadItemsFile(jsonl, 'bom.jsonl').items.map((i) => i.id)).toEqual(['q1', 'q2']);
    const yaml = file(
      'bom.yml',
      BOM,
      '- {id: y1, question: "Which?", choices: [a, b], answer: B}\n',
    );
    expect(loadItemsFile(yaml, 'bom.yml').items[0]?.id).toBe('y1');
  });

  it('refuse Latin-1 bytes in items, naming the line and the byte', async () => {
    const latin = file(
      'latin.jsonl',
      item('q1'),
      item('q2'),
      Buffer.from('{"id": "caf'),
      Buffer.from([0xe9]),
      Buffer.from('", "question": "x"}\n'),
    );
    const error = await inputError(() => loadItemsFile(latin, 'latin.jsonl'));
    expect(error.message).toBe('latin.jsonl:3: not valid UTF-8 text');
    expect(text(error)).toContain('byte 0xE9 at column 12');
  });

  it('refuse Latin-1 bytes in the config and the persona catalogue', async () => {
    const config = file(
      'model-gate.yml',
      'models:\n  baseline: a:1b\n# r',
      Buffer.from([0xe9]),
      'sum',
      '\n',
    );
    expect(
      (await inputError(() => loadConfig({ checks: CHECKS, file: config, env: {} }))).message,
    ).toMatch(/model-gate\.yml:3: not valid UTF-8 text$/);
    const original = readFileSync('fixtures/personas/catalogue.yml');
    const broken = file(
      'catalogue.yml',
      original.subarray(0, 20),
      Buffer.from([0xff]),
      original.subarray(20),
    );
    expect((await inputError(() => readCatalogue(broken, 'catalogue.yml'))).message).toMatch(
      /^catalogue\.yml:\d+: not valid UTF-8 text$/,
    );
    const bom = file('catalogue-bom.yml', BOM, original);
    expect((await readCatalogue(bom, 'catalogue-bom.yml')).assistants.length).toBeGreaterThan(1);
  });

  it('refuse UTF-16', async () => {
    const utf16 = file(
      'utf16.jsonl',
      Buffer.from([0xff, 0xfe]),
      Buffer.from(item('q1'), 'utf16le'),
    );
    expect(text(await inputError(() => loadItemsFile(utf16, 'utf16.jsonl')))).toContain(
      'save it as UTF-8',
    );
  });

  it('describe an unreadable JSONL line without quoting it', async () => {
    const secret = file('secret.jsonl', item('q1'), 'ghp_only_copy\n');
    const error = await inputError(() => loadItemsFile(secret, 'secret.jsonl'));
    expect(text(error)).toContain('secret.jsonl:2: not valid JSON');
    expect(text(error)).toContain('expected one JSON object per line');
    expect(text(error)).not.toContain('ghp_');
  });
});
