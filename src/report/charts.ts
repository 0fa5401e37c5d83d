/** Every chart of a report, from the check sections alone, with the check that drew it. */
import type { CheckName } from '../config/schema.js';
import { trendCharts } from '../history/trend.js';
import { type CheckList, sectionOf } from '../checks/list.js';
import type { Chart } from '../render/svg.js';
import type { Report } from './types.js';
import { errorMessage } from '../text/format.js';

export interface ReportChart extends Chart {
  check: CheckName;
}

export interface ReportCharts {
  charts: ReportChart[];
  /** Checks whose chart code failed on their section, with the reason. */
  problems: string[];
}

/** A chart that fails to draw costs that check's charts only. */
export function chartsOf(report: Report, checks: CheckList): ReportCharts {
  const drawers: [CheckName, (() => Chart[]) | null][] = checks.map((check) => {
    const section = sectionOf(report.checks, check.name);
    return [check.name, section ? () => check.report.charts?.(section) ?? [] : null];
  });
  const result: ReportCharts = { charts: [], problems: [] };
  // The nightly trends are drawn from the history section, each by the check of its rule.
  if (report.history) {
    for (const trend of trendCharts(report.history, checks))
      drawers.push([trend.check, trend.draw]);
  }
  for (const [check, draw] of drawers) {
    if (!draw) continue;
    try {
      result.charts.push(...draw().map((chart) => ({ ...chart, check })));
    } catch (error) {
      const reason = errorMessage(error);
      result.problems.push(`${check} charts could not be drawn: ${reason}`);
    }
  }
  return result;
}
