/**
 * The churn chart of the summary's top (mermaid, drawn by GitHub in the job summary and the PR
 * comment). The section is read defensively: a chart that lacks its data is left out.
 */
import type { GateConfig } from '../../../config/schema.js';
import { field, finiteOrNull, listOf } from '../../../render/json.js';
import { xyChart } from '../../../render/mermaid.js';
import type { ChurnSection } from '../section.js';

/** More categories than this make an unreadable inline chart; the tables have them all. */
const MAX_CATEGORIES = 16;

/** Where the candidate got reliably worse or better, by domain (mermaid, inline). */
export function churnGlanceChart(section: ChurnSection, config: GateConfig): string | null {
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
  if (rows.length < 2 || rows.length > MAX_CATEGORIES) return null;
  if (rows.every((r) => r.improved === 0 && r.deteriorated === 0)) return null;
  return xyChart({
    title:
      section.estimator === 'logprobs'
        ? `Items worse (bars) and better (line) by |Δp| ≥ ${config.churn.minEffect}, by domain`
        : 'Items reliably worse (bars) and better (line), by domain',
    categories: rows.map((r) => r.domain),
    yLabel: 'items',
    bars: [rows.map((r) => r.deteriorated)],
    lines: [rows.map((r) => r.improved)],
  });
}
