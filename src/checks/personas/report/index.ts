/** The personas check's parts of the report, read from its section alone. */
import { percent } from '../../../text/format.js';
import { field, finiteOrNull, shareOrNull } from '../../../render/json.js';
import type { CheckReport } from '../../types.js';
import type { PersonasSection } from '../section.js';
import { personasCharts } from './charts.js';
import { renderPersonasSection } from './markdown.js';

/** Attribution accuracy of the candidate (of the baseline in single-model mode). */
function personaAccuracy(section: unknown): number | null {
  const models = field(section, 'models');
  if (!Array.isArray(models)) return null;
  const byRole = (role: string) => models.find((m) => field(m, 'role') === role);
  return shareOrNull(field(byRole('candidate') ?? byRole('baseline'), 'accuracy'));
}

export const personasReport: CheckReport<PersonasSection> = {
  section: renderPersonasSection,
  charts: personasCharts,
  glance: (_section, { headline }) => [
    ['persona attribution accuracy', percent(headline.personaAccuracy)],
  ],
  headline: (section) => ({ personaAccuracy: personaAccuracy(section) }),
  settings: (config) => [
    ['personas seed', String(config.personas.seed)],
    ['personas vectors', config.personas.vectors],
  ],
  // Single-model: the baseline is the model.
  nightly: (section) => {
    const models = field(section, 'models');
    const model = Array.isArray(models)
      ? models.find((m) => field(m, 'role') === 'baseline')
      : undefined;
    return { personaAccuracy: finiteOrNull(field(model, 'accuracy')) };
  },
};
