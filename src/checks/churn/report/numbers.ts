/** The churn check's numbers in report.json's headline, the action's outputs and the history. */
import { z } from 'zod';
import { countOrNull, field, finiteOrNull, shareOrNull } from '../../../render/json.js';
import { neutralise } from '../../../text/neutralise.js';
import { percent } from '../../../text/format.js';
import type { CheckOutput, HeadlineFields } from '../../headline.js';
import { finiteNumber, type NightlyFields } from '../../nightly.js';

/** The churn check's numbers in report.json's headline. */
export type ChurnHeadline = {
  /** (reliably improved + reliably deteriorated) / items, by the gate's method. */
  churnRate: number | null;
  /** Items reliably worse on the candidate, by the gate's method. */
  deteriorated: number | null;
  /** Domains whose net reliable change opposes the aggregate Δ. */
  reversals: string[];
};

/** The churn check's numbers on a night of the history. */
type ChurnNight = {
  /** Mean accuracy over items, when churn ran. */
  churnAccuracy: number | null;
};

/**
 * The gate's method (`section.method`: fisher-bh = method B, rci = method A, effect = the
 * logprobs estimator's items beyond min-effect) decides the counts.
 */
function readHeadline(section: unknown): ChurnHeadline {
  const method = field(section, 'method');
  const gateMethod =
    method === 'fisher-bh' || method === 'rci' || method === 'effect'
      ? field(section, 'comparison', method === 'fisher-bh' ? 'fisherBh' : method)
      : undefined;
  const reversals = field(section, 'comparison', 'reversals');
  return {
    churnRate: shareOrNull(field(gateMethod, 'churnRate')),
    deteriorated: countOrNull(field(gateMethod, 'deteriorated')),
    reversals: Array.isArray(reversals)
      ? reversals.filter((r): r is string => typeof r === 'string')
      : [],
  };
}

export const churnHeadline: HeadlineFields<ChurnHeadline> = {
  schema: {
    churnRate: z.number().min(0).max(1).nullable(),
    deteriorated: z.number().int().min(0).nullable(),
    reversals: z.array(z.string()),
  },
  empty: { churnRate: null, deteriorated: null, reversals: [] },
  read: readHeadline,
};

export const churnOutputs: readonly CheckOutput<ChurnHeadline>[] = [
  {
    name: 'churn-rate',
    description:
      'Share of items reliably changed by the gate method (with churn.estimator logprobs, changed by at least churn.min-effect), 0–1 rounded to 4 decimal places; empty when churn did not run',
    value: (h) => h.churnRate,
  },
  {
    name: 'deteriorated',
    description:
      'Items reliably worse by the gate method (the same count as churn-rate), an integer; empty when churn did not run',
    value: (h) => h.deteriorated,
  },
  {
    name: 'reversals',
    description:
      'Comma-separated domains that lost accuracy significantly while the overall change is significantly up (or gained while it is significantly down)',
    // A comma inside a domain name would split it: it is replaced for this list only. Domains
    // come from the item file: shown neutralised, as everywhere else.
    value: (h) => h.reversals.map((domain) => neutralise(domain, 200).replace(/,/g, ' ')).join(','),
  },
];

export const churnNightly: NightlyFields<ChurnNight> = {
  column: 2,
  schema: { churnAccuracy: finiteNumber.nullable() },
  empty: { churnAccuracy: null },
  columns: [{ header: 'churn', cell: (v) => percent(v.churnAccuracy) }],
  read: (section) => ({
    churnAccuracy: finiteOrNull(field(section, 'baseline', 'accuracy', 'mean')),
  }),
};
