/**
 * A large but valid JSON Lines items file: memory grew with the number of items more than
 * with the bytes (437,000 tiny items in 32 MiB reached 892 MB; 250 MB of items 1.68 GB), past
 * the 500 MB a hostile file may cost. An items file now holds at most MAX_ITEMS items and
 * MAX_JSON_ITEMS_BYTES bytes, refused with exit 2 naming the file, the limit and the page
 * that lists it; JSON Lines are validated one line at a time, so a line's parsed value (an
 * unknown field of a million numbers included) is dropped once its item is read.
 */
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadItemsFile, parseItems } from '../../src/checks/churn/items.js';
import { MAX_ITEMS, MAX_JSON_ITEMS_BYTES } from '../../src/config/limits.js';
import { ExitCode, InputError } from '../../src/errors.js';
import { childCli } from '../support/childCli.js';

const PEAK_MB = 500;

function itemLine(i: number, padding = ''): string {
  return JSON.stringify({
    id: `q${i}`,
    domain: 'd',
    question: `?${padding}`,
    choices: ['a', 'b'],
    answer: 'A',
  });
}

function lines(count: number, padding = ''): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(itemLine(i, padding));
  return `${parts.join('\n')}\n`;
}

function workspace(items: string): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'model-gate-count-')));
  writeFileSync(path.join(dir, 'items.jsonl'), items);
  writeFileSync(
    path.join(dir, 'model-gate.yml'),
    'models:\n  baseline: a:1b\n  candidate: b:1b\nchecks: [churn]\nchurn:\n  items: items.jsonl\n',
  );
  return dir;
}

function refusal(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('the number of items in one file', () => {
  it('is 100,000 at most, and 64 MiB of JSON at most', () => {
    expect(MAX_ITEMS).toBe(100_000);
    expect(MAX_JSON_ITEMS_BYTES).toBe(64 * 1024 * 1024);
  });

  it('takes 100,000 items in JSON Lines', () => {
    expect(parseItems(lines(MAX_ITEMS), 'items.jsonl').items).toHaveLength(MAX_ITEMS);
  });

  it('refuses 100,001 items in JSON Lines, naming the file, the limit and the page', () => {
    const error = refusal(() => parseItems(lines(MAX_ITEMS + 1), 'items.jsonl'));
    expect(error.message).toBe(
      'items.jsonl:100001: more than 100,000 items; an items file holds at most 100,000',
    );
    expect(error.details.join('\n')).toContain('docs/security.md');
  });

  it('refuses 100,001 items in a JSON array and in YAML', () => {
    const list = `[${Array.from({ length: MAX_ITEMS + 1 }, (_, i) => itemLine(i)).join(',\n')}]`;
    expect(refusal(() => parseItems(list, 'items.json')).message).toContain(
      'items.json: more than 100,000 items',
    );
    const yaml = Array.from({ length: MAX_ITEMS + 1 }, (_, i) => `- ${itemLine(i)}`).join('\n');
    expect(refusal(() => parseItems(yaml, 'items.yml')).message).toContain(
      'items.yml: more than 100,000 items',
    );
  }, 60_000);

  it('refuses a JSON Lines file past 64 MiB before reading it', () => {
    const dir = workspace('');
    const file = path.join(dir, 'items.jsonl');
    writeFileSync(file, `${'\n'.repeat(64 * 1024 * 1024)}\n`);
    expect(refusal(() => loadItemsFile(file, 'items.jsonl')).message).toBe(
      'items.jsonl: 64 MiB is more than a JSON items file may hold (64 MiB)',
    );
  });
});

describe('peak memory on the largest items file allowed', () => {
  it('validate: 100,000 items in just under 64 MiB stay under 500 MB', async () => {
    // 100,000 lines of about 670 bytes: the limit of items and the limit of bytes at once.
    const dir = workspace(lines(MAX_ITEMS, 'x'.repeat(590)));
    const result = await childCli(['validate'], dir, 180_000);
    expect(result.code, result.stderr).toBe(ExitCode.pass);
    expect(result.peakMb as number).toBeLessThan(PEAK_MB);
  }, 200_000);

  it('validate: 64 lines of 500,000 numbers each in an unknown field stay under 500 MB', async () => {
    const wide = `[${Array(500_000).fill('0').join(',')}]`;
    const text = Array.from({ length: 64 }, (_, i) =>
      itemLine(i).replace(/}$/, `, "x": ${wide}}`),
    ).join('\n');
    const result = await childCli(['validate'], workspace(`${text}\n`), 180_000);
    expect(result.code, result.stderr).toBe(ExitCode.pass);
    expect(result.peakMb as number).toBeLessThan(PEAK_MB);
  }, 200_000);
});
