/**
 * The numbers of a sample log are input like any other: a log edited by hand, or planted, had
 * negative latencies, attempts and token counts accepted ("-9995 ms" in the summary). Every
 * numeric field of a record is checked when the log is read — durations 0 or more and finite,
 * counts whole and 0 or more, probabilities and confidences between 0 and 1 — and a record
 * that breaks one is bad input (exit 2) naming the file, the line and the field. What a server
 * reports as token counts is checked the same way before it is written.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode, InputError } from '../../src/errors.js';
import { countOrNull } from '../../src/providers/counts.js';
import { parseSampleLog } from '../../src/sampleLog/index.js';
import { churnRecord } from '../sampleLog/records.js';
import { cli } from '../support/smallRun.js';

const line = (value: unknown): string => `${JSON.stringify(value)}\n`;

/** The error parseSampleLog throws on a log of a good record, then `bad` (line 2). */
function refused(bad: Record<string, unknown>): string {
  const text = line(churnRecord('q1')) + line(bad);
  try {
    parseSampleLog(text, 'samples.jsonl');
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).exitCode).toBe(ExitCode.badInput);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${JSON.stringify(bad)}`);
}

const DRAGON_CALL = {
  v: 1,
  kind: 'call',
  check: 'dragon',
  model: 'm:1b',
  digest: null,
  key: '7#0',
  sample: 0,
  options: { temperature: 0.7, seed: 1, num_ctx: 4096, num_predict: 32, think: false },
  prompt_sha256: 'p'.repeat(64),
  status: 'ok',
  latency_ms: 5,
  attempts: 1,
  game: 7,
  decision: 0,
  turn: 0,
  move: 'up',
  confidence: 0.5,
  outcome: 'moved',
};

describe('numeric fields of a record', () => {
  it('a negative latency, attempt or token count: refused with the file, line and field', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ latency_ms: -9995 }, 'latency_ms'],
      [{ attempts: -1 }, 'attempts'],
      [{ attempts: 1.5 }, 'attempts'],
      [{ prompt_tokens: -3 }, 'prompt_tokens'],
      [{ completion_tokens: -1 }, 'completion_tokens'],
      [{ completion_tokens: 2.5 }, 'completion_tokens'],
      [{ sample: -1 }, 'sample'],
      [{ p_correct: 1.5, mode: 'exact' }, 'p_correct'],
      [{ letters: { A: -0.5, B: 1.5 }, mode: 'exact' }, 'letters.A'],
      [{ text_bytes: -10 }, 'text_bytes'],
      [{ options: { ...churnRecord('q').options, num_ctx: -4096 } }, 'options.num_ctx'],
      [{ options: { ...churnRecord('q').options, temperature: -1 } }, 'options.temperature'],
    ];
    for (const [fields, field] of cases) {
      const message = refused(churnRecord('q2', fields as never));
      expect(message, field).toMatch(new RegExp(`^samples\\.jsonl:2: field "${field}": expected`));
    }
  });

  it('a duration too large for a number (1e999 reads as Infinity) is refused', () => {
    const text = `${line(churnRecord('q1'))}${line(churnRecord('q2')).replace('"latency_ms":12', '"latency_ms":1e999')}`;
    expect(text).toContain('1e999');
    expect(() => parseSampleLog(text, 'samples.jsonl')).toThrow(
      'samples.jsonl:2: field "latency_ms": expected a duration in milliseconds, 0 or more',
    );
  });

  it("dragon records: confidence outside 0..1, a negative turn or a game's negative counts", () => {
    expect(refused({ ...DRAGON_CALL, confidence: -0.2 })).toContain('field "confidence"');
    expect(refused({ ...DRAGON_CALL, turn: -4 })).toContain('field "turn"');
    const game = {
      v: 1,
      kind: 'game',
      check: 'dragon',
      model: 'm:1b',
      digest: null,
      key: '7',
      game: 7,
      prompt_sha256: 'p'.repeat(64),
      result: 'won',
      capped: false,
      turns: 12,
      decisions: 12,
      cells_visited: 9,
      treasure_found: true,
      wounds: 0,
      fingerprint: 'f'.repeat(64),
    };
    expect(() => parseSampleLog(line(game), 'samples.jsonl')).not.toThrow();
    for (const field of ['turns', 'decisions', 'cells_visited', 'wounds']) {
      expect(refused({ ...game, [field]: -1 })).toContain(`field "${field}"`);
    }
  });

  it('zero and ordinary values are still read', () => {
    const text = line(churnRecord('q1', { latency_ms: 0, attempts: 1, prompt_tokens: 0 }));
    expect(parseSampleLog(text, 'samples.jsonl').records).toHaveLength(1);
    const dragon =
      line({ ...DRAGON_CALL, confidence: 0 }) +
      line({ ...DRAGON_CALL, key: '7#1', decision: 1, confidence: 1 });
    expect(parseSampleLog(dragon, 'samples.jsonl').records).toHaveLength(2);
  });

  it('analyze exits 2 on a log with a negative latency; "-9995 ms" reaches no summary', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-log-numbers-'));
    const log = path.join(dir, 'samples.jsonl');
    writeFileSync(log, line(churnRecord('q1')) + line(churnRecord('q2', { latency_ms: -9995 })));
    const run = await cli([
      'analyze',
      '--log',
      log,
      '--config',
      'fixtures/demo/model-gate.yml',
      '--out',
      path.join(dir, 'out'),
    ]);
    expect(run.code).toBe(ExitCode.badInput);
    expect(run.stderr).toContain(
      `${log}:2: field "latency_ms": expected a duration in milliseconds, 0 or more, got -9995`,
    );
  });
});

describe('token counts a server reports', () => {
  it('are kept only when they are whole numbers, 0 or more', () => {
    expect(countOrNull(12)).toBe(12);
    expect(countOrNull(0)).toBe(0);
    for (const bad of [
      -5,
      2.5,
      Number.POSITIVE_INFINITY,
      Number.NaN,
      '12',
      null,
      undefined,
      2 ** 60,
    ]) {
      expect(countOrNull(bad), String(bad)).toBeNull();
    }
  });
});
