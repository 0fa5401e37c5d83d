/** The dragon check's parts of the report, read from its section alone. */
import { num, seedRanges } from '../../../text/format.js';
import type { CheckReport } from '../../types.js';
import type { DragonConfig } from '../settings.js';
import type { DragonHeadline } from './numbers.js';
import type { DragonSection } from '../section.js';
import { dragonCharts } from './charts.js';
import { dragonGlanceChart } from './glance.js';
import { renderDragonSection } from './markdown.js';

export const dragonReport: CheckReport<DragonSection, DragonConfig, DragonHeadline> = {
  section: renderDragonSection,
  charts: dragonCharts,
  glanceChart: (section) => dragonGlanceChart(section),
  // A single-model run has no baseline to speak of: its one series is "the model".
  glance: (_section, { headline, hasCandidate }) =>
    hasCandidate
      ? [
          ['ECE baseline', num(headline.eceBaseline)],
          ['ECE candidate', num(headline.eceCandidate)],
        ]
      : [['ECE', num(headline.eceBaseline)]],
  settings: (config) => [
    ['dragon games (seeds)', seedRanges(config.dragon.seeds)],
    ['dragon sampling seed', String(config.dragon.seed)],
    ['dragon walls / hints', `${config.dragon.walls} / ${config.dragon.hints}`],
  ],
};
