/**
 * The headline numbers (action outputs), each check filling its own from its section. A
 * report read back from disk may come from another build: every check reads its section
 * defensively, so a missing or malformed value gives null, never a crash.
 */
import { EMPTY_HEADLINE, type ReportHeadline } from '../checks/headline.js';
import { allChecks, sectionOf } from '../checks/registry.js';
import type { Report } from './types.js';

export function extractHeadline(checks: Report['checks']): ReportHeadline {
  const headline = { ...EMPTY_HEADLINE };
  for (const check of allChecks()) {
    Object.assign(headline, check.report.headline(sectionOf(checks, check.name)));
  }
  return headline;
}
