/**
 * A report of a large suite, for the size limits of summary.md: the golden demo report
 * (every check) with its churn comparison grown to `items` items, `changed` of them changed
 * by each method (half improved, half deteriorated), in one domain per 100 items. Built in
 * milliseconds: only what the summary renders is grown, no analysis runs.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Report } from '../../src/report/types.js';
import { GOLDEN_ROOT } from './goldenCase.js';

interface Row {
  id: string;
  domain: string;
  fisherBh: string;
  rciClass: string;
  [field: string]: unknown;
}

/** The class of item `i` when one in `every` items is changed: improved, deteriorated, alternately. */
function classOf(i: number, every: number): string {
  if (i % every !== 0) return 'unchanged';
  return (i / every) % 2 === 0 ? 'improved' : 'deteriorated';
}

export function largeReport(items: number, changed = 0.1): Report {
  const report = JSON.parse(
    readFileSync(path.join(GOLDEN_ROOT, 'demo', 'report.json'), 'utf8'),
  ) as { checks: { churn: { comparison: { items: Row[]; domains: Row[] } } } };
  const comparison = report.checks.churn.comparison;
  const choice = comparison.items.filter((row) => row.domain !== 'support');
  const domainRow = comparison.domains[0];
  const domains = Math.max(1, Math.floor(items / 100));
  const every = Math.max(1, Math.round(1 / changed));
  comparison.items = Array.from({ length: items }, (_, i) => ({
    ...(choice[i % choice.length] as Row),
    id: `item-${String(i).padStart(5, '0')}`,
    domain: `domain-${i % domains}`,
    fisherBh: classOf(i, every),
    rciClass: classOf(i + 1, every),
  }));
  comparison.domains = Array.from({ length: domains }, (_, i) => ({
    ...(domainRow as Row),
    domain: `domain-${i}`,
  }));
  return report as unknown as Report;
}
