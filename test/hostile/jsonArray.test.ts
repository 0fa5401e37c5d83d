/**
 * A JSON array items file (.json) was parsed whole before its elements were counted: 64 MiB
 * holding one flat array of 32.8 million numbers (164 lines of 200,000) took more than 1.5 GB
 * and over a minute before the limit of items refused it, and 64 lines each holding a list of
 * 133,000 empty objects took 550 MB for a third of the bytes allowed. A scan now finds the
 * elements first: the one past the limit of items is refused before it is parsed, an element
 * larger than a line may be or nested too deeply is refused before its parse, and each element
 * is parsed on its own, so the memory holds one at a time.
 */
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseItems } from '../../src/checks/churn/items.js';
import { MAX_JSON_ITEMS_BYTES } from '../../src/config/limits.js';
import { ExitCode, formatGateError, InputError } from '../../src/errors.js';
import { childCli } from '../support/childCli.js';

const PEAK_MB = 500;

function workspace(items: string): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'model-gate-array-')));
  writeFileSync(path.join(dir, 'items.json'), items);
  writeFileSync(
    path.join(dir, 'model-gate.yml'),
    'models:\n  baseline: a:1b\n  candidate: b:1b\nchecks: [churn]\nchurn:\n  items: items.json\n',
  );
  return dir;
}

function refusal(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return formatGateError(error as InputError);
  }
  throw new Error('accepted');
}

const ITEM = '{"id": "q1", "question": "?", "choices": ["a", "b"], "answer": "A"}';

describe('a hostile JSON array of items, validated in a child process', () => {
  it('164 lines of 200,000 numbers in one flat array: exit 2 on the limit of items, under 500 MB', async () => {
    const line = Array(200_000).fill('0').join(',');
    const text = `[${Array(164).fill(line).join(',\n')}]\n`;
    // Nearly all of the 64 MiB a JSON items file may hold.
    expect(text.length).toBeGreaterThan(62 * 1024 * 1024);
    expect(text.length).toBeLessThan(MAX_JSON_ITEMS_BYTES);
    const result = await childCli(['validate'], workspace(text), 120_000);
    expect(result.code, result.stderr).toBe(ExitCode.badInput);
    expect(result.stderr).toContain('items.json: more than 100,000 items');
    expect(result.peakMb as number).toBeLessThan(PEAK_MB);
  }, 150_000);

  it('64 lines each a list of 133,000 objects: each element parsed alone, under 500 MB', async () => {
    const line = `[${Array(133_000).fill('{}').join(',')}]`;
    const result = await childCli(
      ['validate'],
      workspace(`[${Array(64).fill(line).join(',\n')}]\n`),
      120_000,
    );
    expect(result.code, result.stderr).toBe(ExitCode.badInput);
    expect(result.stderr).toContain('items.json: 64 invalid items');
    expect(result.stderr).toContain('items.json:64: expected an object');
    expect(result.peakMb as number).toBeLessThan(PEAK_MB);
  }, 150_000);
});

describe('the scan of a JSON array', () => {
  it('refuses an element larger than a line may be, naming the line it starts on', () => {
    // Each line is short; the element spans 40,000 of them.
    const big = `{"id": "q2", "x": [\n${Array(40_000).fill('"abcdefghijklmnopqrstuvwxyz"').join(',\n')}]}`;
    expect(refusal(() => parseItems(`[${ITEM},\n${big}]\n`, 'items.json'))).toContain(
      'items.json:2: an item of 1.1 MiB; an item may hold at most 1 MiB',
    );
  });

  it('finds elements whatever their strings hold, each with its line', () => {
    const tricky =
      '{"id": "q2", "question": "a ] b, \\" [ } {", "choices": ["\\\\", "]"], "answer": "B"}';
    const { items } = parseItems(`[\n  ${ITEM},\n\n  ${tricky}\n]\n`, 'items.json');
    expect(items.map((item) => [item.id, item.line])).toEqual([
      ['q1', 2],
      ['q2', 4],
    ]);
    expect(items[1]).toMatchObject({ question: 'a ] b, " [ } {', choices: ['\\', ']'] });
  });

  it('an empty array has no items; text after the array is not JSON', () => {
    expect(refusal(() => parseItems('[ \n ]\n', 'items.json'))).toContain('items.json: no items');
    expect(refusal(() => parseItems(`[${ITEM}] [${ITEM}]\n`, 'items.json'))).not.toContain(
      'no items',
    );
  });
});
