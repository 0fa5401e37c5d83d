/** The dragon check's numbers in report.json's headline, the action's outputs and the history. */
import { z } from 'zod';
import { field, finiteOrNull, shareOrNull } from '../../../render/json.js';
import { interval, num, percent } from '../../../text/format.js';
import type { CheckOutput, HeadlineFields } from '../../headline.js';
import { estimateSchema, finiteNumber, type NightlyFields } from '../../nightly.js';

/** The dragon check's numbers in report.json's headline. */
export type DragonHeadline = {
  /** Expected calibration error of each model. */
  eceBaseline: number | null;
  eceCandidate: number | null;
};

/** The dragon check's numbers on a night of the history. */
export type DragonNight = {
  /** ECE with its 95% cluster-bootstrap interval over games. */
  ece: { value: number; low: number; high: number } | null;
  brier: number | null;
  /** Share of moves into a wall the model had already been told about. */
  knownWallRate: number | null;
};

const share = z.number().min(0).max(1);

export const dragonHeadline: HeadlineFields<DragonHeadline> = {
  schema: { eceBaseline: share.nullable(), eceCandidate: share.nullable() },
  empty: { eceBaseline: null, eceCandidate: null },
  read: (section) => ({
    eceBaseline: shareOrNull(field(section, 'baseline', 'ece', 'value')),
    eceCandidate: shareOrNull(field(section, 'candidate', 'ece', 'value')),
  }),
};

export const dragonOutputs: readonly CheckOutput<DragonHeadline>[] = [
  {
    name: 'ece-baseline',
    description:
      'Expected calibration error of the baseline (dragon), rounded to 4 decimal places; empty when dragon did not run',
    value: (h) => h.eceBaseline,
  },
  {
    name: 'ece-candidate',
    description:
      'Expected calibration error of the candidate (dragon), rounded to 4 decimal places; empty when dragon did not run or there is no candidate',
    value: (h) => h.eceCandidate,
  },
];

function estimateOf(value: unknown): { value: number; low: number; high: number } | null {
  const v = finiteOrNull(field(value, 'value'));
  const low = finiteOrNull(field(value, 'low'));
  const high = finiteOrNull(field(value, 'high'));
  return v === null || low === null || high === null ? null : { value: v, low, high };
}

/** The night's calibration numbers: single-model, so the baseline is the model. */
export const dragonNightly: NightlyFields<DragonNight> = {
  column: 0,
  schema: {
    ece: estimateSchema.nullable(),
    brier: finiteNumber.nullable(),
    knownWallRate: finiteNumber.nullable(),
  },
  empty: { ece: null, brier: null, knownWallRate: null },
  columns: [
    {
      header: 'ECE [95% CI]',
      cell: ({ ece }) => (ece ? `${num(ece.value)} ${interval(ece.low, ece.high)}` : '–'),
    },
    { header: 'Brier', cell: (v) => num(v.brier) },
    { header: 'known-wall', cell: (v) => percent(v.knownWallRate) },
  ],
  read: (section) => {
    const model = field(section, 'baseline');
    return {
      ece: estimateOf(field(model, 'ece')),
      brier: finiteOrNull(field(model, 'brier')),
      knownWallRate: finiteOrNull(field(model, 'knownWallRepeatRate')),
    };
  },
};
