/**
 * Items written as JSON are data, whatever spelling a key takes and however deep a line nests:
 * - a reserved key spelt with JSON escapes (`"__pro\u0074o__"`, `"\u005f_proto__"`) is the
 *   key `__proto__` once parsed: it was accepted, because the reserved names were looked for
 *   in the raw text, while a literal `__proto__` was refused;
 * - a line nested 40,000 levels deep stopped the process with a stack overflow (exit 3, an
 *   internal error): it is bad input, said with the file and line (exit 2).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { loadItemsFile, parseItems } from '../../src/checks/churn/items.js';
import { MAX_NESTING } from '../../src/config/limits.js';
import { ExitCode, formatGateError, InputError } from '../../src/errors.js';
import { cli } from '../support/smallRun.js';

function refusal(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).exitCode).toBe(ExitCode.badInput);
    return formatGateError(error as InputError);
  }
  throw new Error('accepted');
}

const FIELDS = '"id": "q1", "question": "?", "choices": ["a", "b"], "answer": "A"';

/** A folder with `items.jsonl` holding `lines`, and a config that names it. */
function workspace(lines: readonly string[]): { items: string; config: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-json-items-'));
  const items = path.join(dir, 'items.jsonl');
  writeFileSync(items, `${lines.join('\n')}\n`);
  const config = path.join(dir, 'model-gate.yml');
  writeFileSync(
    config,
    stringify({
      models: { baseline: 'a:1b', candidate: 'b:1b' },
      checks: ['churn'],
      churn: { items },
    }),
  );
  return { items, config };
}

describe('reserved keys spelt with JSON escapes', () => {
  // Each is `__proto__`, `constructor` or `prototype` once JSON.parse has read it.
  const spellings: [string, string][] = [
    ['"__pro\\u0074o__"', '__proto__'],
    ['"\\u005f_proto__"', '__proto__'],
    ['"constructo\\u0072"', 'constructor'],
    ['"prototyp\\u0065"', 'prototype'],
    ['"\\u0063onstructor"', 'constructor'],
  ];

  it('are refused in JSON Lines with the key and the line, as the literal key is', () => {
    for (const [written, key] of spellings) {
      const text = `{${FIELDS}, "domain": "d"}\n{${written}: {"x": 1}, ${FIELDS.replace('q1', 'q2')}}\n`;
      expect(refusal(() => parseItems(text, 'items.jsonl'))).toContain(
        `items.jsonl:2: key "${key}" is not accepted`,
      );
    }
  });

  it('are refused in a nested object and in a JSON array file', () => {
    for (const [written, key] of spellings) {
      const nested = `{${FIELDS}, "extra": {"a": [{${written}: 1}]}}\n`;
      expect(refusal(() => parseItems(nested, 'items.jsonl'))).toContain(
        `items.jsonl:1: key "${key}" is not accepted`,
      );
      const array = `[\n  {${FIELDS},\n   ${written}: 1}\n]\n`;
      expect(refusal(() => parseItems(array, 'items.json'))).toContain(
        `line 3: key "${key}" is not accepted`,
      );
    }
  });

  it('YAML escapes in a quoted key are refused too (the YAML reader judges parsed keys)', () => {
    for (const [written, key] of [
      ['"__pro\\x74o__"', '__proto__'],
      ['"constructo\\u0072"', 'constructor'],
    ]) {
      expect(
        refusal(() =>
          parseItems(
            `- id: q1\n  ${written}: 1\n  question: "?"\n  choices: [a, b]\n  answer: A\n`,
            'items.yml',
          ),
        ),
      ).toContain(`line 2, column 3: key "${key}" is not accepted`);
    }
  });

  it('validate exits 2 on such an items file, naming it', async () => {
    const { items, config } = workspace([`{"__pro\\u0074o__": {"answer": "B"}, ${FIELDS}}`]);
    const run = await cli(['validate', '--config', config]);
    expect(run.code).toBe(ExitCode.badInput);
    expect(run.stderr).toContain(`${items}:1: key "__proto__" is not accepted`);
  });

  it('a value that spells a reserved name with escapes is still data', () => {
    const { items } = parseItems(
      `{"id": "\\u005f_proto__", "question": "constructo\\u0072?", "choices": ["a", "b"], "answer": "A"}\n`,
      'items.jsonl',
    );
    expect(items[0]).toMatchObject({ id: '__proto__', question: 'constructor?' });
  });
});

describe('deeply nested JSON', () => {
  const deep = (levels: number): string => `${'['.repeat(levels)}${']'.repeat(levels)}`;

  it('40,000 levels in one JSON Lines line: bad input naming the line, not a stack overflow', () => {
    for (const value of [
      deep(40_000),
      `{"x": ${deep(40_000)}}`,
      '{"a":'.repeat(40_000) + '1' + '}'.repeat(40_000),
    ]) {
      const said = refusal(() => parseItems(`{${FIELDS}}\n${value}\n`, 'items.jsonl'));
      expect(said).toContain('items.jsonl:2: nested too deeply');
      expect(said).toContain(`at most ${MAX_NESTING} levels`);
    }
  });

  it('in a JSON array file too, naming the line where the nesting goes too deep', () => {
    const said = refusal(() =>
      parseItems(`[{${FIELDS}},\n{${FIELDS}, "x":\n${deep(40_000)}}]\n`, 'items.json'),
    );
    expect(said).toContain('items.json:3: nested too deeply');
    // The array is the first level there, as the list of a YAML file is.
    const at = (levels: number) => `[{${FIELDS}, "x": ${deep(levels - 2)}}]\n`;
    expect(parseItems(at(MAX_NESTING), 'items.json').items).toHaveLength(1);
    expect(refusal(() => parseItems(at(MAX_NESTING + 1), 'items.json'))).toContain(
      'items.json:1: nested too deeply',
    );
  });

  it('validate exits 2 with the message, the process is not broken by it', async () => {
    const { items, config } = workspace([`{${FIELDS}}`, `{"id": "q2", "x": ${deep(40_000)}}`]);
    const run = await cli(['validate', '--config', config]);
    expect(run.code).toBe(ExitCode.badInput);
    expect(run.stderr).toContain(`${items}:2: nested too deeply`);
    expect(run.stderr).not.toContain('internal error');
  });

  it(`${MAX_NESTING} levels are read; one more is refused`, () => {
    // The item object is the first level: its field holds the rest.
    const at = (levels: number) => `{${FIELDS}, "x": ${deep(levels - 1)}}\n`;
    expect(parseItems(at(MAX_NESTING), 'items.jsonl').items).toHaveLength(1);
    expect(refusal(() => parseItems(at(MAX_NESTING + 1), 'items.jsonl'))).toContain(
      'nested too deeply',
    );
    expect(loadItemsFile(workspace([`{${FIELDS}}`]).items).items).toHaveLength(1);
  });
});
