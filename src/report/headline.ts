/**
 * The headline numbers (action outputs), each check filling its own from its section. A
 * report read back from disk may come from another build: every check reads its section
 * defensively, so a missing or malformed value gives null, never a crash.
 */
import type { ReportHeadline } from '../checks/headline.js';
import { headlineOf } from '../checks/registry.js';
import type { Report } from './types.js';

export function extractHeadline(checks: Report['checks']): ReportHeadline {
  return headlineOf(checks);
}
