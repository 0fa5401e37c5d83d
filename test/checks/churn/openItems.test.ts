/**
 * Open items end to end, on a held-out suite that covers every grader type, served by a fake
 * OpenAI-compatible server (test/support/promptServer.ts) that answers the prompts it knows
 * verbatim: two identical models pass; a candidate that wraps one domain's JSON answers in
 * prose fails naming that domain; the same log, analysed with the JSON grader changed to
 * search the prose, passes with the server gone. Bad graders and malformed open items stop
 * the run with exit 2 before any request.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { ChurnSection } from '../../../src/checks/churn/section.js';
import { ExitCode } from '../../../src/errors.js';
import {
  type PromptCall,
  type PromptServer,
  promptKey,
  startPromptServer,
} from '../../support/promptServer.js';
import { cli } from '../../support/smallRun.js';

interface SuiteItem {
  item: Record<string, unknown>;
  right: string;
  wrong: string;
}

const SHOP = 'You are the support assistant of a shoe shop.';
const invoiceSchema = {
  type: 'object',
  required: ['total', 'currency'],
  properties: { total: { type: 'number' }, currency: { enum: ['EUR', 'USD'] } },
};

function invoice(n: number, total: number): SuiteItem {
  return {
    item: {
      id: `invoice-${n}`,
      domain: 'invoices',
      system: 'Extract data from invoices. Reply with JSON only.',
      prompt: `Invoice ${n}: 3 items, total due ${total} EUR. Give {"total", "currency"}.`,
      expected: { total },
      grader: { type: 'json', schema: invoiceSchema },
    },
    right: JSON.stringify({ total, currency: 'EUR' }),
    wrong: JSON.stringify({ total: total + 10, currency: 'EUR' }),
  };
}

function ticket(id: string, text: string, label: string, wrong: string): SuiteItem {
  return {
    item: {
      id,
      domain: 'support',
      system: SHOP,
      prompt: `Label this ticket as billing, shipping or returns: "${text}"`,
      expected: label,
      grader: { type: 'label', labels: ['billing', 'shipping', 'returns'] },
    },
    right: `**${label[0]?.toUpperCase()}${label.slice(1)}**`,
    wrong,
  };
}

/** The held-out suite: 3 domains × 5 items, every grader type. */
const SUITE: SuiteItem[] = [
  {
    item: {
      id: 'refund-40-days',
      domain: 'support',
      system: SHOP,
      prompt: 'Can a customer return shoes after 40 days? Answer yes or no.',
      expected: 'no',
      grader: 'exact',
    },
    right: 'No.',
    wrong: 'Yes',
  },
  {
    item: {
      id: 'open-sunday',
      domain: 'support',
      system: SHOP,
      prompt: 'Is the shop open on Sundays? Answer yes or no.',
      expected: 'yes',
    },
    right: 'yes',
    wrong: 'It depends.',
  },
  ticket('ticket-parcel', 'My parcel never arrived', 'shipping', 'returns'),
  ticket('ticket-charged-twice', 'I was charged twice', 'billing', 'I cannot tell.'),
  ticket(
    'ticket-too-small',
    'The shoes are too small, I want to send them back',
    'returns',
    'billing',
  ),
  invoice(1, 120.5),
  invoice(2, 89),
  invoice(3, 1250),
  invoice(4, 42.1),
  invoice(5, 300),
  {
    item: {
      id: 'capital',
      domain: 'facts',
      prompt: 'What is the capital of France, and which river crosses it?',
      expected: ['Paris'],
      grader: { type: 'contains', any: ['Seine'] },
    },
    right: 'Paris, crossed by the Seine.',
    wrong: 'Lyon, on the Rhône.',
  },
  {
    item: {
      id: 'order-id',
      domain: 'facts',
      prompt: 'Write a plausible order number in our format ORD-12345.',
      expected: 'ORD-55555',
      grader: { type: 'regex', pattern: '\\bORD-\\d{5}\\b' },
    },
    right: 'ORD-31415',
    wrong: 'Order 31415',
  },
  {
    item: {
      id: 'total-vat',
      domain: 'facts',
      prompt: 'A price of 100 EUR plus 20% VAT comes to how much? Give the number.',
      expected: 120,
      grader: { type: 'number', tolerance: 0.01 },
    },
    right: 'The total is 120.00 EUR.',
    wrong: 'The total is 102 EUR.',
  },
  {
    item: {
      id: 'parity',
      domain: 'facts',
      prompt: 'Is 1234 even or odd? One word.',
      expected: 'even',
      grader: { type: 'module', module: 'graders/parity.mjs' },
    },
    right: 'Even',
    wrong: 'Odd',
  },
  {
    item: {
      id: 'tower',
      domain: 'facts',
      prompt: 'Name the iron tower of Paris and the year it was finished.',
      grader: {
        type: 'all',
        of: [
          { type: 'contains', expected: 'Eiffel' },
          { type: 'regex', pattern: '18\\d\\d' },
        ],
      },
    },
    right: 'The Eiffel Tower, finished in 1889.',
    wrong: 'The Eiffel Tower.',
  },
];

/** 8 of 10 stochastic seeds right (which ones depends on the item), and the greedy one. */
function isRight(index: number, call: PromptCall): boolean {
  return (call.seed * 7 + index * 3) % 10 < 8;
}

function scripts(): Map<string, (call: PromptCall) => string> {
  const map = new Map<string, (call: PromptCall) => string>();
  SUITE.forEach((s, index) => {
    const system = (s.item['system'] as string | undefined) ?? null;
    map.set(promptKey(system, s.item['prompt'] as string), (call) => {
      const answer = isRight(index, call) ? s.right : s.wrong;
      // The broken candidate wraps its JSON in a sentence: a strict JSON grader refuses it.
      return call.model === 'broken' && s.item['domain'] === 'invoices'
        ? `Here is the JSON you asked for: ${answer}`
        : answer;
    });
  });
  return map;
}

function writeSuite(dir: string, searchJson: boolean): void {
  const items = SUITE.map((s) => {
    const grader = s.item['grader'] as Record<string, unknown> | undefined;
    return grader?.['type'] === 'json' && searchJson
      ? { ...s.item, grader: { ...grader, search: true } }
      : s.item;
  });
  writeFileSync(
    path.join(dir, 'items.yml'),
    stringify({ 'max-tokens': 200, items }, { aliasDuplicateObjects: false }),
  );
}

function writeConfig(dir: string, url: string, candidate: string): string {
  const file = path.join(dir, `${candidate}.yml`);
  writeFileSync(
    file,
    stringify({
      models: { baseline: 'base', candidate },
      checks: ['churn'],
      provider: { kind: 'openai', host: url },
      runner: { concurrency: 4, 'timeout-s': 10 },
      output: { dir: path.join(dir, `out-${candidate}`) },
      // The fewest reliability splits: the Reliable Change Index is not what these tests look
      // at, and recomputing it over every split for each null replicate was most of an analysis.
      churn: { items: 'items.yml', samples: 10, splits: 10 },
    }),
  );
  return file;
}

describe('open items against a server that answers them verbatim', () => {
  let server: PromptServer;
  let dir: string;
  beforeAll(async () => {
    server = await startPromptServer(['base', 'twin', 'broken'], scripts());
    dir = mkdtempSync(path.join(tmpdir(), 'mg-open-'));
    mkdirSync(path.join(dir, 'graders'));
    writeFileSync(
      path.join(dir, 'graders', 'parity.mjs'),
      'export function grade(answer, item) {\n  return answer.trim().toLowerCase().replace(/\\.$/, "") === item.expected;\n}\n',
    );
    writeSuite(dir, false);
  });
  afterAll(async () => {
    await server.close().catch(() => undefined);
  });

  const report = (out: string): { checks: { churn: ChurnSection } } =>
    JSON.parse(readFileSync(path.join(dir, out, 'report.json'), 'utf8'));

  it('two identical models pass, every item graded by its own grader', async () => {
    const { code, stdout } = await cli([
      'run',
      '--config',
      writeConfig(dir, server.url, 'twin'),
      '--json',
    ]);
    expect(code, stdout).toBe(ExitCode.pass);
    // The warm-up request of each model is the only prompt the server does not know.
    expect(server.unrecognised).toBe(2);
    const churn = report('out-twin').checks.churn;
    expect(churn.estimator).toBe('sampled');
    if (churn.estimator !== 'sampled') return;
    expect(churn.openItems?.graders).toEqual([
      { type: 'json', items: 5 },
      { type: 'label', items: 3 },
      { type: 'exact', items: 2 },
      { type: 'all', items: 1 },
      { type: 'contains', items: 1 },
      { type: 'module', items: 1 },
      { type: 'number', items: 1 },
      { type: 'regex', items: 1 },
    ]);
    // 8 of 10 right on every item, for both models.
    expect(churn.baseline.accuracy.mean).toBeCloseTo(0.8, 10);
    expect(churn.comparison?.fisherBh.deteriorated).toBe(0);
    const parity = churn.comparison?.items.find((r) => r.id === 'parity');
    expect(parity?.grader).toBe('module graders/parity.mjs');
    expect(parity?.graderFingerprint).toMatch(/^graders\/1:[0-9a-f]{12}$/);
    const ticketRow = churn.comparison?.items.find((r) => r.id === 'ticket-charged-twice');
    expect(ticketRow?.offLabel).toEqual([2, 2]);
    const log = readFileSync(path.join(dir, 'out-twin', 'samples.jsonl'), 'utf8');
    const first = log
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((r) => r.item === 'tower' && r.correct === true);
    expect(first).toMatchObject({
      text: 'The Eiffel Tower, finished in 1889.',
      answer: 'all 2 passed',
    });
  });

  it('a candidate that breaks the JSON of one domain fails, naming that domain', async () => {
    const before = server.requests;
    const { code, stdout } = await cli([
      'run',
      '--config',
      writeConfig(dir, server.url, 'broken'),
      '--json',
    ]);
    expect(code, stdout).toBe(ExitCode.regression);
    // 15 items × (10 + greedy) × 2 models, plus the model listings.
    expect(server.requests - before).toBeGreaterThanOrEqual(330);
    const answer = JSON.parse(stdout) as {
      reasons: { rule: string; message: string; severity: string }[];
    };
    const loss = answer.reasons.filter((r) => r.rule === 'domain-loss' && r.severity === 'fail');
    expect(loss.map((r) => r.message.split(':')[0])).toEqual(['invoices']);
    const churn = report('out-broken').checks.churn;
    if (churn.estimator !== 'sampled') throw new Error('sampled expected');
    const flagged = churn.comparison?.items.filter((r) => r.fisherBh === 'deteriorated') ?? [];
    expect(flagged.map((r) => r.id).sort()).toEqual([
      'invoice-1',
      'invoice-2',
      'invoice-3',
      'invoice-4',
      'invoice-5',
    ]);
    // The evidence: a right and a wrong answer of each model, as logged.
    const first = flagged.find((r) => r.id === 'invoice-1');
    expect(first?.examples?.baseline.correct).toBe('{"total":120.5,"currency":"EUR"}');
    expect(first?.examples?.candidate.correct).toBeNull();
    expect(first?.examples?.candidate.wrong).toMatch(/^Here is the JSON you asked for: /);
    const summary = readFileSync(path.join(dir, 'out-broken', 'summary.md'), 'utf8');
    expect(summary).toContain('Answers behind the flagged open items \\(5\\)');
    expect(summary).toContain('json \\(schema, 1 field\\)');
  });

  it('the same log with a changed JSON grader passes, with no server', async () => {
    await server.close();
    writeSuite(dir, true);
    const log = path.join(dir, 'out-broken', 'samples.jsonl');
    const { code, stdout } = await cli([
      'analyze',
      '--log',
      log,
      '--config',
      path.join(dir, 'broken.yml'),
      '--out',
      path.join(dir, 'regraded'),
      '--json',
    ]);
    expect(code, stdout).toBe(ExitCode.pass);
    const churn = report('regraded').checks.churn;
    if (churn.estimator !== 'sampled') throw new Error('sampled expected');
    expect(churn.comparison?.fisherBh.deteriorated).toBe(0);
    // Every invoice answer of both models was logged under the old grader: 5 × 11 × 2.
    expect(churn.openItems?.answers.otherGrader).toBe(110);
    // The candidate's right answers in prose (8 of 11 per item) changed verdict.
    expect(churn.openItems?.answers.changed).toBe(5 * 8 + 5 * 0 + countGreedyRight());
    const row = churn.comparison?.items.find((r) => r.id === 'invoice-1');
    expect(row?.grader).toBe('json (schema, 1 field, searched)');
  });
});

describe('adaptive sampling: a changed grader keeps the stops the run made', () => {
  let server: PromptServer;
  let dir: string;
  beforeAll(async () => {
    server = await startPromptServer(['base', 'broken'], scripts());
    dir = mkdtempSync(path.join(tmpdir(), 'mg-open-adaptive-'));
    mkdirSync(path.join(dir, 'graders'));
    writeFileSync(
      path.join(dir, 'graders', 'parity.mjs'),
      'export function grade(answer, item) { return answer.trim().toLowerCase() === item.expected; }\n',
    );
    writeSuite(dir, false);
  });
  afterAll(async () => {
    await server.close().catch(() => undefined);
  });

  it('the new verdict from the same log, resumed or analysed: nothing asked, complete, each item stopped where the run stopped it', async () => {
    const config = writeConfig(dir, server.url, 'broken');
    const settingsFile = readFileSync(config, 'utf8').replace(
      'samples: 10',
      'samples: 10\n  sampling: adaptive',
    );
    writeFileSync(config, settingsFile);
    const run = await cli(['run', '--config', config, '--json']);
    expect(run.code, run.stdout).toBe(ExitCode.regression);
    // A run resumed after the grader changed finds every record current: no sample is asked.
    writeSuite(dir, true);
    const asked = server.recognised;
    const resumed = await cli(['run', '--config', config, '--json']);
    expect(resumed.code, resumed.stdout).toBe(ExitCode.pass);
    expect(server.recognised).toBe(asked);
    await server.close();
    const again = await cli([
      'analyze',
      '--log',
      path.join(dir, 'out-broken', 'samples.jsonl'),
      '--config',
      config,
      '--out',
      path.join(dir, 'regraded'),
      '--json',
    ]);
    expect(again.code, again.stdout).toBe(ExitCode.pass);
    expect(JSON.parse(again.stdout).incomplete).toBeNull();
    const read = (out: string) =>
      JSON.parse(readFileSync(path.join(dir, out, 'report.json'), 'utf8')).checks.churn;
    expect(read('regraded').sampling).toEqual(read('out-broken').sampling);
  });
});

/** Greedy answers (seed 42) of the invoices that the script makes right. */
function countGreedyRight(): number {
  return SUITE.filter(
    (s, i) => s.item['domain'] === 'invoices' && isRight(i, { seed: 42 } as PromptCall),
  ).length;
}

describe('bad graders and malformed open items', () => {
  let server: PromptServer;
  let dir: string;
  beforeAll(async () => {
    server = await startPromptServer(['base', 'cand'], new Map());
    dir = mkdtempSync(path.join(tmpdir(), 'mg-open-bad-'));
  });
  afterAll(async () => {
    await server.close();
  });

  const BAD = [
    '# open items with one mistake each',
    '- id: bad-regex',
    '  prompt: "Order number?"',
    '  grader: {type: regex, pattern: "ORD-(\\\\d+"}',
    '- id: bad-schema',
    '  prompt: "Invoice?"',
    '  grader: {type: json, schema: {type: object, propertes: {total: {type: number}}}}',
    '- id: missing-module',
    '  prompt: "Parity?"',
    '  grader: {type: module, module: graders/absent.mjs}',
    '- id: empty-prompt',
    '  prompt: "   "',
    '  expected: "yes"',
    '- id: off-labels',
    '  prompt: "Label it"',
    '  expected: refunds',
    '  grader: {type: label, labels: [billing, shipping]}',
    '- id: no-grader',
    '  prompt: "Say something"',
    '- id: zero-tokens',
    '  prompt: "Short"',
    '  expected: "ok"',
    '  max-tokens: 0',
  ].join('\n');

  it('exit 2 before any request, each problem with file, line of its field and item', async () => {
    writeFileSync(path.join(dir, 'items.yml'), `${BAD}\n`);
    const config = path.join(dir, 'model-gate.yml');
    writeFileSync(
      config,
      stringify({
        models: { baseline: 'base', candidate: 'cand' },
        checks: ['churn'],
        provider: { kind: 'openai', host: server.url },
        output: { dir: path.join(dir, 'out') },
        churn: { items: 'items.yml' },
      }),
    );
    const { code, stderr } = await cli(['run', '--config', config]);
    expect(code).toBe(ExitCode.badInput);
    expect(server.requests).toBe(0);
    const lines = stderr.split('\n');
    expect(lines[0]).toBe('model-gate: items.yml: 7 invalid items');
    expect(lines.slice(1, 8)).toEqual([
      expect.stringMatching(
        /^ {2}- items\.yml:4 \(item "bad-regex"\): grader regex: pattern "ORD-\(\\\\d\+" is not a valid regular expression: /,
      ),
      '  - items.yml:7 (item "bad-schema"): grader json: schema is not a usable JSON Schema: strict mode: unknown keyword: "propertes"',
      '  - items.yml:10 (item "missing-module"): grader module: module "graders/absent.mjs" not found (paths are relative to the items file)',
      '  - items.yml:12 (item "empty-prompt"): prompt must be a non-empty text',
      '  - items.yml:17 (item "off-labels"): grader label: expected "refunds" is not one of the labels (billing, shipping)',
      '  - items.yml:18 (item "no-grader"): no grader: give `expected` (graded exact) or a `grader`',
      '  - items.yml:23 (item "zero-tokens"): max-tokens 0: expected an integer from 1 to 32768',
    ]);
  });

  it('a grader module without grade(), and the logprobs estimator, are refused the same way', async () => {
    mkdirSync(path.join(dir, 'graders'), { recursive: true });
    writeFileSync(path.join(dir, 'graders', 'nothing.mjs'), 'export const answer = 42;\n');
    writeFileSync(
      path.join(dir, 'items.yml'),
      '- id: parity\n  prompt: "Is 4 even?"\n  grader: {type: module, module: graders/nothing.mjs}\n',
    );
    const config = path.join(dir, 'model-gate.yml');
    const noGrade = await cli(['run', '--config', config]);
    expect(noGrade.code).toBe(ExitCode.badInput);
    expect(noGrade.stderr).toContain(
      'items.yml:1 (item "parity"): grader module "graders/nothing.mjs" does not export a function grade(answer, item)',
    );
    writeFileSync(
      path.join(dir, 'items.yml'),
      '- id: yes-no\n  prompt: "Yes?"\n  expected: "yes"\n',
    );
    const exact = path.join(dir, 'logprobs.yml');
    writeFileSync(
      exact,
      stringify({
        models: { baseline: 'base', candidate: 'cand' },
        checks: ['churn'],
        provider: { kind: 'openai', host: server.url },
        output: { dir: path.join(dir, 'out') },
        churn: { items: 'items.yml', estimator: 'logprobs' },
      }),
    );
    const logprobs = await cli(['run', '--config', exact]);
    expect(logprobs.code).toBe(ExitCode.badInput);
    expect(logprobs.stderr).toContain(
      'churn.estimator: logprobs reads the probability of each answer letter, and 1 item(s) of items.yml are open items with free-form answers (first: yes-no, line 1)',
    );
    expect(server.requests).toBe(0);
  });
});
