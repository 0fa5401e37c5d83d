/**
 * `model-gate import promptfoo <config>`: an items file of open items from a promptfoo suite.
 * Each test, for each prompt, becomes one item: the prompt rendered with the test's variables
 * (system and user texts as a JSON chat gives them), its deterministic assertions turned into
 * the item's grader (several: `all` of them), its domain from `metadata.domain` or
 * `metadata.category`. JavaScript assertions become one grader module per suite, written beside
 * the items file (promptfooScripts.ts). Every test or assertion left out is listed with its reason, and so is
 * every conversion that tests something slightly different from promptfoo's; the items written
 * are validated as `run` would read them.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { isMapping } from '../render/json.js';
import { type AssertionSite, convertAssertion } from './promptfooAssertions.js';
import { isScript, moduleText, readScript, type ScriptAssertion } from './promptfooScripts.js';
import { readSuite, type SuitePrompt, type SuiteTest } from './promptfooSuite.js';
import { readData, readText } from './suiteFiles.js';
import { renderTemplate } from './template.js';
import type { Importer, ReadOptions } from './types.js';

interface Converted {
  item: Record<string, unknown>;
  notes: string[];
  outcomes: Outcome[];
  scripts: ScriptAssertion[];
}

/** Where the suite's JavaScript assertions go: the module's path as items name it. */
interface Scripting {
  /** The suite's folder: `file://` scripts are relative to it. */
  dir: string;
  /** The generated module, relative to the items file; null when the items are printed. */
  module: string | null;
  /** Why a script file of the suite cannot be used, or null. */
  exists(reference: string): string | null;
}

/** What became of one assertion of a test: its type, converted or why not. */
interface Outcome {
  type: string;
  converted: boolean;
  /** Not a check of the answer that needs no model: model-graded, or a per-call limit. */
  apart: boolean;
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
  scripting: Scripting,
): Omit<Converted, 'item'> & { grader: Record<string, unknown> | null } {
  const graders: Record<string, unknown>[] = [];
  const notes: string[] = [];
  const outcomes: Outcome[] = [];
  const scripts: ScriptAssertion[] = [];
  for (const assertion of test.assert) {
    if (isScript(assertion)) {
      const script =
        scripting.module === null
          ? {
              skipped: `${assertion['type']}: needs --out (its grader module is written beside the items file)`,
            }
          : readScript(assertion, test.vars, scripting.dir, scripting.exists);
      outcomes.push({
        type: String(assertion['type']),
        converted: 'source' in script,
        apart: false,
      });
      if ('skipped' in script) notes.push(`not converted: ${script.skipped}`);
      else scripts.push(script);
      continue;
    }
    const converted = convertAssertion(assertion, site);
    outcomes.push({
      type:
        isMapping(assertion) && typeof assertion['type'] === 'string'
          ? assertion['type']
          : '(no type)',
      converted: 'grader' in converted,
      apart:
        'skipped' in converted && (converted.needsModel === true || converted.perCall === true),
    });
    if ('skipped' in converted) notes.push(`not converted: ${converted.skipped}`);
    else {
      graders.push(converted.grader);
      if (converted.note) notes.push(converted.note);
    }
  }
  // All of a test's JavaScript assertions are one module grader: the module decides them all.
  if (scripts.length > 0 && scripting.module !== null) {
    graders.push({ type: 'module', module: scripting.module });
  }
  if (test.threshold !== null && graders.length > 1) {
    notes.push(`threshold ${test.threshold}: every converted assertion must pass`);
  }
  if (graders.length <= 1) return { grader: graders[0] ?? null, notes, outcomes, scripts };
  return { grader: { type: 'all', of: graders }, notes, outcomes, scripts };
}

/**
 * The closing table: per assertion type, how many were converted (into a grader of an item
 * written) and how many left out, then the totals; an assertion of a test left out whole is
 * left out. Counted once per test (`outcomes`: those of the test's first item written).
 */
function assertionTable(tests: readonly SuiteTest[], outcomes: Map<number, Outcome[]>): string[] {
  const rows = new Map<string, { converted: number; left: number; model: number }>();
  tests.forEach((test, t) => {
    test.assert.forEach((a, i) => {
      const type = isMapping(a) && typeof a['type'] === 'string' ? a['type'] : '(no type)';
      const outcome = outcomes.get(t)?.[i];
      const row = rows.get(type) ?? { converted: 0, left: 0, model: 0 };
      if (outcome?.converted) row.converted++;
      else {
        row.left++;
        if (outcome?.apart ?? setApart(type)) row.model++;
      }
      rows.set(type, row);
    });
  });
  const sorted = [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const width = Math.max(20, ...sorted.map(([type]) => type.length));
  const line = (a: string, b: string, c: string) =>
    `${a.padEnd(width)}  ${b.padStart(9)}  ${c.padStart(8)}`;
  let converted = 0;
  let left = 0;
  let model = 0;
  const body = sorted.map(([type, row]) => {
    converted += row.converted;
    left += row.left;
    model += row.model;
    return line(type, String(row.converted), String(row.left));
  });
  const noModel = converted + left - model;
  const share = (n: number, of: number) => (of === 0 ? '-' : `${Math.round((100 * n) / of)}%`);
  return [
    line('promptfoo assertion', 'converted', 'left out'),
    ...body,
    line('total', String(converted), String(left)),
    `${converted} of ${converted + left} assertions converted (${share(converted, converted + left)}); ${converted} of the ${noModel} that check the answer without a model (${share(converted, noModel)}; model-graded ones and per-call limits set apart)`,
  ];
}

/** Whether a type is model-graded or a per-call limit, for a test left out whole. */
function setApart(type: string): boolean {
  const converted = convertAssertion({ type }, { vars: {}, csv: false, readSchema: () => null });
  return 'skipped' in converted && (converted.needsModel === true || converted.perCall === true);
}

/** One item of one test and prompt, or why there is none. */
function convert(
  test: SuiteTest,
  prompt: SuitePrompt,
  dir: string,
  missing: Set<string>,
  scripting: Scripting,
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
  const { grader, notes, outcomes, scripts } = graderOf(test, site, scripting);
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
    outcomes,
    scripts,
  };
}

function uniqueId(base: string, taken: Set<string>): string {
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** One item made (not yet checked), or why a test and prompt made none. */
interface Attempt {
  where: string;
  test: number;
  converted: Converted | { problem: string; notes: string[] };
  id: string | null;
}

function scripting(suiteDir: string, itemsFile: string | null): Scripting {
  const stem = itemsFile === null ? null : path.basename(itemsFile, path.extname(itemsFile));
  return {
    dir: suiteDir,
    module: stem === null ? null : `./${stem}.graders.mjs`,
    exists(reference) {
      try {
        readText(suiteDir, reference);
        return null;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
  };
}

function read(file: string, { name, check, itemsFile, write }: ReadOptions) {
  const suite = readSuite(file, name);
  const outDir = path.dirname(path.resolve(itemsFile ?? file));
  const scripts = scripting(suite.dir, itemsFile);
  const report: string[] = [...suite.notes];
  const taken = new Set<string>();
  /** Per variable, the tests whose prompt or assertions name it without a value. */
  const undefinedVars = new Map<string, number>();
  const attempts: Attempt[] = [];
  suite.tests.forEach((test, t) => {
    const missing = new Set<string>();
    const base = slug(test.description ?? '') || `test-${t + 1}`;
    suite.prompts.forEach((prompt, p) => {
      const where = `${testLabel(test, t)}${suite.prompts.length > 1 ? `, ${prompt.label}` : ''}`;
      const converted = convert(test, prompt, suite.dir, missing, scripts);
      const id =
        'item' in converted
          ? uniqueId(suite.prompts.length > 1 ? `${base}-p${p + 1}` : base, taken)
          : null;
      attempts.push({ where, test: t, converted, id });
    });
    for (const name of missing) undefinedVars.set(name, (undefinedVars.get(name) ?? 0) + 1);
  });
  // The module is written before the items are checked: a module grader is read from its file.
  const scripted = attempts.flatMap(({ converted, id, test }) =>
    'item' in converted && id !== null && converted.scripts.length > 0
      ? [
          {
            id,
            prompt: String(converted.item['prompt']),
            description: suite.tests[test]?.description ?? null,
            vars: suite.tests[test]?.vars ?? {},
            scripts: converted.scripts,
          },
        ]
      : [],
  );
  if (scripted.length > 0 && scripts.module !== null) {
    write(path.join(outDir, scripts.module), moduleText(name, outDir, scripted));
    const count = scripted.reduce((n, item) => n + item.scripts.length, 0);
    report.push(
      `wrote ${scripts.module} beside the items file: JavaScript code (${count} ${count === 1 ? 'assertion' : 'assertions'} of ${scripted.length} ${scripted.length === 1 ? 'item' : 'items'}, run whenever answers are graded, as every grader module of the repository: docs/security.md)`,
    );
  }
  const items: Record<string, unknown>[] = [];
  const outcomes = new Map<number, Outcome[]>();
  /** A test's notes are the same for each prompt: said once, under the test's name. */
  const noted = new Set<number>();
  for (const { where, test, converted, id } of attempts) {
    const problems = 'item' in converted ? check({ id: id ?? 'x', ...converted.item }, outDir) : [];
    if (converted.notes.length > 0 && !noted.has(test)) {
      noted.add(test);
      const label = testLabel(suite.tests[test] as SuiteTest, test);
      for (const note of converted.notes) report.push(`${label}: ${note}`);
    }
    if ('problem' in converted || problems.length > 0) {
      const why = 'problem' in converted ? converted.problem : problems.join('; ');
      report.push(`${where}: left out: ${why}`);
      continue;
    }
    if (!outcomes.has(test)) outcomes.set(test, converted.outcomes);
    items.push({ id, ...converted.item });
  }
  for (const [name, count] of undefinedVars) {
    report.push(
      `{{ ${name} }}: no value in ${count} ${count === 1 ? 'test' : 'tests'}: rendered empty, as promptfoo renders it`,
    );
  }
  if (items.length === 0) {
    throw new InputError(`${name}: no test could be converted to an open item`, report);
  }
  return { items, warnings: report, summary: assertionTable(suite.tests, outcomes) };
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
    "Open items from a promptfoo suite: each test's prompt with its vars rendered, its deterministic assertions (equals, contains, icontains, contains-all, contains-any, starts-with, regex, is-json, contains-json, and the not- form of each) as the grader, its javascript assertions as a grader module written beside the items file; what is left out is listed on stderr, with a table per assertion type",
  example: 'model-gate import promptfoo promptfooconfig.yaml --out items/promptfoo.yml',
  header: [
    "each test's prompt rendered with its vars, its deterministic assertions as the grader,",
    'its JavaScript assertions decided by the grader module written beside this file.',
  ],
  detect,
  read,
};
