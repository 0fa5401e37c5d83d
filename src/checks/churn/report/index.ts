/** The churn check's parts of the report, read from its section alone. */
import { escapeText } from '../../../render/markdown.js';
import { num, percent } from '../../../text/format.js';
import type { CheckReport } from '../../types.js';
import type { ChurnConfig } from '../settings.js';
import type { ChurnHeadline } from './numbers.js';
import type { ChurnSection } from '../section.js';
import {
  type ChurnSettings,
  fixedSamples,
  type SamplingChoice,
  samplingChoice,
  samplingOf,
} from '../settings.js';
import { churnCharts } from './charts.js';
import { churnGlanceChart } from './glance.js';
import { renderChurnSection } from './markdown.js';

function glanceRows(section: ChurnSection, headline: ChurnHeadline, minEffect: number): string[][] {
  // The logprobs estimator counts items beyond an effect size; sampled, significant changes.
  const logprobs = section.estimator === 'logprobs';
  const changed = logprobs ? `changed by ≥ ${minEffect}` : 'reliably changed';
  // Every domain that lost accuracy, not only reversals: a domain can fall 30 points while
  // the overall change is too small to be called a rise.
  const lost = section.comparison?.domains?.filter((d) => d.loss === true) ?? [];
  const lostText =
    lost.length === 0
      ? 'none'
      : lost
          .map((d) => {
            const fell = `${num((d.delta ?? 0) * 100, 1)} pts`;
            return `${escapeText(d.domain)} (${fell}${d.reversal ? ', reversal' : ''})`;
          })
          .join(', ');
  return [
    [`churn rate (items ${changed})`, percent(headline.churnRate)],
    [
      logprobs ? `items worse by ≥ ${minEffect}` : 'items reliably worse',
      headline.deteriorated === null ? '–' : String(headline.deteriorated),
    ],
    ['domains that lost accuracy', lostText],
  ];
}

/** Why sampling is fixed, said beside K: adaptive sampling is the default otherwise. */
const FIXED_BECAUSE: Record<SamplingChoice, string> = {
  set: ' (sampling: fixed)',
  samples: ' (samples is set)',
  estimator: '',
  method: ' (method: rci assumes one K for every item; adaptive sampling is the default otherwise)',
  default: '',
};

function settingsRows(settings: ChurnSettings): string[][] {
  if (settings.estimator === 'logprobs') {
    return [
      [
        'churn estimator',
        'logprobs (letter probabilities, one evaluation per item: no sampling, adaptive or fixed)',
      ],
      ['churn temperature of p(correct)', String(settings.temperature)],
      ['churn change threshold |Δp|', String(settings.minEffect)],
    ];
  }
  const adaptive = samplingOf(settings) === 'adaptive';
  const k = adaptive ? settings.samplesMax : fixedSamples(settings);
  const lastSeed = settings.baseSeed + k - 1;
  return [
    adaptive
      ? [
          'churn sampling',
          `adaptive, ${settings.samplesFirst} + ${settings.samplesStep} up to ${settings.samplesMax} per item`,
        ]
      : ['churn sampling', `fixed, K = ${k} per item${FIXED_BECAUSE[samplingChoice(settings)]}`],
    ['churn temperature', String(settings.temperature)],
    [
      'churn seeds',
      `${settings.baseSeed}–${lastSeed}${settings.greedy ? `, greedy ${settings.greedySeed}` : ''}`,
    ],
    [
      'churn gate method',
      settings.method === 'fisher-bh'
        ? 'Fisher exact test + Benjamini–Hochberg (method: fisher-bh)'
        : 'Reliable Change Index (method: rci)',
    ],
  ];
}

export const churnReport: CheckReport<ChurnSection, ChurnConfig, ChurnHeadline> = {
  section: renderChurnSection,
  charts: churnCharts,
  glanceChart: churnGlanceChart,
  glance: (section, { headline, config }) => glanceRows(section, headline, config.churn.minEffect),
  settings: (config) => settingsRows(config.churn),
};
