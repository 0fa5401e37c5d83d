import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionOutputNames, actionOutputs, setActionOutputs } from '../../src/github/outputs.js';
import { constructedReport } from '../report/fixtures.js';

/** Reads the runner's GITHUB_OUTPUT file format: `name<<DELIMITER\nvalue\nDELIMITER`. */
function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const pattern = /^([\w-]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const match of text.matchAll(pattern)) out[match[1]!] = match[3]!;
  return out;
}

describe('action outputs', () => {
  it('come from the verdict, the headline, the files and the artifact', () => {
    const outputs = actionOutputs(
      constructedReport(),
      { report: '/out/report.json', summary: '/out/summary.md' },
      'https://github.com/o/r/actions/runs/1/artifacts/9',
    );
    expect(outputs).toEqual({
      verdict: 'fail',
      'report-path': '/out/report.json',
      'summary-path': '/out/summary.md',
      'churn-rate': '0.275',
      deteriorated: '8',
      // The second domain name holds pipes, not commas: kept as it is.
      reversals: 'law,a | b | c',
      'ece-baseline': '0.061',
      'ece-candidate': '0.193',
      'persona-accuracy': '0.72',
      // speed did not run: its outputs are empty.
      'decode-ratio': '',
      'verbosity-ratio': '',
      'artifact-url': 'https://github.com/o/r/actions/runs/1/artifacts/9',
      incomplete: '',
    });
    const timed = constructedReport();
    timed.headline = { ...timed.headline, decodeRatio: 1.50004, verbosityRatio: 1 };
    const speed = actionOutputs(timed, { report: 'r', summary: 's' }, null);
    expect([speed['decode-ratio'], speed['verbosity-ratio']]).toEqual(['1.5', '1']);
  });

  it('round shares and ECE to four decimal places, as action.yml says', async () => {
    const report = constructedReport();
    report.headline = {
      ...report.headline,
      churnRate: 0.00043701996927686794,
      eceBaseline: 0.061249999,
      eceCandidate: 0.193571,
      personaAccuracy: 0.7,
    };
    const outputs = actionOutputs(report, { report: 'r.json', summary: 's.md' }, null);
    expect(outputs['churn-rate']).toBe('0.0004');
    expect(outputs['ece-baseline']).toBe('0.0612');
    expect(outputs['ece-candidate']).toBe('0.1936');
    expect(outputs['persona-accuracy']).toBe('0.7');
    const action = await readFile(new URL('../../action.yml', import.meta.url), 'utf8');
    for (const name of ['churn-rate', 'ece-baseline', 'ece-candidate', 'persona-accuracy']) {
      const description = new RegExp(`\\n  ${name}:\\n    description: ([^\\n]*)`).exec(
        action,
      )?.[1];
      expect(description).toContain('rounded to 4 decimal places');
    }
  });

  it('say what is missing, and label a shard instead of giving its slice as the verdict', () => {
    const report = constructedReport();
    const coverage = {
      complete: false,
      interrupted: true,
      missingShards: [],
      shard: null,
      rows: [],
      missing: 'Incomplete measurement — the run was interrupted before it finished.',
    };
    report.verdict.status = 'inconclusive';
    report.run.coverage = coverage;
    const files = { report: 'r.json', summary: 's.md' };
    expect(actionOutputs(report, files, null)).toMatchObject({
      verdict: 'inconclusive',
      incomplete: coverage.missing,
    });
    const shard = constructedReport();
    shard.run.coverage = {
      ...coverage,
      complete: true,
      interrupted: false,
      shard: '1/2',
      missing: null,
    };
    expect(actionOutputs(shard, files, null)).toMatchObject({
      verdict: 'shard 1/2 measured',
      incomplete: '',
    });
  });

  it('are written to the GITHUB_OUTPUT file, unknown values as empty strings', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'model-gate-outputs-'));
    const file = join(dir, 'output');
    await writeFile(file, '');
    const saved = process.env.GITHUB_OUTPUT;
    process.env.GITHUB_OUTPUT = file;
    try {
      const report = constructedReport();
      report.headline = { ...report.headline, eceCandidate: null, reversals: ['a,b', 'law'] };
      setActionOutputs(actionOutputs(report, { report: 'r.json', summary: 's.md' }, null));
      const written = parseOutputFile(await readFile(file, 'utf8'));
      expect(Object.keys(written)).toEqual(actionOutputNames());
      expect(written['ece-candidate']).toBe('');
      expect(written['artifact-url']).toBe('');
      expect(written.reversals).toBe('a b,law');
      expect(written.verdict).toBe('fail');
    } finally {
      if (saved === undefined) delete process.env.GITHUB_OUTPUT;
      else process.env.GITHUB_OUTPUT = saved;
      await rm(dir, { recursive: true, force: true });
    }
  });
});
