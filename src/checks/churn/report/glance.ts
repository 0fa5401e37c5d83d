/**
 * The churn chart of the summary's top (mermaid, drawn by GitHub in the job summary and the PR
 * comment). The section is read defensively: a chart that lacks its data is left out.
 */
import type { ChurnConfig } from '../settings.js';
import { field, finiteOrNull, listOf } from '../../../render/json.js';
import { xyChart } from '../../../render/mermaid.js';
import { BETTER, WORSE } from '../../../render/palette.js';
import type { ChurnSection } from '../section.js';

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
