/**
 * The analysis grades open answers itself: every logged answer of an open item is graded again
 * from its logged text with the grader of the current items file, so a changed grader gives a
 * new verdict from the same log with no request. The record's `correct` as logged (the grade
 * the run saw) is left to adaptive sampling, whose stopping rule was applied to it; the tests
 * count the current grade. Pure: records and items in, records and counts out.
 *
 * A text the log cut at 8 kB is graded from its first 8 kB only when the grader changed since;
 * with the grader unchanged, the grade of the whole answer, logged at run time, stands.
 */
import type { SampleRecord } from '../../sampleLog/index.js';
import type { ChurnItem } from './items.js';
import type { OpenItem } from './openItems.js';
import { type ChurnCallRecord, isChurnCall } from './records.js';

export interface OpenAnswerCounts {
  /** Answers of open items graded from their logged text. */
  graded: number;
  /** Of those, answers the run had graded with another grader (changed since). */
  otherGrader: number;
  /** Of those, answers whose verdict (right or wrong) differs from the logged one. */
  changed: number;
  /** Answers without a logged text: their logged grade is kept. */
  withoutText: number;
  /** Answers whose text was cut at 8 kB and graded from that part (grader changed since). */
  truncated: number;
}

export interface OpenGrading {
  records: readonly SampleRecord[];
  counts: OpenAnswerCounts;
}

export function emptyOpenCounts(): OpenAnswerCounts {
  return { graded: 0, otherGrader: 0, changed: 0, withoutText: 0, truncated: 0 };
}

export function gradeOpenAnswers(
  records: readonly SampleRecord[],
  items: readonly ChurnItem[],
): OpenGrading {
  const counts = emptyOpenCounts();
  const regrade = openRegrader(items, counts);
  if (!regrade) return { records, counts };
  return { records: records.map(regrade), counts };
}

/**
 * One record at a time, as gradeOpenAnswers grades a list (counting into `counts`); null when
 * no item is open.
 */
export function openRegrader(
  items: readonly ChurnItem[],
  counts: OpenAnswerCounts = emptyOpenCounts(),
): ((record: SampleRecord) => SampleRecord) | null {
  const open = new Map<string, OpenItem>();
  for (const item of items) if (item.kind === 'open') open.set(item.id, item);
  if (open.size === 0) return null;
  return (record) => {
    const item = isChurnCall(record) ? open.get(record.item) : undefined;
    return item ? regraded(record as ChurnCallRecord, item, counts) : record;
  };
}

function regraded(
  record: ChurnCallRecord,
  item: OpenItem,
  counts: OpenAnswerCounts,
): ChurnCallRecord {
  if (record.status !== 'ok' || record.mode === 'exact') return record;
  if (record.text === undefined) {
    counts.withoutText++;
    return record;
  }
  const fingerprint = item.grader.fingerprint;
  if (record.text_truncated === true && record.grader === fingerprint) return record;
  const grade = item.grader.grade(record.text);
  counts.graded++;
  if (record.text_truncated === true) counts.truncated++;
  if (record.grader !== fingerprint) counts.otherGrader++;
  if (grade.correct !== record.correct) counts.changed++;
  const { off_label: _logged, ...rest } = record;
  return {
    ...rest,
    answer: grade.reading,
    correct: grade.correct,
    grader: fingerprint,
    ...(grade.offLabel ? { off_label: true } : {}),
  };
}

/** Warnings about answers the current grader could not grade from the whole text. */
export function openGradingWarnings(counts: OpenAnswerCounts): string[] {
  const warnings: string[] = [];
  if (counts.withoutText > 0) {
    warnings.push(
      `${counts.withoutText} answers of open items have no logged text: their logged grade is kept, whatever the current grader would say`,
    );
  }
  if (counts.truncated > 0) {
    warnings.push(
      `${counts.truncated} answers of open items were longer than the 8 kB the log keeps and were graded by the changed grader from their first 8 kB`,
    );
  }
  return warnings;
}
