import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ActionLog } from '../../src/github/log.js';
import { JOB_SUMMARY_LIMIT, writeJobSummary } from '../../src/github/summary.js';
import { fitMarkdown } from '../../src/report/fit.js';

/** A summary made of one long item table, fitted to `limit` as renderSummary fits its own. */
function renderedTable(rows: readonly string[], limit: number): string {
  const text = ['### churn', '', '| item | domain | note |', '| --- | --- | --- |', ...rows, ''];
  return fitMarkdown(text.join('\n'), limit, 'report.html');
}

const NOTICE = 'Cut to fit; the full report is in the run artifact.';
let dir: string;
let file: string;
const saved = process.env.GITHUB_STEP_SUMMARY;
const warnings: string[] = [];
const log: ActionLog = { info: () => {}, notice: () => {}, warning: (m) => warnings.push(m) };

// core.summary resolves the file once per process, as on a runner: one file for all tests.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'model-gate-summary-'));
  file = join(dir, 'step_summary');
});
beforeEach(async () => {
  await writeFile(file, '');
  process.env.GITHUB_STEP_SUMMARY = file;
  warnings.length = 0;
});
afterEach(() => {
  if (saved === undefined) delete process.env.GITHUB_STEP_SUMMARY;
  else process.env.GITHUB_STEP_SUMMARY = saved;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('job summary through core.summary', () => {
  it('appends the markdown to the runner summary file', async () => {
    await writeFile(file, 'earlier step output\n');
    const result = await writeJobSummary('## ✅ model-gate verdict: pass\n', {
      fullReportNotice: NOTICE,
      log,
    });
    expect(result).toMatchObject({ written: true, trimmed: false });
    expect(await readFile(file, 'utf8')).toBe(
      'earlier step output\n## ✅ model-gate verdict: pass\n\n',
    );
    expect(warnings).toEqual([]);
  });

  it('cuts a report over 1 MiB at a section, with the notice, counting what the step wrote before', async () => {
    await writeFile(file, 'p'.repeat(100_000));
    const section = (i: number) => `### section ${i}\n\n${'ü'.repeat(60_000)}\n`;
    const markdown = Array.from({ length: 12 }, (_, i) => section(i)).join('\n');
    const result = await writeJobSummary(markdown, { fullReportNotice: NOTICE, log });
    expect(result.trimmed).toBe(true);
    const size = (await stat(file)).size;
    expect(size).toBeLessThanOrEqual(JOB_SUMMARY_LIMIT);
    const text = await readFile(file, 'utf8');
    // 100,000 bytes before; each section is ~120 kB in UTF-8, so seven fit in the 948,576 left.
    expect(text).toContain('### section 6');
    expect(text).not.toContain('### section 7');
    expect(text.trimEnd().endsWith(NOTICE)).toBe(true);
    expect(warnings).toEqual([expect.stringMatching(/cut to fit GitHub's 1 MiB limit/)]);
  });

  it('renders the summary for the room the earlier steps left, and writes it whole', async () => {
    await writeFile(file, 'p'.repeat(100_000));
    const asked: number[] = [];
    const rows = Array.from({ length: 20_000 }, (_, i) => `| q${i} | law | ${'x'.repeat(40)} |`);
    const result = await writeJobSummary(
      (limit) => {
        asked.push(limit);
        return renderedTable(rows, limit);
      },
      { fullReportNotice: NOTICE, log },
    );
    // What the step wrote before, and the newline core.summary adds after the text.
    expect(asked).toEqual([JOB_SUMMARY_LIMIT - 100_000 - 1]);
    expect(result).toMatchObject({ written: true, trimmed: false });
    expect((await stat(file)).size).toBeLessThanOrEqual(JOB_SUMMARY_LIMIT);
    expect(await readFile(file, 'utf8')).toMatch(/more items — see report\.html\._\n/);
    expect(warnings).toEqual([]);
  });

  it('does nothing outside GitHub Actions', async () => {
    delete process.env.GITHUB_STEP_SUMMARY;
    const result = await writeJobSummary('x', { fullReportNotice: NOTICE, log });
    expect(result.written).toBe(false);
  });
});
