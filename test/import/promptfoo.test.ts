/**
 * `model-gate import promptfoo`: a promptfoo suite with deterministic assertions converts into
 * open items that validate and run; assertions that cannot convert (model-graded, code,
 * negated) are listed per test; test files in CSV, chat prompts and defaultTest are read.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { importSuite } from '../../src/checks/churn/commands.js';
import { parseItems } from '../../src/checks/churn/items.js';
import type { OpenItem } from '../../src/checks/churn/openItems.js';
import { ExitCode } from '../../src/errors.js';
import { graders } from '../../src/graders/index.js';
import { promptfoo } from '../../src/import/promptfoo.js';
import { convertAssertion } from '../../src/import/promptfooAssertions.js';
import { type PromptServer, promptKey, startPromptServer } from '../support/promptServer.js';
import { cli } from '../support/smallRun.js';

const SUITE = {
  description: 'support bot',
  prompts: ['file://chat.json'],
  providers: ['openai:gpt-4o-mini'],
  defaultTest: { vars: { shop: 'Sole Mates' }, metadata: { category: 'support' } },
  tests: [
    {
      description: 'Refund after 40 days',
      vars: { question: 'Can I return shoes after 40 days? Answer yes or no.' },
      assert: [{ type: 'equals', value: 'No' }],
    },
    {
      description: 'Opening hours',
      vars: { question: 'When do you open?' },
      assert: [
        { type: 'icontains', value: '9 am' },
        { type: 'contains-any', value: ['Monday', 'weekdays'] },
        { type: 'llm-rubric', value: 'is friendly' },
      ],
    },
    {
      description: 'Order JSON',
      vars: { question: 'Give order 4471 as JSON with field order.' },
      metadata: { category: 'orders' },
      assert: [
        {
          type: 'is-json',
          value: {
            type: 'object',
            required: ['order'],
            properties: { order: { type: 'integer' } },
          },
        },
        { type: 'javascript', value: 'JSON.stringify(output).length < 100 && output.order > 0' },
      ],
    },
    {
      description: 'Reference format',
      vars: { question: 'Return reference for order 4471?' },
      metadata: { category: 'orders' },
      assert: [
        { type: 'starts-with', value: 'RET-' },
        { type: 'regex', value: 'RET-\\d{4}' },
        { type: 'not-contains', value: 'sorry' },
      ],
    },
    {
      description: 'Only judged',
      vars: { question: 'Tell me a joke' },
      assert: [{ type: 'llm-rubric', value: 'is funny' }],
    },
    'file://more.csv',
  ],
};

const CHAT = JSON.stringify([
  { role: 'system', content: 'You are the support assistant of {{ shop }}.' },
  { role: 'user', content: '{{ question }}' },
]);

const CSV = [
  'question,__expected,__description',
  '"Free shipping above how many EUR, one number?",contains: 50,Free shipping',
  'Which carrier do you use?,"contains-all: DHL,tracking",Carrier',
  'Is it raining?,similar: no,Weather',
].join('\n');

/** A right answer per converted item id. */
const RIGHT: Record<string, string> = {
  'refund-after-40-days': 'No',
  'opening-hours': 'We open at 9 AM, Monday to Friday.',
  'order-json': '{"order": 4471}',
  'reference-format': 'RET-4471-SM',
  'free-shipping': 'Above 50 EUR.',
  carrier: 'DHL, with tracking.',
};

describe('model-gate import promptfoo', () => {
  let dir: string;
  let server: PromptServer;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mg-promptfoo-'));
    writeFileSync(path.join(dir, 'promptfooconfig.yaml'), stringify(SUITE));
    writeFileSync(path.join(dir, 'chat.json'), CHAT);
    writeFileSync(path.join(dir, 'more.csv'), `${CSV}\n`);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('converts the deterministic assertions and lists what it left out, per test', async () => {
    const result = importSuite(
      promptfoo,
      path.join(dir, 'promptfooconfig.yaml'),
      'promptfooconfig.yaml',
    );
    expect(result.items).toBe(6);
    expect(result.report.filter((line) => line.startsWith('wrote '))).toEqual([
      expect.stringMatching(
        /promptfooconfig\.graders\.mjs beside the items file: JavaScript code \(1 assertion of 1 item, run whenever answers are graded/,
      ),
    ]);
    expect(result.report.filter((line) => !line.startsWith('wrote '))).toEqual([
      'not used: top-level description: the items file names the suite it came from',
      'not used: top-level providers: the models compared come from model-gate.yml',
      'test 1 "Refund after 40 days": equals: compared after trimming spaces and line breaks at both ends',
      'test 2 "Opening hours": not converted: llm-rubric: needs a judge model (model-graded)',
      'test 3 "Order JSON": is-json: an answer that is one fenced code block holding JSON is also accepted',
      'test 5 "Only judged": not converted: llm-rubric: needs a judge model (model-graded)',
      'test 5 "Only judged": left out: no deterministic assertion to grade the answer with',
      'test 8 "Weather": not converted: similar: needs embeddings (the answer\'s similarity to the value is measured on embedding vectors)',
      'test 8 "Weather": left out: no deterministic assertion to grade the answer with',
    ]);
    const { items } = parseItems(result.text, 'items.yml', dir);
    const open = items as OpenItem[];
    expect(open.map((i) => [i.id, i.domain, i.grader.description])).toEqual([
      ['refund-after-40-days', 'support', 'exact (case and full stop kept)'],
      ['opening-hours', 'support', 'all of contains, contains'],
      ['order-json', 'orders', 'all of json, module'],
      ['reference-format', 'orders', 'all of regex, regex, not'],
      ['free-shipping', 'support', 'contains (all of 1, case kept)'],
      ['carrier', 'support', 'contains (all of 2, case kept)'],
    ]);
    // Variables rendered in the chat file's system and user messages (defaultTest's `shop`).
    expect(open[3]?.prompt).toBe('Return reference for order 4471?');
    expect(open[4]?.system).toBe('You are the support assistant of Sole Mates.');
    expect(result.text).toMatch(/^# Open items converted from promptfooconfig\.yaml/);
    for (const item of open) {
      await item.grader.prepare();
      expect(item.grader.grade(RIGHT[item.id] as string).correct, item.id).toBe(true);
    }
  });

  it('writes the file, validates and runs it: two identical models pass', async () => {
    const out = path.join(dir, 'items.yml');
    const imported = await cli([
      'import',
      'promptfoo',
      path.join(dir, 'promptfooconfig.yaml'),
      '--out',
      out,
    ]);
    expect(imported.code).toBe(ExitCode.pass);
    expect(imported.stdout).toMatch(/^wrote .*items\.yml: 6 open items \(10 notes above\)/);
    expect(imported.stderr).toContain(
      'model-gate import: test 2 "Opening hours": not converted: llm-rubric: needs a judge model (model-graded)',
    );
    const items = parseItems(readFileSync(out, 'utf8'), 'items.yml', dir).items as OpenItem[];
    const scripts = new Map(
      items.map((item) => [promptKey(item.system, item.prompt), () => RIGHT[item.id] as string]),
    );
    server = await startPromptServer(['base', 'twin'], scripts);
    const config = path.join(dir, 'model-gate.yml');
    writeFileSync(
      config,
      stringify({
        models: { baseline: 'base', candidate: 'twin' },
        checks: ['churn'],
        provider: { kind: 'openai', host: server.url },
        output: { dir: path.join(dir, 'out') },
        churn: { items: 'items.yml', samples: 4 },
      }),
    );
    expect((await cli(['validate', '--config', config])).code).toBe(ExitCode.pass);
    const run = await cli(['run', '--config', config, '--json']);
    expect(run.code, run.stdout).toBe(ExitCode.pass);
    // 6 items × (4 samples + greedy) × 2 models; the 2 warm-ups are the only unknown prompts.
    expect(server.unrecognised).toBe(2);
    const report = JSON.parse(readFileSync(path.join(dir, 'out', 'report.json'), 'utf8'));
    expect(report.checks.churn.baseline.accuracy.mean).toBe(1);
    expect(report.checks.churn.baseline.requests.total).toBe(30);
  });

  it('to standard output without --out; nothing convertible is bad input', async () => {
    const printed = await cli(['import', 'promptfoo', path.join(dir, 'promptfooconfig.yaml')]);
    expect(printed.stdout).toMatch(/^# Open items converted/);
    const judged = path.join(dir, 'judged.yaml');
    writeFileSync(
      judged,
      stringify({
        prompts: ['{{q}}'],
        tests: [{ vars: { q: 'hi' }, assert: [{ type: 'llm-rubric', value: 'x' }] }],
      }),
    );
    const none = await cli(['import', 'promptfoo', judged]);
    expect(none.code).toBe(ExitCode.badInput);
    expect(none.stderr).toContain('judged.yaml: no test could be converted to an open item');
  });
});

describe('promptfoo not- assertions', () => {
  const site = { vars: { word: 'sorry' }, csv: false, readSchema: () => ({}) };
  const item = { id: 'q', domain: 'd', prompt: 'p', system: null, expected: null };
  const verdicts = (assertion: Record<string, unknown>, answers: string[]) => {
    const converted = convertAssertion(assertion, site);
    if (!('grader' in converted)) throw new Error(converted.skipped);
    const problems: string[] = [];
    const grader = graders.build(
      converted.grader,
      undefined,
      { baseDir: '.', where: 'x', item },
      problems,
    );
    expect(problems).toEqual([]);
    return answers.map((a) => grader?.grade(a).correct);
  };

  it('turns each converted type round, as promptfoo does', () => {
    expect(
      verdicts({ type: 'not-contains', value: '{{ word }}' }, ['Fine.', 'sorry', 'Sorry']),
    ).toEqual([true, false, true]);
    expect(verdicts({ type: 'not-icontains', value: 'sorry' }, ['Fine.', 'SORRY'])).toEqual([
      true,
      false,
    ]);
    expect(verdicts({ type: 'not-equals', value: 'No' }, ['No', 'no', ' No '])).toEqual([
      false,
      true,
      false,
    ]);
    expect(verdicts({ type: 'not-contains-any', value: ['a', 'b'] }, ['xyz', 'xaz'])).toEqual([
      true,
      false,
    ]);
    expect(verdicts({ type: 'not-contains-all', value: ['a', 'b'] }, ['ab', 'a'])).toEqual([
      false,
      true,
    ]);
    expect(verdicts({ type: 'not-starts-with', value: 'RET-' }, ['RET-1', 'x RET-1'])).toEqual([
      false,
      true,
    ]);
    expect(verdicts({ type: 'not-regex', value: '\\d{4}' }, ['1234', '12'])).toEqual([false, true]);
    expect(verdicts({ type: 'not-is-json' }, ['{"a": 1}', 'plain text'])).toEqual([false, true]);
    expect(verdicts({ type: 'not-contains-json' }, ['see {"a": 1}', 'none'])).toEqual([
      false,
      true,
    ]);
  });

  it('says why a not- form is left out, in the words of its type', () => {
    expect(convertAssertion({ type: 'not-llm-rubric', value: 'rude' }, site)).toEqual({
      skipped: 'not-llm-rubric: needs a judge model (model-graded)',
      needsModel: true,
    });
    expect(convertAssertion({ type: 'not-javascript', value: 'x' }, site)).toEqual({
      skipped: 'not-javascript: a code assertion',
    });
    expect(convertAssertion({ type: 'not-contains', value: { a: 1 } }, site)).toEqual({
      skipped: 'not-contains: a value that is not a text',
    });
    expect(
      convertAssertion({ type: 'not-equals', value: 'x', transform: 'output.trim()' }, site),
    ).toEqual({
      skipped: 'not-equals: has a transform (the output is changed before the test)',
    });
    expect(convertAssertion({ type: 'not-is-json' }, site)).toEqual({
      grader: { type: 'not', of: { type: 'json' } },
      note: 'not-is-json: an answer that is one fenced code block holding JSON is also accepted',
    });
  });
});
