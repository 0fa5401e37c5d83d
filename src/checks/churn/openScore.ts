/**
 * An open answer into its record: the text kept verbatim (bounded to 8 kB, the cut recorded),
 * graded by the item's grader. Only an empty answer is `invalid`; any other text is an answer
 * the grader decides, malformed ones included (a broken JSON answer is a wrong answer).
 */
import type { ChurnCallRecord } from '../../sampleLog/index.js';
import type { OpenItem } from './openItems.js';

/** Most UTF-8 bytes of an answer the sample log keeps. */
export const TEXT_LIMIT_BYTES = 8192;

/** The text cut to `limit` UTF-8 bytes on a character boundary, and whether it was cut. */
export function boundText(text: string, limit = TEXT_LIMIT_BYTES): { text: string; bytes: number } {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= limit) return { text, bytes };
  const buffer = Buffer.from(text, 'utf8');
  let end = limit;
  // Back up over continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && ((buffer[end] as number) & 0xc0) === 0x80) end--;
  return { text: buffer.subarray(0, end).toString('utf8'), bytes };
}

export function fillOpenAnswer(
  record: ChurnCallRecord,
  content: string,
  doneReason: string | null,
  item: OpenItem,
): void {
  const kept = boundText(content);
  record.text = kept.text;
  if (kept.text.length < content.length) {
    record.text_truncated = true;
    record.text_bytes = kept.bytes;
  }
  if (content.trim() === '') {
    record.status = 'invalid';
    record.reason =
      doneReason === 'length'
        ? `empty answer: the token budget ran out (done_reason length, max-tokens ${item.maxTokens}); with thinking on, reasoning may have used it all`
        : 'empty answer';
    return;
  }
  // The whole answer is graded here; the analysis grades the logged text again.
  const grade = item.grader.grade(content);
  record.answer = grade.reading;
  record.correct = grade.correct;
  record.grader = item.grader.fingerprint;
  if (grade.offLabel) record.off_label = true;
}
