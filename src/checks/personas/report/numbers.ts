/** The personas check's numbers in report.json's headline, the action's outputs and the history. */
import { z } from 'zod';
import { field, finiteOrNull, shareOrNull } from '../../../render/json.js';
import { percent } from '../../../text/format.js';
import type { CheckOutput, HeadlineFields } from '../../headline.js';
import { finiteNumber, type NightlyFields } from '../../nightly.js';

/** The personas check's numbers in report.json's headline. */
export type PersonasHeadline = {
  /** Attribution accuracy of the candidate (of the baseline in single-model mode). */
  personaAccuracy: number | null;
};

/** The personas check's numbers on a night of the history. */
type PersonasNight = {
  personaAccuracy: number | null;
};

/** The models of a section, by role. */
function modelOf(section: unknown, role: string): unknown {
  const models = field(section, 'models');
  return Array.isArray(models) ? models.find((m) => field(m, 'role') === role) : undefined;
}

export const personasHeadline: HeadlineFields<PersonasHeadline> = {
  schema: { personaAccuracy: z.number().min(0).max(1).nullable() },
  empty: { personaAccuracy: null },
  read: (section) => ({
    personaAccuracy: shareOrNull(
      field(modelOf(section, 'candidate') ?? modelOf(section, 'baseline'), 'accuracy'),
    ),
  }),
};

export const personasOutputs: readonly CheckOutput<PersonasHeadline>[] = [
  {
    name: 'persona-accuracy',
    description:
      'Leave-one-out attribution accuracy of the candidate (or the single model), 0–1 rounded to 4 decimal places; empty when personas did not run',
    value: (h) => h.personaAccuracy,
  },
];

export const personasNightly: NightlyFields<PersonasNight> = {
  column: 1,
  schema: { personaAccuracy: finiteNumber.nullable() },
  empty: { personaAccuracy: null },
  columns: [{ header: 'personas', cell: (v) => percent(v.personaAccuracy) }],
  // Single-model: the baseline is the model.
  read: (section) => ({
    personaAccuracy: finiteOrNull(field(modelOf(section, 'baseline'), 'accuracy')),
  }),
};
