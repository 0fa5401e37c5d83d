import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { renderSummary } from '../../src/report/summary.js';
import { constructedReport, fromJson, HOSTILE, runMetadata } from './fixtures.js';
import { liveReferences, rawHtml, tableLinePipes, tables, visibleText } from './gfm.js';

/** The only raw HTML the summary writes itself: collapsed blocks, their titles escaped. */
const OWN_HTML = /^(<details><summary>[^<>]*(<code>[^<>]*<\/code>[^<>]*)*<\/summary>|<\/details>)$/;

describe('renderSummary', () => {
  const report = constructedReport();
  const summary = renderSummary(report);

  it('starts with the verdict line, then the reasons most severe first', () => {
    const lines = summary.split('\n');
    expect(lines[0]).toBe('## ❌ model-gate verdict: fail');
    expect(lines[2]).toBe(
      'Baseline `sim-base:7b` → candidate `sim-cand:14b` · 1 failure, 1 warning',
    );
    const [reasons] = tables(summary);
    expect(reasons?.header).toEqual(['', 'check', 'rule', 'finding']);
    expect(reasons?.cells.map((row) => row[1])).toEqual(['churn', 'personas', 'dragon']);
  });

  it('parses as GFM with the right column count in every table and no foreign HTML', () => {
    const parsed = tables(summary);
    // The summary's own tables (the check sections may add theirs in between).
    const own = parsed.filter((t) =>
      ['', 'at a glance', 'role', 'setting', 'prompt', 'model'].includes(t.header[0] ?? '-'),
    );
    expect(own.map((t) => t.columns)).toEqual([4, 2, 6, 2, 2, 8]);
    for (const t of parsed) expect(t.rowWidths.every((w) => w === t.columns)).toBe(true);
    for (const block of tableLinePipes(summary)) {
      expect(new Set(block).size).toBe(1);
    }
    expect(rawHtml(summary, OWN_HTML)).toEqual([]);
    expect(liveReferences(visibleText(summary))).toEqual([]);
  });

  it('escapes a hostile finding message, model tag and warning', () => {
    const hostileRun = runMetadata({ warnings: [...HOSTILE] });
    const candidate = hostileRun.models.candidate;
    if (candidate) candidate.model = '<b>@octocat</b>|x';
    const hostile = buildReport({
      run: hostileRun,
      sections: {},
      findings: HOSTILE.map((message, i) => ({
        check: 'churn' as const,
        rule: `rule|${i}`,
        severity: 'warn' as const,
        message,
      })),
      createdAt: '2025-01-02T00:00:00Z',
    });
    const md = renderSummary(hostile);
    expect(rawHtml(md, OWN_HTML)).toEqual([]);
    expect(liveReferences(visibleText(md))).toEqual([]);
    const [reasons] = tables(md);
    expect(reasons?.rowWidths).toEqual(HOSTILE.map(() => 4));
    for (const block of tableLinePipes(md)) expect(new Set(block).size).toBe(1);
  });

  it('shows model tags in findings as code, with no invisible character inside', () => {
    const report = buildReport({
      run: runMetadata({ warnings: ['sim-base:7b: 3 replies were cut at num-predict'] }),
      sections: {},
      findings: [
        {
          check: 'personas',
          rule: 'accuracy-drop',
          severity: 'fail',
          message: 'sim-cand:14b: accuracy 0.61 against sim-base:7b: 0.80',
        },
      ],
      createdAt: '2025-01-02T00:00:00Z',
    });
    const md = renderSummary(report);
    expect(md).toContain('`sim-cand:14b`: accuracy 0\\.61 against `sim-base:7b`: 0\\.80');
    expect(md).toContain('- `sim-base:7b`: 3 replies were cut at num\\-predict');
    expect(md).not.toContain('\u200b');
  });

  it('calls the one series of a single-model run the model, not the baseline', () => {
    const run = runMetadata();
    run.models.candidate = null;
    const report = buildReport({
      run,
      sections: {
        dragon: fromJson({ check: 'dragon', baseline: { ece: { value: 0.05 } }, candidate: null }),
      },
      findings: [],
      createdAt: '2025-01-02T00:00:00Z',
    });
    const md = renderSummary(report);
    expect(md).toContain('Model `sim-base:7b` (single-model run)');
    expect(md).toMatch(/\| ECE +\| +0\.050 \|/);
    expect(md).toMatch(/\| model +\| `sim-base:7b` \|/);
    expect(md).not.toMatch(/\bbaseline\b/i);
  });

  it('says when models were simulated, and not otherwise', () => {
    expect(summary).toContain('Simulated models');
    const real = runMetadata();
    real.provider.simulated = false;
    for (const m of [real.models.baseline, real.models.candidate]) if (m) m.simulated = false;
    const md = renderSummary(
      buildReport({ run: real, sections: {}, findings: [], createdAt: '2025-01-02T00:00:00Z' }),
    );
    expect(md).not.toContain('Simulated');
    expect(md.split('\n')[0]).toBe('## ✅ model-gate verdict: pass');
    expect(md).toContain('every gate rule passed');
  });

  it('keeps provenance collapsed: server version, digests, quantization, K, seeds, prompt hashes', () => {
    const start = summary.indexOf('<details><summary>Measurement provenance</summary>');
    const end = summary.indexOf('</details>', start);
    expect(start).toBeGreaterThan(0);
    const block = summary.slice(start, end);
    for (const expected of [
      '`0.0.0-simulated`',
      // Digests cut to 16 characters: report.json keeps them whole.
      `\`${'a'.repeat(16)}…\``,
      `\`${'b'.repeat(16)}…\``,
      'Q4\\_K\\_M',
      '| churn sampling ',
      'fixed, K = 10 per item (samples is set)',
      '1000–1009, greedy 42',
      '| dragon games (seeds) ',
      '| 0–9 ',
      `\`${'c'.repeat(16)}…\``,
    ]) {
      expect(block).toContain(expected);
    }
  });

  it('counts checks that could not be measured, not their findings', () => {
    const md = renderSummary(
      buildReport({
        run: runMetadata(),
        sections: {},
        findings: [
          { check: 'churn', rule: 'timeouts', severity: 'inconclusive', message: '9% timed out' },
          { check: 'churn', rule: 'invalid-answers', severity: 'inconclusive', message: '12%' },
          { check: 'personas', rule: 'min-recognition', severity: 'fail', message: 'a' },
          { check: 'personas', rule: 'min-recognition', severity: 'fail', message: 'b' },
        ],
        createdAt: '2025-01-02T00:00:00Z',
      }),
    );
    expect(md.split('\n')[2]).toBe(
      'Baseline `sim-base:7b` → candidate `sim-cand:14b` · 2 failures, 1 check could not be measured',
    );
  });

  it('lists what the inconclusive check would have claimed, without counting it', () => {
    const md = renderSummary(
      buildReport({
        run: runMetadata(),
        sections: {},
        findings: [
          { check: 'dragon', rule: 'timeouts', severity: 'inconclusive', message: '9% timed out' },
          { check: 'dragon', rule: 'ece-increase', severity: 'fail', message: 'ECE rose 0.13' },
        ],
        createdAt: '2025-01-02T00:00:00Z',
      }),
    );
    expect(md.split('\n')[0]).toBe('## ❔ model-gate verdict: inconclusive');
    expect(md).toContain('Not counted, because the measurement of dragon was inconclusive');
    expect(tables(md)[1]?.cells).toEqual([
      ['❌ fail', 'dragon', '`ece-increase`', 'ECE rose 0\\.13'],
    ]);
  });
});
