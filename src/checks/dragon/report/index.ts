/** The dragon check's parts of the report, read from its section alone. */
import { num, seedRanges } from '../../../text/format.js';
import { field, finiteOrNull, shareOrNull } from '../../../render/json.js';
import type { NightlyValues } from '../../nightly.js';
import type { CheckReport } from '../../types.js';
import type { DragonSection } from '../section.js';
import { dragonCharts } from './charts.js';
import { dragonGlanceChart } from './glance.js';
import { renderDragonSection } from './markdown.js';

function estimateOf(value: unknown): NightlyValues['ece'] {
  const v = finiteOrNull(field(value, 'value'));
  const low = finiteOrNull(field(value, 'low'));
  const high = finiteOrNull(field(value, 'high'));
  return v === null || low === null || high === null ? null : { value: v, low, high };
}

/** The night's calibration numbers: single-model, so the baseline is the model. */
function dragonNightly(section: unknown): Partial<NightlyValues> {
  const model = field(section, 'baseline');
  return {
    ece: estimateOf(field(model, 'ece')),
    brier: finiteOrNull(field(model, 'brier')),
    knownWallRate: finiteOrNull(field(model, 'knownWallRepeatRate')),
  };
}

export const dragonReport: CheckReport<DragonSection> = {
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
  headline: (section) => ({
    eceBaseline: shareOrNull(field(section, 'baseline', 'ece', 'value')),
    eceCandidate: shareOrNull(field(section, 'candidate', 'ece', 'value')),
  }),
  settings: (config) => [
    ['dragon games (seeds)', seedRanges(config.dragon.seeds)],
    ['dragon sampling seed', String(config.dragon.seed)],
    ['dragon walls / hints', `${config.dragon.walls} / ${config.dragon.hints}`],
  ],
  nightly: dragonNightly,
};
