/**
 * promptfoo JavaScript assertions imported as one grader module per suite: each decides twenty
 * answers as the same function called the way promptfoo calls it (inline bodies through
 * `new Function('output', 'context', …)`, files through their export; true/false, a number
 * against `threshold`, an object's `pass`; a throw fails); what cannot convert says why; and
 * `analyze` regrades an imported suite's log with no request, the module included.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { importSuite } from '../../src/checks/churn/commands.js';
import { parseItems } from '../../src/checks/churn/items.js';
import type { OpenItem } from '../../src/checks/churn/openItems.js';
import { ExitCode } from '../../src/errors.js';
import { promptfoo } from '../../src/import/promptfoo.js';
import { type PromptServer, promptKey, startPromptServer } from '../support/promptServer.js';
import { cli } from '../support/smallRun.js';

const SUITE_DIR = path.resolve('test/fixtures/promptfoo/scripts');
const CONFIG = path.join(SUITE_DIR, 'promptfooconfig.yaml');

/** Twenty answers: prose, lists, JSON, greetings, empty-ish and hostile to naive code. */
const ANSWERS = [
  'Lisbon is the capital of Portugal.',
  'The capital is LISBON.',
  'Madrid, not Lisbon.',
  'Porto.',
  '- sunscreen\n- sunglasses\n- towel\n- book\n- sandals',
  '- towel\n- book\n- hat',
  'Pack sun cream and a sun hat.',
  '{"fare": 35.5, "currency": "EUR"}',
  '{"fare": 0, "currency": "EUR"}',
  '{"fare": 30, "currency": "USD"}',
  '[1, 2, 3]',
  'fare: 35 EUR',
  'Hello and welcome aboard!',
  'Hi there.',
  'Welcome. Enjoy the trip. See you.',
  'Good morning, traveller, we are glad to have you with us on this lovely train today.',
  '   ',
  '{not json',
  'hello',
  '- sun\n- sun\n- sun\n- sun',
];

interface PromptfooAssertion {
  type: string;
  value: string;
  threshold?: number;
}

/** The answer as the output handed to the assertion: a JSON object or list parsed. */
function outputOf(answer: string): unknown {
  const text = answer.trim();
  if (!/^[[{]/.test(text)) return answer;
  try {
    return JSON.parse(text);
  } catch {
    return answer;
  }
}

/** One assertion's verdict, computed as promptfoo's javascript assertion computes it. */
async function promptfooPass(
  assertion: PromptfooAssertion,
  answer: string,
  vars: Record<string, unknown>,
): Promise<boolean> {
  const inverse = assertion.type === 'not-javascript';
  const context = { prompt: '', vars, test: { vars }, config: {} };
  let result: unknown;
  try {
    if (assertion.value.startsWith('file://')) {
      const [file, fn] = assertion.value.slice('file://'.length).split(':');
      const exports = await import(pathToFileURL(path.join(SUITE_DIR, file as string)).href);
      const f = fn ? (exports[fn] ?? exports.default?.[fn]) : exports.default;
      result = await f(outputOf(answer), context);
    } else {
      const code = assertion.value.trimEnd();
      const body = code.includes('\n') ? code : `return ${code}`;
      result = await new Function('output', 'context', body)(outputOf(answer), context);
    }
  } catch {
    return false;
  }
  if (typeof result === 'boolean') return result !== inverse;
  if (typeof result === 'number') {
    return assertion.threshold ? result >= assertion.threshold : result > 0;
  }
  if (result !== null && typeof result === 'object' && 'pass' in result) {
    return (result as { pass: boolean }).pass;
  }
  return false;
}

describe('promptfoo JavaScript assertions as a grader module', () => {
  let out: string;
  let result: ReturnType<typeof importSuite>;
  let items: OpenItem[];
  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'mg-pf-scripts-'));
    result = importSuite(promptfoo, CONFIG, 'promptfooconfig.yaml', path.join(out, 'travel.yml'));
    writeFileSync(path.join(out, 'travel.yml'), result.text);
    items = parseItems(result.text, 'travel.yml', out).items as OpenItem[];
    for (const item of items) await item.grader.prepare();
  });

  it('writes one module beside the items file and says it wrote code', () => {
    const module = readFileSync(path.join(out, 'travel.graders.mjs'), 'utf8');
    expect(module).toContain('export function grade(answer, item)');
    // File assertions are referenced, not copied: the module imports the suite's own files.
    expect(module).toMatch(/import \* as file0 from ".*checks\/short\.mjs";/);
    expect(module).not.toContain('words.length <= 12');
    expect(result.report).toContainEqual(
      expect.stringMatching(
        /^wrote .*travel\.graders\.mjs beside the items file: JavaScript code \(7 assertions of 4 items, run whenever answers are graded/,
      ),
    );
    expect(result.text).toContain('#   wrote ');
    expect(items.map((i) => [i.id, i.grader.description])).toEqual([
      ['capital', 'module ./travel.graders.mjs'],
      ['packing-list', 'module ./travel.graders.mjs'],
      ['fare-as-json', 'module ./travel.graders.mjs'],
      ['short-greeting', 'module ./travel.graders.mjs'],
      ['left-out', 'contains (all of 1, case kept)'],
    ]);
  });

  it('decides twenty answers as promptfoo does, for every kind of return', async () => {
    const suite = parse(readFileSync(CONFIG, 'utf8')) as {
      tests: { vars: Record<string, unknown>; assert: PromptfooAssertion[] }[];
    };
    const verdicts: Record<string, boolean[]> = {};
    for (const [t, item] of items.slice(0, 4).entries()) {
      const test = suite.tests[t];
      if (!test) throw new Error('test missing');
      const expected: boolean[] = [];
      for (const answer of ANSWERS) {
        let pass = true;
        for (const assertion of test.assert) {
          pass = (await promptfooPass(assertion, answer, test.vars)) && pass;
        }
        expected.push(pass);
      }
      const got = ANSWERS.map((answer) => item.grader.grade(answer).correct);
      expect(got, item.id).toEqual(expected);
      verdicts[item.id] = got;
    }
    const passing = (id: string) => ANSWERS.filter((_a, i) => verdicts[id]?.[i]);
    // Known answers: a boolean with its not- form, a number against a threshold and above 0,
    // an object's pass (a throw on prose fails), a file's default export and a named one.
    expect(passing('capital')).toEqual([
      'Lisbon is the capital of Portugal.',
      'The capital is LISBON.',
    ]);
    expect(passing('packing-list')).toEqual([
      '- sunscreen\n- sunglasses\n- towel\n- book\n- sandals',
      '- sun\n- sun\n- sun\n- sun',
    ]);
    expect(passing('fare-as-json')).toEqual(['{"fare": 35.5, "currency": "EUR"}']);
    expect(passing('short-greeting')).toEqual(['Hello and welcome aboard!', 'hello']);
  });

  it('leaves out Python, awaiting code, code that does not compile and a missing file, saying why', () => {
    const why = result.report.filter((line) => line.startsWith('test 5'));
    expect(why).toEqual([
      'test 5 "Left out": not converted: python: Python code, which model-gate does not run (it runs only JavaScript modules of the repository)',
      'test 5 "Left out": not converted: javascript: awaits (graders here decide at once, without waiting)',
      'test 5 "Left out": not converted: javascript: not valid JavaScript (Unexpected token \'}\')',
      'test 5 "Left out": not converted: javascript: file://checks/missing.js: checks/missing.js: not found',
    ]);
    expect(result.summary).toContain('javascript                    6         3');
    expect(result.summary).toContain('not-javascript                1         0');
  });
});

describe('printed items', () => {
  it('leave JavaScript out without --out, and write nothing', async () => {
    const printed = await cli(['import', 'promptfoo', CONFIG]);
    expect(printed.code).toBe(ExitCode.pass);
    expect(printed.stderr).toContain(
      'model-gate import: test 1 "Capital": not converted: javascript: needs --out (its grader module is written beside the items file)',
    );
    expect(existsSync('promptfooconfig.graders.mjs')).toBe(false);
    expect(existsSync(path.join(SUITE_DIR, 'promptfooconfig.graders.mjs'))).toBe(false);
  });
});

describe('analyze regrades an imported suite with JavaScript graders, with no request', () => {
  let server: PromptServer;
  afterAll(async () => {
    await server?.close().catch(() => undefined);
  });

  it('runs, then analyses the same log with a changed assertion and the server gone', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mg-pf-analyze-'));
    cpSync(SUITE_DIR, path.join(dir, 'suite'), { recursive: true });
    const copy = path.join(dir, 'suite', 'promptfooconfig.yaml');
    const items = path.join(dir, 'travel.yml');
    const imported = await cli(['import', 'promptfoo', copy, '--out', items]);
    expect(imported.code, imported.stderr).toBe(ExitCode.pass);
    expect(imported.stderr).toMatch(
      /model-gate import: wrote .*travel\.graders\.mjs beside the items file: JavaScript code/,
    );
    const open = parseItems(readFileSync(items, 'utf8'), 'travel.yml', dir).items as OpenItem[];
    const right: Record<string, string> = {
      capital: 'Lisbon.',
      'packing-list': '- sun hat\n- sunscreen\n- towel\n- book\n- sandals',
      'fare-as-json': '{"fare": 35.5, "currency": "EUR"}',
      'short-greeting': 'Hello and welcome!',
      'left-out': 'a',
    };
    server = await startPromptServer(
      ['base', 'twin'],
      new Map(open.map((i) => [promptKey(i.system, i.prompt), () => right[i.id] as string])),
    );
    const config = path.join(dir, 'model-gate.yml');
    writeFileSync(
      config,
      stringify({
        models: { baseline: 'base', candidate: 'twin' },
        checks: ['churn'],
        provider: { kind: 'openai', host: server.url },
        output: { dir: path.join(dir, 'out') },
        churn: { items: 'travel.yml', samples: 3 },
      }),
    );
    const run = await cli(['run', '--config', config, '--json']);
    expect(run.code, run.stdout).toBe(ExitCode.pass);
    const asked = server.recognised;
    await server.close();
    // The capital's assertion now refuses what is not Porto: imported again (to a new name, as
    // a process loads a module file once), the module changes.
    const suite = readFileSync(copy, 'utf8');
    writeFileSync(copy, suite.replace("output.includes('Madrid')", `"!output.includes('Porto')"`));
    const again = path.join(dir, 'travel2.yml');
    expect((await cli(['import', 'promptfoo', copy, '--out', again])).code).toBe(ExitCode.pass);
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace('items: travel.yml', 'items: travel2.yml'),
    );
    const analysed = await cli([
      'analyze',
      '--log',
      path.join(dir, 'out', 'samples.jsonl'),
      '--config',
      config,
      '--out',
      path.join(dir, 'regraded'),
      '--json',
    ]);
    expect(analysed.code, analysed.stdout).toBe(ExitCode.pass);
    expect(server.recognised).toBe(asked);
    const report = JSON.parse(readFileSync(path.join(dir, 'regraded', 'report.json'), 'utf8'));
    // Every answer was logged under the old module (5 items × (3 samples + greedy) × 2 models,
    // 4 of them JavaScript-graded); the capital's 8 answers are now wrong.
    const answers = report.checks.churn.openItems.answers;
    expect(answers.otherGrader).toBe(32);
    expect(answers.changed).toBe(8);
    expect(report.checks.churn.baseline.accuracy.mean).toBe(0.8);
    const graded = report.checks.churn.comparison.items.map((r: { id: string; grader: string }) => [
      r.id,
      r.grader,
    ]);
    expect(graded).toContainEqual(['fare-as-json', 'module ./travel2.graders.mjs']);
  });
});
