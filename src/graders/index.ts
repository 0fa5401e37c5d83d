/**
 * The graders an item may name, one line each: a new grader is a file exporting its
 * `GraderKind` and its line here. The host reads them through this list alone.
 */
import { all } from './all.js';
import { contains } from './contains.js';
import { exact } from './exact.js';
import { graderHost } from './host.js';
import { json } from './json.js';
import { label } from './label.js';
import { module } from './module.js';
import { not } from './not.js';
import { number } from './number.js';
import { regex } from './regex.js';
import type { GraderKind } from './types.js';

export const GRADER_KINDS: readonly GraderKind[] = [
  exact,
  contains,
  regex,
  number,
  json,
  label,
  module,
  all,
  not,
];

export const graders = graderHost(GRADER_KINDS);
