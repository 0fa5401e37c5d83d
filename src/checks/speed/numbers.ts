/** The speed check's numbers in report.json's headline and the action's outputs. */
import { z } from 'zod';
import { field, finiteOrNull } from '../../render/json.js';
import type { CheckOutput, HeadlineFields } from '../headline.js';

/** Candidate ÷ baseline ratios; absent from the headline of a run without the check. */
export type SpeedHeadline = {
  decodeRatio?: number | null;
  verbosityRatio?: number | null;
};

const ratioOf = (section: unknown, figure: string): number | null =>
  finiteOrNull(field(field(field(section, 'comparison'), figure), 'ratio'));

const ratio = z.number().positive().nullable().optional();

export const speedHeadline: HeadlineFields<SpeedHeadline> = {
  schema: { decodeRatio: ratio, verbosityRatio: ratio },
  // A run without the check has no speed numbers at all: its report reads as before the check.
  empty: {},
  read: (section) =>
    section === undefined
      ? {}
      : { decodeRatio: ratioOf(section, 'decode'), verbosityRatio: ratioOf(section, 'verbosity') },
};

export const speedOutputs: readonly CheckOutput<SpeedHeadline>[] = [
  {
    name: 'decode-ratio',
    description:
      'Candidate ÷ baseline decode time per token (speed; above 1 is slower), the median over paired items rounded to 4 decimal places; empty when speed did not run or there is no candidate',
    value: (h) => h.decodeRatio ?? null,
  },
  {
    name: 'verbosity-ratio',
    description:
      'Candidate ÷ baseline output tokens per answer (speed), the median over paired items rounded to 4 decimal places; empty when speed did not run or there is no candidate',
    value: (h) => h.verbosityRatio ?? null,
  },
];
