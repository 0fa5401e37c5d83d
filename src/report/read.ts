/** Reads a report.json back (nightly comparison with a stored report, re-rendering). */

import { InputError } from '../errors.js';
import { MAX_REPORT_BYTES, readLimitedFile } from '../config/limits.js';
import { reportSchema } from './schema.js';
import { REPORT_SCHEMA } from './schema.js';
import type { Report } from './types.js';
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
  let text: string;
  try {
    const bytes = readLimitedFile(file, file, MAX_REPORT_BYTES, 'report.json');
    if (bytes === null) throw new Error('not found');
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof InputError) throw error;
    const reason = errorMessage(error);
    throw new InputError(`cannot read report ${file}: ${reason}`);
  }
  return parseReport(text, file);
}
