/**
 * Grading in the analysis: logged open answers are graded again from their text by the current
 * grader; a text cut at 8 kB keeps the run's grade while its grader is unchanged; a record
 * without text keeps its logged grade; multiple-choice records pass untouched.
 */
import { describe, expect, it } from 'vitest';
import { parseItems } from '../../../src/checks/churn/items.js';
import type { OpenItem } from '../../../src/checks/churn/openItems.js';
import { gradeOpenAnswers, openGradingWarnings } from '../../../src/checks/churn/openGrading.js';
import {
  boundText,
  fillOpenAnswer,
  TEXT_LIMIT_BYTES,
} from '../../../src/checks/churn/openScore.js';
import type { ChurnCallRecord } from '../../../src/sampleLog/index.js';

function item(grader: unknown): OpenItem {
  const text = JSON.stringify([{ id: 'q', prompt: 'Total?', expected: 40, grader }]);
  return parseItems(text, 'items.json').items[0] as OpenItem;
}

function record(overrides: Partial<ChurnCallRecord>): ChurnCallRecord {
  return {
    v: 1,
    kind: 'call',
    check: 'churn',
    model: 'm',
    digest: null,
    key: 'q#0',
    sample: 0,
    options: { temperature: 0.7, seed: 1000, num_ctx: 4096, num_predict: 256, think: false },
    prompt_sha256: 'h',
    status: 'ok',
    latency_ms: 1,
    attempts: 1,
    item: 'q',
    domain: 'general',
    mode: 'stochastic',
    answer: null,
    correct: null,
    ...overrides,
  };
}

describe('boundText', () => {
  it('keeps 8 kB, cut on a character boundary', () => {
    expect(boundText('abc')).toEqual({ text: 'abc', bytes: 3 });
    const long = `${'a'.repeat(TEXT_LIMIT_BYTES - 1)}é and more`;
    const cut = boundText(long);
    // "é" is 2 bytes: it would end at byte 8193, so the cut falls before it.
    expect(cut.text).toBe('a'.repeat(TEXT_LIMIT_BYTES - 1));
    expect(cut.bytes).toBe(Buffer.byteLength(long));
  });
});

describe('fillOpenAnswer and gradeOpenAnswers', () => {
  const strict = item('number');
  const loose = item({ type: 'number', tolerance: 5 });

  it('logs the text, the reading, the grade and the fingerprint; an empty answer is invalid', () => {
    const r = record({});
    fillOpenAnswer(r, 'The total is 42.', 'stop', strict);
    expect(r).toMatchObject({
      text: 'The total is 42.',
      answer: '42',
      correct: false,
      grader: strict.grader.fingerprint,
    });
    const empty = record({});
    fillOpenAnswer(empty, '  ', 'length', strict);
    expect(empty.status).toBe('invalid');
    expect(empty.reason).toMatch(/^empty answer: the token budget ran out/);
  });

  it('grades the logged text with the current grader, counting what changed', () => {
    const logged = record({});
    fillOpenAnswer(logged, 'The total is 42.', 'stop', strict);
    const choice = { ...record({ item: 'mc', key: 'mc#0', answer: 'B', correct: true }) };
    const { records, counts } = gradeOpenAnswers([logged, choice], [loose]);
    expect(records[0]).toMatchObject({ correct: true, grader: loose.grader.fingerprint });
    expect(records[1]).toBe(choice);
    expect(counts).toEqual({ graded: 1, otherGrader: 1, changed: 1, withoutText: 0, truncated: 0 });
    // With no open item at all, the records are handed back as they are.
    expect(gradeOpenAnswers([choice], []).records).toEqual([choice]);
  });

  it('a cut text keeps the run grade under the same grader; a changed grader grades the prefix', () => {
    const answer = `${'x'.repeat(TEXT_LIMIT_BYTES)} the total is 40`;
    const logged = record({});
    fillOpenAnswer(logged, answer, 'stop', strict);
    expect(logged).toMatchObject({
      correct: true,
      text_truncated: true,
      text_bytes: answer.length,
    });
    expect(gradeOpenAnswers([logged], [strict]).records[0]).toBe(logged);
    const regraded = gradeOpenAnswers([logged], [loose]);
    expect(regraded.records[0]).toMatchObject({ correct: false, grader: loose.grader.fingerprint });
    expect(openGradingWarnings(regraded.counts)).toEqual([
      '1 answers of open items were longer than the 8 kB the log keeps and were graded by the changed grader from their first 8 kB',
    ]);
    const bare = record({ answer: '40', correct: true });
    const kept = gradeOpenAnswers([bare], [loose]);
    expect(kept.records[0]).toBe(bare);
    expect(kept.counts.withoutText).toBe(1);
  });
});
