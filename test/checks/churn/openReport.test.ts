/**
 * The evidence behind flagged open items, in report.json and summary.md: one right and one
 * wrong answer of each model, bounded in length and in number, and escaped where shown — the
 * answers here try to break out of the markdown.
 */
import { describe, expect, it } from 'vitest';
import { analyseChurn } from '../../../src/checks/churn/analyse.js';
import { parseItems } from '../../../src/checks/churn/items.js';
import type { OpenItem } from '../../../src/checks/churn/openItems.js';
import { EXAMPLE_LIMIT, MAX_ITEMS_WITH_EXAMPLES } from '../../../src/checks/churn/openEvidence.js';
import { renderChurnSection } from '../../../src/checks/churn/report/markdown.js';
import type { ChurnCallRecord } from '../../../src/sampleLog/index.js';
import { rawHtml, tableLinePipes, tables } from '../../report/gfm.js';
import { settings } from './simulate.js';

const OWN_HTML = /^(<details><summary>[^<]*<\/summary>|<\/details>)$/;
const HOSTILE = `| @octocat <img src=x onerror=alert(1)> [link](http://x) \n# heading ${'x'.repeat(400)}`;

const items = parseItems(
  JSON.stringify(
    Array.from({ length: 60 }, (_, i) => ({
      id: `t${i}`,
      domain: i < 30 ? 'tickets' : 'other',
      prompt: `Ticket ${i}: billing or shipping?`,
      expected: 'billing',
      grader: { type: 'label', labels: ['billing', 'shipping'] },
    })),
  ),
  'open.json',
).items as OpenItem[];

function record(model: string, item: OpenItem, k: number, text: string): ChurnCallRecord {
  return {
    v: 1,
    kind: 'call',
    check: 'churn',
    model,
    digest: null,
    key: `${item.id}#${k}`,
    sample: k,
    options: { temperature: 0.7, seed: 1000 + k, num_ctx: 4096, num_predict: 256, think: false },
    prompt_sha256: `h-${item.id}`,
    status: 'ok',
    latency_ms: 1,
    attempts: 1,
    item: item.id,
    domain: item.domain,
    mode: 'stochastic',
    // The logged grade is left wrong on purpose: the analysis grades the text.
    answer: 'logged',
    correct: false,
    text,
  };
}

// The baseline is right 9 times in 10; on every ticket the candidate answers the hostile text
// (off-label) from its second sample on.
const records = items.flatMap((item) =>
  Array.from({ length: 10 }, (_, k) => [
    record('base', item, k, k === 0 ? 'shipping' : 'Billing.'),
    record('cand', item, k, item.domain === 'tickets' && k > 0 ? HOSTILE : 'billing'),
  ]).flat(),
);

describe('open items in the churn report', () => {
  const section = analyseChurn({
    records,
    items,
    settings: settings({ greedy: false }),
    baseline: 'base',
    candidate: 'cand',
  });

  it('grades the logged texts, counts off-label answers, and bounds the examples', () => {
    if (section.estimator !== 'sampled') throw new Error('sampled expected');
    expect(section.baseline.accuracy.mean).toBeCloseTo(0.9, 12);
    expect(section.openItems?.offLabel).toEqual({ baseline: 0, candidate: 30 * 9 });
    const flagged = section.comparison?.items.filter((r) => r.fisherBh === 'deteriorated') ?? [];
    expect(flagged).toHaveLength(30);
    const row = flagged[0];
    expect(row?.offLabel).toEqual([0, 9]);
    expect(row?.examples?.baseline).toEqual({ correct: 'Billing.', wrong: 'shipping' });
    expect(row?.examples?.candidate.correct).toBe('billing');
    expect(row?.examples?.candidate.wrong).toHaveLength(EXAMPLE_LIMIT);
    expect(row?.examples?.candidate.wrong?.endsWith('…')).toBe(true);
    const unflagged = section.comparison?.items.find((r) => r.id === 't40');
    expect(unflagged?.examples).toBeUndefined();
    expect(unflagged?.grader).toBe('label (2 labels)');
    expect(MAX_ITEMS_WITH_EXAMPLES).toBe(50);
  });

  it('shows the evidence escaped: no raw HTML, no mention, no link, tables intact', () => {
    const md = renderChurnSection(section);
    expect(md).toContain('Answers behind the flagged open items (10)');
    expect(md).toContain('off-label 0→9');
    expect(rawHtml(md, OWN_HTML)).toEqual([]);
    expect(md).not.toMatch(/(^|[^\\])@octocat/);
    expect(md).not.toMatch(/(^|[^\\])\[link\]/);
    for (const block of tableLinePipes(md)) expect(new Set(block).size).toBe(1);
    for (const table of tables(md)) {
      for (const width of table.rowWidths) expect(width).toBe(table.columns);
    }
  });
});
