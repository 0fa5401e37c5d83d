/**
 * `model-gate import promptfoo <config>`: an items file of open items from a promptfoo suite.
 * Each test, for each prompt, becomes one item: the prompt rendered with the test's variables
 * (system and user texts as a JSON chat gives them), its deterministic assertions turned into
 * the item's grader (several: `all` of them), its domain from `metadata.domain` or
 * `metadata.category`. Every test or assertion left out is listed with its reason, and so is
 * every conversion that tests something slightly different from promptfoo's; the items written
 * are validated as `run` would read them.
 */
import path from 'node:path';
import { stringify } from 'yaml';
import { InputError } from '../../../errors.js';
import { DEFAULT_MAX_TOKENS, validateOpenItem } from '../openItems.js';
import { type AssertionSite, convertAssertion } from './promptfooAssertions.js';
import { readData, readSuite, type SuitePrompt, type SuiteTest } from './promptfooSuite.js';
import { renderTemplate } from './template.js';

export interface PromptfooImport {
  /** The items file, YAML, its header saying what was left out. */
  text: string;
  items: number;
  /** One line per test (or prompt) left out or converted with a difference. */
  report: string[];
}

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
): Converted | { problem: string; notes: string[] } {
  if (test.problem) return { problem: test.problem, notes: [] };
  if (prompt.user === null) return { problem: prompt.problem ?? 'unreadable prompt', notes: [] };
  const user = renderTemplate(prompt.user, test.vars);
  if ('problem' in user) return { problem: user.problem, notes: [] };
  const system = prompt.system === null ? null : renderTemplate(prompt.system, test.vars);
  if (system !== null && 'problem' in system) return { problem: system.problem, notes: [] };
  const site = { vars: test.vars, csv: test.csv, readSchema: (ref: string) => readData(dir, ref) };
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

/** Checks a converted item as `run` will read it; its problems, if any. */
function problemsOf(item: Record<string, unknown>, dir: string): string[] {
  const read = validateOpenItem(
    item,
    0,
    { name: 'item', baseDir: dir, maxTokens: DEFAULT_MAX_TOKENS },
    [],
  );
  return Array.isArray(read) ? read.map((problem) => problem.message) : [];
}

export function importPromptfoo(file: string, name = file): PromptfooImport {
  const suite = readSuite(file, name);
  const items: Record<string, unknown>[] = [];
  const report: string[] = [];
  const taken = new Set<string>();
  suite.tests.forEach((test, t) => {
    const base = slug(test.description ?? '') || `test-${t + 1}`;
    suite.prompts.forEach((prompt, p) => {
      const where = `${testLabel(test, t)}${suite.prompts.length > 1 ? `, ${prompt.label}` : ''}`;
      const converted = convert(test, prompt, suite.dir);
      const problems =
        'item' in converted ? problemsOf({ id: 'x', ...converted.item }, suite.dir) : [];
      for (const note of converted.notes) report.push(`${where}: ${note}`);
      if ('problem' in converted || problems.length > 0) {
        const why = 'problem' in converted ? converted.problem : problems.join('; ');
        report.push(`${where}: left out: ${why}`);
        return;
      }
      const id = uniqueId(suite.prompts.length > 1 ? `${base}-p${p + 1}` : base, taken);
      items.push({ id, ...converted.item });
    });
  });
  if (items.length === 0) {
    throw new InputError(`${name}: no test could be converted to an open item`, report);
  }
  return { text: itemsText(name, items, report), items: items.length, report };
}

function itemsText(name: string, items: Record<string, unknown>[], report: string[]): string {
  const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, ' ');
  const header = [
    `# Open items converted from ${oneLine(path.basename(name))} by \`model-gate import promptfoo\`:`,
    "# each test's prompt rendered with its vars, its deterministic assertions as the grader.",
    ...(report.length === 0
      ? ['# Every test converted as it is.']
      : ['# Left out, or converted with a difference:', ...report.map((r) => `#   ${oneLine(r)}`)]),
    '',
  ];
  return `${header.join('\n')}${stringify(items, { aliasDuplicateObjects: false, lineWidth: 0 })}`;
}
