/**
 * Compares two report.json files field by field, as the golden test does
 * (test/support/compareReports.ts): for reports of logs too large to keep as fixtures, such as
 * a benchmark's log analysed by a release and by a change.
 *
 *   npx tsx scripts/compare-reports.ts expected.json actual.json [--limit 200]
 *
 * Prints each differing field (its path and both values); exits 0 when the reports agree,
 * 1 when they differ, 2 when a file cannot be read.
 */
import { readFileSync } from 'node:fs';
import { compareReports, formatDifferences } from '../test/support/compareReports.js';

function readReport(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    process.stderr.write(`compare-reports: ${file}: ${(error as Error).message}\n`);
    process.exit(2);
  }
}

const args = process.argv.slice(2);
const limitAt = args.indexOf('--limit');
const limit = limitAt >= 0 ? Number(args[limitAt + 1]) : 50;
const files = limitAt >= 0 ? args.filter((_, i) => i !== limitAt && i !== limitAt + 1) : args;
if (files.length !== 2 || !Number.isInteger(limit) || limit < 1) {
  process.stderr.write(
    'usage: npx tsx scripts/compare-reports.ts expected.json actual.json [--limit N]\n',
  );
  process.exit(2);
}
const [expectedFile, actualFile] = files as [string, string];
const differences = compareReports(readReport(expectedFile), readReport(actualFile));
if (differences.length === 0) {
  process.stdout.write(`${expectedFile} and ${actualFile} agree field by field\n`);
} else {
  process.stdout.write(
    `${differences.length} field(s) differ (expected: ${expectedFile}, actual: ${actualFile})\n${formatDifferences(differences, limit)}\n`,
  );
  process.exitCode = 1;
}
