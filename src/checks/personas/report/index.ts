/** The personas check's parts of the report, read from its section alone. */
import { percent } from '../../../text/format.js';
import type { CheckReport } from '../../types.js';
import type { PersonasConfig } from '../settings.js';
import type { PersonasHeadline } from './numbers.js';
import type { PersonasSection } from '../section.js';
import { personasCharts } from './charts.js';
import { renderPersonasSection } from './markdown.js';

export const personasReport: CheckReport<PersonasSection, PersonasConfig, PersonasHeadline> = {
  section: renderPersonasSection,
  charts: personasCharts,
  glance: (_section, { headline }) => [
    ['persona attribution accuracy', percent(headline.personaAccuracy)],
  ],
  settings: (config) => [
    ['personas seed', String(config.personas.seed)],
    ['personas vectors', config.personas.vectors],
  ],
};
