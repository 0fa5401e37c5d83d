/** Reads a report.json back (nightly comparison with a stored report, re-rendering). */
import { readFile } from 'node:fs/promises';
import { InputError } from '../errors.js';
import { MAX_REPORT_BYTES, refuseOversized } from '../config/limits.js';
import { reportSchema } from './schema.js';
import { REPORT_SCHEMA, type Report } from './types.js';
import { errorMessage } from '../text/format.js';

export function parseReport(text: string, file: string): Report {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const reason = errorMessage(error);
    throw new InputError(`${file}: not JSON (${reason}); expected a model-gate report.json`);
  }
  const schema =
    typeof json === 'object' && json !== null && 'schema' in json ? json.schema : undefined;
  if (schema !== REPORT_SCHEMA) {
    throw new InputError(
      `${file}: schema is ${JSON.stringify(schema ?? null)}; expected "${REPORT_SCHEMA}"`,
      ['a report from another model-gate major version must be re-analysed from its sample log'],
    );
  }
  const parsed = reportSchema.safeParse(json);
  if (!parsed.success) {
    throw new InputError(
      `${file}: not a valid model-gate report`,
      parsed.error.issues
        .slice(0, 10)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
    );
  }
  // The schema checks the frame; the sections are the checks' own plain JSON.
  return json as Report;
}

export async function readReport(file: string): Promise<Report> {
  refuseOversized(file, file, MAX_REPORT_BYTES, 'report.json');
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const reason = errorMessage(error);
    throw new InputError(`cannot read report ${file}: ${reason}`);
  }
  return parseReport(text, file);
}
