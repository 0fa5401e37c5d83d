import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseReport } from '../../src/report/read.js';
import { renderSummary } from '../../src/report/summary.js';
import { writeReport } from '../../src/report/write.js';
import { constructedReport } from './fixtures.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'model-gate-write-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('writeReport', () => {
  it('writes report.json, summary.md and report.html into a new nested folder and returns their paths', async () => {
    const dir = join(await tempDir(), 'out', 'nested');
    const report = constructedReport();
    const written = await writeReport(report, dir);
    expect(written.report).toBe(join(dir, 'report.json'));
    expect(written.summary).toBe(join(dir, 'summary.md'));
    expect(written.page).toBe(join(dir, 'report.html'));
    expect(await readFile(written.page, 'utf8')).toMatch(/^<!doctype html>/);
    // Chart code that fails on these stand-in sections is named in the written warnings.
    const expected = {
      ...report,
      run: { ...report.run, warnings: [...report.run.warnings, ...written.problems] },
    };
    expect(parseReport(await readFile(written.report, 'utf8'), written.report)).toEqual(expected);
    expect(await readFile(written.summary, 'utf8')).toBe(renderSummary(expected));
    const files = (await readdir(dir)).sort();
    expect(files).toEqual(
      [
        'report.html',
        'report.json',
        'summary.md',
        ...written.charts.map((c) => c.slice(dir.length + 1)),
      ].sort(),
    );
  });

  it('writes a report without check sections exactly as built', async () => {
    const dir = await tempDir();
    const report = { ...constructedReport(), checks: {} };
    const written = await writeReport(report, dir);
    expect(written.problems).toEqual([]);
    expect(written.charts).toEqual([]);
    expect(JSON.parse(await readFile(written.report, 'utf8'))).toEqual(report);
  });

  it('names the folder when it cannot write there, as an infrastructure failure (exit 3)', async () => {
    const file = join(await tempDir(), 'a-file');
    await writeFile(file, 'not a folder');
    await expect(writeReport(constructedReport(), join(file, 'out'))).rejects.toMatchObject({
      exitCode: 3,
      message: expect.stringContaining(`cannot write the report into ${join(file, 'out')}`),
    });
  });
});
