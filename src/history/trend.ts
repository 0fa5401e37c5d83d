/**
 * The nightly rules' parts of a history section beside its table: each rule's trend chart,
 * under the check the rule belongs to, and what each rule found in a sentence.
 */
import { type CheckList, nightlyRules } from '../checks/list.js';
import type { CheckName } from '../config/schema.js';
import type { Chart } from '../render/svg.js';
import { analysisOf, type HistorySection } from './section.js';

/** A rule's trend, drawn when asked: a chart that fails costs its check's charts only. */
export interface TrendDrawing {
  check: CheckName;
  draw(): Chart[];
}

export function trendCharts(section: HistorySection, checks: CheckList): TrendDrawing[] {
  return nightlyRules(checks).flatMap(({ check, rule }) => {
    if (!rule.chart) return [];
    const draw = () => {
      const trend = { model: section.model, nights: section.nights };
      const chart = rule.chart?.({ ...trend, analysis: analysisOf(section, rule) });
      return chart ? [chart] : [];
    };
    return [{ check, draw }];
  });
}

/**
 * Each rule's finding on these nights, in one line: none for a rule whose number tonight lacks
 * (its check did not run, as the verdict lists no finding of it) or that a report lacks.
 */
export function trendSentences(section: HistorySection, checks: CheckList): string {
  const tonight = section.nights.at(-1);
  return nightlyRules(checks)
    .flatMap(({ rule }) => {
      const analysis = analysisOf(section, rule);
      if (analysis === undefined || !tonight || !rule.measured(tonight)) return [];
      return [rule.sentence(analysis)];
    })
    .join(' ');
}
