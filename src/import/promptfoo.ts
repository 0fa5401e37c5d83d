/**
 * `model-gate import promptfoo <config>`: an items file of open items from a promptfoo suite.
 * Each test, for each prompt, becomes one item: the prompt rendered with the test's variables
 * (system and user texts as a JSON chat gives them), its deterministic assertions turned into
 * the item's grader (several: `all` of them), its domain from `metadata.domain` or
 * `metadata.category`. Every test or assertion left out is listed with its reason, and so is
 * every conversion that tests something slightly different from promptfoo's; the items written
 * are validated as `run` would read them.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { type AssertionSite, convertAssertion } from './promptfooAssertions.js';
import { readSuite, type SuitePrompt, type SuiteTest } from './promptfooSuite.js';
import { readData } from './suiteFiles.js';
import { renderTemplate } from './template.js';
import type { Importer, ReadOptions } from './types.js';

interface Converted {
  item: Record<string, unknown>;
  notes: string[];
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

function testLabel(test: SuiteTest, index: number): string {
  return `test ${index + 1}${test.description ? ` ${JSON.stringify(test.description)}` : ''}`;
}

function domainOf(test: SuiteTest): string {
  for (const key of ['domain', 'category']) {
    const value = test.metadata[key];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return 'general';
}

/** The grader of a test's assertions: one, or `all` of several; null when none converts. */
function graderOf(
  test: SuiteTest,
  site: AssertionSite,
): { grader: Record<string, unknown> | null; notes: string[] } {
  const graders: Record<string, unknown>[] = [];
  const notes: string[] = [];
  for (const assertion of test.assert) {
    const converted = convertAssertion(assertion, site);
    if ('skipped' in converted) notes.push(`not converted: ${converted.skipped}`);
    else {
      graders.push(converted.grader);
      if (converted.note) notes.push(converted.note);
    }
  }
  if (test.threshold !== null && graders.length > 1) {
    notes.push(`threshold ${test.threshold}: every converted assertion must pass`);
  }
  if (graders.length <= 1) return { grader: graders[0] ?? null, notes };
  return { grader: { type: 'all', of: graders }, notes };
}

/** One item of one test and prompt, or why there is none. */
function convert(
  test: SuiteTest,
  prompt: SuitePrompt,
  dir: string,
  missing: Set<string>,
): Converted | { problem: string; notes: string[] } {
  if (test.problem) return { problem: test.problem, notes: [] };
  if (prompt.user === null) return { problem: prompt.problem ?? 'unreadable prompt', notes: [] };
  const user = renderTemplate(prompt.user, test.vars);
  if ('problem' in user) return { problem: user.problem, notes: [] };
  const system = prompt.system === null ? null : renderTemplate(prompt.system, test.vars);
  if (system !== null && 'problem' in system) return { problem: system.problem, notes: [] };
  for (const name of [...user.missing, ...(system?.missing ?? [])]) missing.add(name);
  const site = {
    vars: test.vars,
    csv: test.csv,
    readSchema: (ref: string) => readData(dir, ref),
    missing,
  };
  const { grader, notes } = graderOf(test, site);
  if (grader === null) {
    return { problem: 'no deterministic assertion to grade the answer with', notes };
  }
  const expected = grader['type'] !== 'all' ? grader['expected'] : undefined;
  const { expected: _inline, ...rest } = grader;
  return {
    item: {
      domain: domainOf(test),
      ...(system === null ? {} : { system: system.text }),
      prompt: user.text,
      ...(expected === undefined ? {} : { expected }),
      grader: expected === undefined ? grader : rest,
    },
    notes,
  };
}

function uniqueId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

function read(file: string, { name, check }: ReadOptions) {
  const suite = readSuite(file, name);
  const items: Record<string, unknown>[] = [];
  const report: string[] = [...suite.notes];
  const taken = new Set<string>();
  /** Per variable, the tests whose prompt or assertions name it without a value. */
  const undefinedVars = new Map<string, number>();
  suite.tests.forEach((test, t) => {
    const missing = new Set<string>();
    const base = slug(test.description ?? '') || `test-${t + 1}`;
    suite.prompts.forEach((prompt, p) => {
      const where = `${testLabel(test, t)}${suite.prompts.length > 1 ? `, ${prompt.label}` : ''}`;
      const converted = convert(test, prompt, suite.dir, missing);
      const problems = 'item' in converted ? check({ id: 'x', ...converted.item }, suite.dir) : [];
      for (const note of converted.notes) report.push(`${where}: ${note}`);
      if ('problem' in converted || problems.length > 0) {
        const why = 'problem' in converted ? converted.problem : problems.join('; ');
        report.push(`${where}: left out: ${why}`);
        return;
      }
      const id = uniqueId(suite.prompts.length > 1 ? `${base}-p${p + 1}` : base, taken);
      items.push({ id, ...converted.item });
    });
    for (const name of missing) undefinedVars.set(name, (undefinedVars.get(name) ?? 0) + 1);
  });
  for (const [name, count] of undefinedVars) {
    report.push(
      `{{ ${name} }}: no value in ${count} ${count === 1 ? 'test' : 'tests'}: rendered empty, as promptfoo renders it`,
    );
  }
  if (items.length === 0) {
    throw new InputError(`${name}: no test could be converted to an open item`, report);
  }
  return { items, warnings: report };
}

/** Bytes read to tell a promptfoo config by its keys. */
const SNIFF_BYTES = 64 * 1024;

/** The config's usual name, or top-level `prompts:` and `tests:` keys near its start. */
function detect(file: string): boolean {
  if (/^promptfooconfig\.(ya?ml|json)$/i.test(path.basename(file))) return true;
  let head = '';
  try {
    const fd = openSync(file, 'r');
    try {
      const buffer = Buffer.alloc(SNIFF_BYTES);
      head = buffer.toString('utf8', 0, readSync(fd, buffer, 0, SNIFF_BYTES, 0));
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  const key = (name: string) => new RegExp(`(?:^|[{,])\\s*"?${name}"?\\s*:`, 'm');
  return key('prompts').test(head) && key('tests').test(head);
}

export const promptfoo: Importer = {
  format: 'promptfoo',
  description:
    "Open items from a promptfoo suite: each test's prompt with its vars rendered, its deterministic assertions (equals, contains, icontains, contains-all, contains-any, starts-with, regex, is-json, contains-json, and the not- form of each) as the grader; what is left out is listed on stderr",
  example: 'model-gate import promptfoo promptfooconfig.yaml --out items/promptfoo.yml',
  header: [
    "each test's prompt rendered with its vars, its deterministic assertions as the grader.",
  ],
  detect,
  read,
};
