/**
 * The job summary (GITHUB_STEP_SUMMARY) through `core.summary`. GitHub accepts at most 1 MiB
 * per step; anything already written in this step counts, so the report gets what is left.
 */
import { statSync } from 'node:fs';
import { truncate } from 'node:fs/promises';
import * as core from '@actions/core';
import { type MarkdownFor, markdownFor, SUMMARY_LIMIT } from '../report/fit.js';
import { trimMarkdown, utf8Size } from '../report/trim.js';
import { type ActionLog, coreLog } from './log.js';
import { scrubSecrets } from '../text/secrets.js';

export const JOB_SUMMARY_LIMIT = SUMMARY_LIMIT;

export interface JobSummaryResult {
  written: boolean;
  trimmed: boolean;
  bytes: number;
  /** Size of the step's summary before this write: where this write starts. */
  offset: number;
}

function alreadyWritten(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * Appends the report to the step's summary. `markdown`: the text, or a function that renders
 * it for the room left (the summary cuts its long lists to fit). `replacing`: the result of an
 * earlier write of this step, which this one replaces (the summary is cut back to where that
 * one started).
 */
export async function writeJobSummary(
  markdown: MarkdownFor,
  options: { fullReportNotice: string; log?: ActionLog; replacing?: JobSummaryResult },
): Promise<JobSummaryResult> {
  const log = options.log ?? coreLog;
  // core.summary reads the same variable: the check and the write agree on the file.
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) {
    log.info('No job summary: GITHUB_STEP_SUMMARY is not set (not running in GitHub Actions).');
    return { written: false, trimmed: false, bytes: 0, offset: 0 };
  }
  if (options.replacing?.written) await truncate(file, options.replacing.offset);
  const offset = alreadyWritten(file);
  // core.summary ends the text with a newline of its own: it counts too.
  const room = JOB_SUMMARY_LIMIT - offset - 1;
  const scrubbed = scrubSecrets(markdownFor(markdown, room));
  const text = trimMarkdown(scrubbed, room, options.fullReportNotice);
  const trimmed = text !== scrubbed;
  if (trimmed)
    log.warning(`The job summary was cut to fit GitHub's 1 MiB limit (${room} bytes left).`);
  await core.summary.emptyBuffer().addRaw(text, true).write();
  return { written: true, trimmed, bytes: utf8Size(text), offset };
}
