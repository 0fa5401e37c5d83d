/**
 * The churn check's parts of the report, read from its section alone: the summary's "at a
 * glance" rows and chart (mermaid, drawn by GitHub in the job summary and the PR comment; the
 * section is read defensively there, a chart that lacks its data left out), its settings rows.
 */

import { field, finiteOrNull, listOf } from '../../../render/json.js';
import { escapeText } from '../../../render/markdown.js';
import { xyChart } from '../../../render/mermaid.js';
import { BETTER, WORSE } from '../../../render/palette.js';
import { num, percent } from '../../../text/format.js';
import type { CheckReport } from '../../types.js';
import type { ChurnSection } from '../section.js';
import {
  type ChurnConfig,
  type ChurnSettings,
  fixedSamples,
  type SamplingChoice,
  samplingChoice,
  samplingOf,
} from '../settings.js';
import { churnCharts } from './charts.js';
import { renderChurnSection } from './markdown.js';
import type { ChurnHeadline } from './numbers.js';

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

/** More domains than this make an unreadable inline chart (two bars each); the tables have them all. */
const MAX_DOMAINS = 12;

/**
 * Where the candidate got reliably worse or better, by domain (mermaid, inline). Domains have
 * no order, so both counts are bars, never a line across them; each domain has two slots,
 * "worse" then "better", with one series holding a count in each (mermaid draws bars of two
 * series at one category on top of each other, so they never share a slot).
 */
export function churnGlanceChart(section: ChurnSection, config: ChurnConfig): string | null {
  const domains = listOf(field(section, 'comparison', 'domains'));
  const rows = domains
    .map((d) => ({
      domain: String(field(d, 'domain') ?? '?'),
      improved: finiteOrNull(field(d, 'improved')),
      deteriorated: finiteOrNull(field(d, 'deteriorated')),
    }))
    .filter(
      (r): r is { domain: string; improved: number; deteriorated: number } =>
        r.improved !== null && r.deteriorated !== null,
    );
  if (rows.length < 2 || rows.length > MAX_DOMAINS) return null;
  if (rows.every((r) => r.improved === 0 && r.deteriorated === 0)) return null;
  const logprobs = section.estimator === 'logprobs';
  const changed = logprobs ? `by |Δp| ≥ ${config.churn.minEffect}` : 'reliably';
  return xyChart({
    title: `Items ${changed} worse and better, by domain`,
    categories: rows.flatMap((r) => [`${r.domain} worse`, `${r.domain} better`]),
    yLabel: 'items',
    series: [
      {
        name: `items ${changed} worse`,
        kind: 'bar',
        colour: WORSE,
        values: rows.flatMap((r) => [r.deteriorated, 0]),
      },
      {
        name: `items ${changed} better`,
        kind: 'bar',
        colour: BETTER,
        values: rows.flatMap((r) => [0, r.improved]),
      },
    ],
  });
}

export const churnReport: CheckReport<ChurnSection, ChurnConfig, ChurnHeadline> = {
  section: renderChurnSection,
  charts: churnCharts,
  glanceChart: churnGlanceChart,
  glance: (section, { headline, config }) => glanceRows(section, headline, config.churn.minEffect),
  settings: (config) => settingsRows(config.churn),
};
