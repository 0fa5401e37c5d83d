/**
 * Writes report.json, summary.md, report.html and every chart into the output directory, each
 * whole or not at all and never through a link (src/files/safeWrite.ts).
 */
import { CHECKS } from '../checks/builtIn.js';
import type { CheckList } from '../checks/list.js';
import { join, resolve } from 'node:path';
import { InfrastructureError } from '../errors.js';
import { writeFileAtomic } from '../files/safeWrite.js';
import { chartsOf } from './charts.js';
import { NO_EVIDENCE, type PageEvidence, pageData } from './html/data.js';
import { pageScript } from './html/pageScript.js';
import { renderPage } from './html/render.js';
import { renderSummary } from './summary.js';
import type { Report } from './types.js';
import { errorMessage } from '../text/format.js';

export interface WrittenReport {
  /** Absolute paths. */
  dir: string;
  report: string;
  summary: string;
  /** report.html: the page with the evidence behind the verdict. */
  page: string;
  charts: string[];
  /** Charts that could not be drawn (the rest was written); also in report.json's warnings. */
  problems: string[];
}

/** Chart files are named by the checks; a name is a plain file name, never a path. */
const CHART_FILE = /^[A-Za-z0-9][A-Za-z0-9._-]*\.svg$/;

/** The name of the page written beside report.json. */
export const PAGE_FILE = 'report.html';

export async function writeReport(
  report: Report,
  outputDir: string,
  evidence: PageEvidence = NO_EVIDENCE,
  checks: CheckList = CHECKS,
): Promise<WrittenReport> {
  const dir = resolve(outputDir);
  const { charts, problems } = chartsOf(report, checks);
  const seen = new Set<string>();
  for (const chart of charts) {
    if (!CHART_FILE.test(chart.file) || seen.has(chart.file)) {
      throw new Error(
        `chart file name ${JSON.stringify(chart.file)} is not a unique plain .svg name`,
      );
    }
    seen.add(chart.file);
  }

  const written: WrittenReport = {
    dir,
    report: join(dir, 'report.json'),
    summary: join(dir, 'summary.md'),
    page: join(dir, PAGE_FILE),
    charts: charts.map((chart) => join(dir, chart.file)),
    problems,
  };
  // A chart that could not be drawn is said in the report itself, not only to the caller.
  const complete =
    problems.length === 0
      ? report
      : { ...report, run: { ...report.run, warnings: [...report.run.warnings, ...problems] } };
  try {
    writeFileAtomic(written.report, `${JSON.stringify(complete, null, 2)}\n`);
    writeFileAtomic(written.summary, renderSummary(complete, { checks }));
    writeFileAtomic(written.page, renderPage(pageData(complete, evidence, checks), pageScript()));
    for (const chart of charts) writeFileAtomic(join(dir, chart.file), chart.svg);
  } catch (error) {
    const reason = errorMessage(error);
    // The measurement may be done by now (it is in the sample log): not bad input, exit 3.
    throw new InfrastructureError(
      `cannot write the report into ${outputDir}: ${reason}`,
      'expected a writable directory (output.dir in model-gate.yml, or --output-dir); the sample log keeps the measurement, and model-gate analyze writes the report from it',
    );
  }
  return written;
}
