import { readFileSync, writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseReport } from '../../src/report/read.js';
import { reportJsonSchema } from '../../src/report/schema.js';
import { constructedReport } from './fixtures.js';

const SCHEMA_FILE = new URL('../../schema/report.schema.json', import.meta.url);

describe('report JSON Schema', () => {
  it('schema/report.schema.json is the one generated from src/report/schema.ts', () => {
    const generated = `${JSON.stringify(reportJsonSchema(), null, 2)}\n`;
    // Regenerate with: UPDATE_REPORT_SCHEMA=1 npx vitest run test/report/schema.test.ts
    if (process.env.UPDATE_REPORT_SCHEMA === '1') writeFileSync(SCHEMA_FILE, generated);
    // Compared as JSON: the formatter may lay the file out differently.
    expect(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'))).toEqual(JSON.parse(generated));
  });

  const validate = new Ajv2020({ strict: false, allErrors: true, validateFormats: false }).compile(
    JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')),
  );

  it('accepts a built report as written to report.json', () => {
    const json = JSON.parse(JSON.stringify(constructedReport()));
    const ok = validate(json);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('rejects a report with an unknown verdict, a missing headline or a bad section tag', () => {
    const good = JSON.parse(JSON.stringify(constructedReport()));
    const badVerdict = { ...good, verdict: { ...good.verdict, status: 'maybe' } };
    const { headline: _dropped, ...noHeadline } = good;
    const badSection = { ...good, checks: { ...good.checks, churn: { check: 'dragon' } } };
    for (const bad of [badVerdict, noHeadline, badSection]) expect(validate(bad)).toBe(false);
  });

  it('reads a written report back, and names the file and field when it is wrong', () => {
    const report = constructedReport();
    expect(parseReport(JSON.stringify(report), 'report.json')).toEqual(report);
    expect(() => parseReport('{"schema": "model-gate.report/0"}', 'old.json')).toThrow(
      /old\.json: schema is "model-gate\.report\/0"; expected "model-gate\.report\/1"/,
    );
    expect(() => parseReport('{', 'cut.json')).toThrow(/cut\.json: not JSON/);
    const wrong = { ...JSON.parse(JSON.stringify(report)), createdAt: 'yesterday' };
    try {
      parseReport(JSON.stringify(wrong), 'wrong.json');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        exitCode: 2,
        message: 'wrong.json: not a valid model-gate report',
      });
      expect((error as { details: string[] }).details.join('\n')).toMatch(/^createdAt: /);
    }
  });
});
