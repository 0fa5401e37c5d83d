/**
 * The headline numbers (action outputs), each check filling its own from its section. A
 * report read back from disk may come from another build: every check reads its section
 * defensively, so a missing or malformed value gives null, never a crash.
 */
import type { ReportHeadline } from '../checks/headline.js';
import { type CheckList, headlineOf } from '../checks/list.js';
import type { Report } from './types.js';

export function extractHeadline(sections: Report['checks'], checks: CheckList): ReportHeadline {
  return headlineOf(checks, sections);
}
