/**
 * The sample log protects what it is given: a file that is not a sample log is refused
 * untouched, only its own cut-short record is ever removed, one run writes a log at a time,
 * and a record without its check's fields is bad input naming the line.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { InfrastructureError, InputError } from '../../src/errors.js';
import {
  lockPathOf,
  lockSampleLog,
  openSampleLog,
  parseSampleLog,
  readSampleLogs,
} from '../../src/sampleLog/index.js';
import { tempLog } from '../runner/simulated.js';
import { churnRecord } from './records.js';

const churn = churnRecord;

const line = (value: unknown): string => `${JSON.stringify(value)}\n`;

function thrown(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

describe('a file that is not a sample log', () => {
  it('is refused untouched when it is one line without a final newline', async () => {
    const file = tempLog().replace('samples.jsonl', 't.txt');
    writeFileSync(file, 'ghp_only_copy');
    const error = thrown(() => openSampleLog(file));
    expect(error).toBeInstanceOf(InputError);
    expect(error.message).toBe(
      `${file}: not a sample log (its first line is not a sample-log record); it was left untouched`,
    );
    expect(readFileSync(file, 'utf8')).toBe('ghp_only_copy');
    await expect(readSampleLogs([file])).rejects.toThrow(
      `${file}:1: not a sample log (its first line is not a JSON record)`,
    );
  });

  it('is refused when its first line is JSON of another kind, or text', () => {
    const file = tempLog();
    writeFileSync(file, `${line({ name: 'package' })}${line(churn('q1'))}`);
    expect(() => openSampleLog(file)).toThrow(
      /not a sample log \(line 1: sample log schema version undefined/,
    );
    writeFileSync(file, 'KEY=secret\nOTHER=1\n');
    expect(() => openSampleLog(file)).toThrow(/not a sample log \(its first line is not JSON\)/);
    expect(readFileSync(file, 'utf8')).toBe('KEY=secret\nOTHER=1\n');
  });

  it('keeps a log whose last bytes are not a record cut short', () => {
    const file = tempLog();
    const text = `${line(churn('q1'))}appended by hand`;
    writeFileSync(file, text);
    expect(() => openSampleLog(file)).toThrow(/ends with 16 bytes that are not a record cut short/);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('still opens a log whose only line was cut short by a kill', () => {
    const file = tempLog();
    writeFileSync(file, '{"v":1,"kind":"ru');
    const { writer, warnings } = openSampleLog(file);
    writer.close();
    expect(warnings).toEqual([
      expect.stringMatching(/removed an incomplete last line \(17 bytes\)/),
    ]);
    expect(readFileSync(file, 'utf8')).toBe('');
  });
});

describe('records without their check fields', () => {
  it('are bad input naming file and line', () => {
    const { correct: _c, ...noCorrect } = churn('q2');
    const { item: _i, ...noItem } = churn('q3');
    const ok = line(churn('q1'));
    expect(() => parseSampleLog(`${ok}${line(noCorrect)}`, 'run/samples.jsonl')).toThrow(
      /^run\/samples\.jsonl:2: field "correct": /,
    );
    expect(() => parseSampleLog(`${ok}${ok}${line(noItem)}`, 'run/samples.jsonl')).toThrow(
      /^run\/samples\.jsonl:3: field "item": /,
    );
    // An ok answer without its letter measured nothing.
    const nullCorrect = line(churn('q4', { correct: null }));
    expect(() => parseSampleLog(nullCorrect, 'a.jsonl')).toThrow(
      /^a\.jsonl:1: a churn record with status "ok" must carry its answer: field "correct"/,
    );
    // A timeout has no answer, and needs none.
    const timeout = line(churn('q5', { status: 'timeout', answer: null, correct: null }));
    expect(parseSampleLog(timeout, 'a.jsonl').records).toHaveLength(1);
    const dragon = line({
      ...churn('x'),
      check: 'dragon',
      game: 1,
      decision: 0,
      turn: 0,
      move: 'up',
      confidence: null,
      outcome: 'moved',
    });
    expect(() => parseSampleLog(dragon, 'b.jsonl')).toThrow(
      /^b\.jsonl:1: a dragon record with status "ok" must carry its answer: field "confidence"/,
    );
  });
});

describe('one run per sample log', () => {
  it('stops a second run with a message naming the log and the process', () => {
    const log = tempLog();
    const first = lockSampleLog(log);
    expect(first.warning).toBeNull();
    const error = thrown(() => lockSampleLog(log));
    expect(error).toBeInstanceOf(InfrastructureError);
    expect(error.message).toBe(
      `${log}: another model-gate run (process ${process.pid}) is writing this sample log`,
    );
    first.release();
    expect(existsSync(lockPathOf(log))).toBe(false);
    lockSampleLog(log).release();
  });

  it('takes over the lock of a process that no longer runs, and says so', () => {
    const log = tempLog();
    const gone = spawnSync(process.execPath, ['-e', '']).pid as number;
    writeFileSync(lockPathOf(log), JSON.stringify({ pid: gone, host: hostname() }));
    const lock = lockSampleLog(log);
    expect(lock.warning).toBe(
      `${log}: took over the lock of process ${gone}, which no longer runs (a run that was killed)`,
    );
    expect(JSON.parse(readFileSync(lockPathOf(log), 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(lockPathOf(log))).toBe(false);
  });
});
