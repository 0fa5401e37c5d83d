/**
 * A promptfoo suite's files found as promptfoo finds them: bare relative paths of prompts, test
 * files and vars files, patterns and folders of test files, CSV, JSON and JSON Lines tests; an
 * undefined variable rendered empty with one warning; every unused key named; and no file read
 * outside the suite's repository.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { importSuite } from '../../src/checks/churn/commands.js';
import { parseItems } from '../../src/checks/churn/items.js';
import type { OpenItem } from '../../src/checks/churn/openItems.js';
import { ExitCode } from '../../src/errors.js';
import { promptfoo } from '../../src/import/promptfoo.js';
import { matchPattern } from '../../src/import/suiteFiles.js';
import { cli } from '../support/smallRun.js';

const FIXTURE = path.resolve('test/fixtures/promptfoo/paths');

function importFixture() {
  return importSuite(promptfoo, path.join(FIXTURE, 'promptfooconfig.yaml'), 'promptfooconfig.yaml');
}

describe('promptfoo suite files', () => {
  it('reads bare paths, patterns, CSV and JSON test files and a vars file', () => {
    const result = importFixture();
    const { items } = parseItems(result.text, 'items.yml', FIXTURE);
    const open = items as OpenItem[];
    // 6 tests (a YAML file, two by pattern, CSV, JSON, inline) × 2 prompts (a bare .txt path, a
    // chat file by pattern).
    expect(open.map((i) => i.id)).toEqual([
      'opening-time-p1',
      'opening-time-p2',
      'rye-p1',
      'rye-p2',
      'gluten-free-p1',
      'gluten-free-p2',
      'baguette-price-p1',
      'baguette-price-p2',
      'order-status-p1',
      'order-status-p2',
      'shared-vars-p1',
      'shared-vars-p2',
    ]);
    // The bare prompt path is read as a file (not taken as the prompt's text), the defaultTest
    // file gives `shop` and the domain, the vars file gives `question` and `loaf`.
    expect(open[0]?.prompt).toBe('Customer question for Crumb & Co: When do you open on Sunday?\n');
    expect(open[1]?.system).toBe('You answer for Crumb & Co, politely.');
    expect(open[10]?.prompt).toContain('Which loaf is the best seller?');
    expect(open.every((i) => i.domain === 'bakery')).toBe(true);
    expect(open[10]?.grader.grade('Our SOURDOUGH.').correct).toBe(true);
    expect(open[4]?.grader.grade('Guaranteed gluten free').correct).toBe(false);
  });

  it('renders an undefined variable empty, with one warning for the variable', () => {
    const result = importFixture();
    const warnings = result.report.filter((line) => line.includes('{{ tone }}'));
    expect(warnings).toEqual([
      '{{ tone }}: no value in 6 tests: rendered empty, as promptfoo renders it',
    ]);
  });

  it('names every key it does not use, the top-level assert among them', () => {
    const result = importFixture();
    expect(result.report.filter((line) => line.startsWith('not used'))).toEqual([
      'not used: top-level description: the items file names the suite it came from',
      'not used: top-level providers: the models compared come from model-gate.yml',
      'not used: top-level assert: promptfoo reads no top-level assert; assertions for every test go under defaultTest.assert',
      'not used: the test key provider (1 test)',
    ]);
  });

  it('matches patterns with *, ? and ** in sorted order', () => {
    expect(matchPattern(FIXTURE, 'cases/*.yaml')).toEqual([
      'cases/a-rye.yaml',
      'cases/b-gluten.yaml',
    ]);
    expect(matchPattern(FIXTURE, 'cases/?-rye.yaml')).toEqual(['cases/a-rye.yaml']);
    expect(matchPattern(FIXTURE, '**/*.csv')).toEqual(['tests/prices.csv']);
    expect(matchPattern(FIXTURE, 'nothing/*.yaml')).toEqual([]);
  });

  it('reads a folder of test files and JSON Lines; a missing bare prompt path is text, said', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mg-pf-paths-'));
    mkdirSync(path.join(dir, '.git'));
    mkdirSync(path.join(dir, 'suite'));
    writeFileSync(
      path.join(dir, 'suite', 'one.jsonl'),
      `${JSON.stringify({ vars: { q: 'a' }, assert: [{ type: 'equals', value: 'A' }] })}\n${JSON.stringify({ vars: { q: 'b' }, assert: [{ type: 'equals', value: 'B' }] })}\n`,
    );
    writeFileSync(
      path.join(dir, 'suite', 'two.yaml'),
      stringify([{ vars: { q: 'c' }, assert: [{ type: 'contains', value: 'C' }] }]),
    );
    writeFileSync(
      path.join(dir, 'config.yaml'),
      stringify({ prompts: ['{{ q }}', 'missing/p.txt'], tests: 'suite/' }),
    );
    const result = importSuite(promptfoo, path.join(dir, 'config.yaml'), 'config.yaml');
    expect(result.items).toBe(6);
    expect(result.report).toContain(
      'prompt 2: "missing/p.txt" reads like a file path but no such file: taken as the prompt text, as promptfoo does',
    );
  });

  it('refuses a test file outside the suite repository, and a pattern that matches nothing', async () => {
    const outside = mkdtempSync(path.join(tmpdir(), 'mg-pf-outside-'));
    writeFileSync(
      path.join(outside, 'cases.yaml'),
      stringify([{ vars: { q: 'x' }, assert: [{ type: 'contains', value: 'x' }] }]),
    );
    const repo = mkdtempSync(path.join(tmpdir(), 'mg-pf-repo-'));
    mkdirSync(path.join(repo, '.git'));
    const reference = path.relative(repo, path.join(outside, 'cases.yaml'));
    writeFileSync(
      path.join(repo, 'promptfooconfig.yaml'),
      stringify({ prompts: ['{{ q }}'], tests: [reference] }),
    );
    const refused = await cli(['import', 'promptfoo', path.join(repo, 'promptfooconfig.yaml')]);
    expect(refused.code).toBe(ExitCode.badInput);
    expect(refused.stderr).toContain(`${reference}: outside the suite's repository`);
    writeFileSync(
      path.join(repo, 'promptfooconfig.yaml'),
      stringify({ prompts: ['{{ q }}'], tests: 'file://cases/*.yaml' }),
    );
    const none = await cli(['import', 'promptfoo', path.join(repo, 'promptfooconfig.yaml')]);
    expect(none.code).toBe(ExitCode.badInput);
    expect(none.stderr).toContain('tests: file://cases/*.yaml: no test file matches');
  });
});
