/**
 * promptfoo `javascript` assertions → one grader module per suite (a `module` grader of the
 * repository, docs/security.md). The module the import writes holds, per item, the test's vars
 * and its JavaScript assertions, and decides each answer as promptfoo does:
 *
 * - an inline value is a function body when it spans several lines, else an expression
 *   returned; it runs as `new Function('output', 'context', body)` (sloppy mode, as promptfoo
 *   compiles it), with `output` the answer — parsed when it is a JSON object or list — and
 *   `context` `{prompt, vars, test, config}`;
 * - `file://x.js` calls the file's exported function (its default, or `module.exports`),
 *   `file://x.js:name` its export `name`, the same way; the file stays the suite's own;
 * - true/false passes or fails (`not-javascript` turns it round); a number passes when it
 *   reaches `threshold` (a threshold of 0 or none: when it is above 0), as promptfoo's rule
 *   reads; an object passes by its `pass`; anything else, or a thrown error, fails the answer.
 *   (promptfoo turns neither a number nor an object round for `not-javascript`: nor does this.)
 */
import path from 'node:path';
import { isMapping } from '../render/json.js';
import { renderTemplate } from './template.js';

/** One JavaScript assertion as the generated module runs it. */
export interface ScriptAssertion {
  /** An inline function body, or a file of the suite (absolute) and its export. */
  source: { body: string } | { file: string; fn: string | null };
  threshold: number | null;
  negate: boolean;
  config: unknown;
}

const SCRIPT_FILE = /^(.+\.(?:js|cjs|mjs))(?::([A-Za-z_$][\w$]*))?$/;

/** A `javascript` or `not-javascript` assertion read, or why it is left out. */
export function readScript(
  assertion: Readonly<Record<string, unknown>>,
  vars: Readonly<Record<string, unknown>>,
  dir: string,
  exists: (reference: string) => string | null,
): ScriptAssertion | { skipped: string } {
  const type = String(assertion['type']);
  const value = assertion['value'];
  if (assertion['transform'] !== undefined) {
    return { skipped: `${type}: has a transform (the output is changed before the test)` };
  }
  if (typeof value !== 'string' || value.trim() === '') {
    return { skipped: `${type}: the value is not JavaScript code nor a file://` };
  }
  const threshold = typeof assertion['threshold'] === 'number' ? assertion['threshold'] : null;
  const common = { threshold, negate: type.startsWith('not-'), config: assertion['config'] ?? {} };
  if (value.startsWith('file://')) {
    const reference = value.slice('file://'.length);
    const match = SCRIPT_FILE.exec(reference);
    if (!match?.[1]) {
      return { skipped: `${type}: ${value} is not a JavaScript file (.js, .cjs, .mjs)` };
    }
    const problem = exists(match[1]);
    if (problem !== null) return { skipped: `${type}: ${value}: ${problem}` };
    return { source: { file: path.resolve(dir, match[1]), fn: match[2] ?? null }, ...common };
  }
  // promptfoo renders the value's {{ variables }} before it compiles it.
  const rendered = renderTemplate(value, vars);
  const code = ('text' in rendered ? rendered.text : value).trimEnd();
  const body = code.includes('\n') ? code : `return ${code}`;
  if (/\bawait\b/.test(body)) {
    return { skipped: `${type}: awaits (graders here decide at once, without waiting)` };
  }
  try {
    // Compiled only, never called here: a syntax error is said at import, not at grading.
    new Function('output', 'context', body);
  } catch (error) {
    return { skipped: `${type}: not valid JavaScript (${(error as Error).message})` };
  }
  return { source: { body }, ...common };
}

/** What the module knows of one item: its prompt, its test's vars and its assertions. */
export interface ScriptedItem {
  id: string;
  prompt: string;
  description: string | null;
  vars: Readonly<Record<string, unknown>>;
  scripts: readonly ScriptAssertion[];
}

function importPath(from: string, file: string): string {
  const relative = path.relative(from, file).split(path.sep).join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/** The text of the grader module for these items, written in folder `moduleDir`. */
export function moduleText(
  suiteName: string,
  moduleDir: string,
  items: readonly ScriptedItem[],
): string {
  const bodies: string[] = [];
  const files: string[] = [];
  const entries = items.map((item) => {
    const checks = item.scripts.map((script) => {
      let check: string;
      if ('body' in script.source) {
        bodies.push(script.source.body);
        check = `{ body: ${bodies.length - 1}`;
      } else {
        const at = files.indexOf(script.source.file);
        const index = at === -1 ? files.push(script.source.file) - 1 : at;
        check = `{ file: ${index}, fn: ${JSON.stringify(script.source.fn)}`;
      }
      return `${check}, threshold: ${JSON.stringify(script.threshold)}, negate: ${script.negate}, config: ${JSON.stringify(script.config)} }`;
    });
    const test = {
      vars: item.vars,
      ...(item.description ? { description: item.description } : {}),
    };
    return `  ${JSON.stringify(item.id)}: {\n    prompt: ${JSON.stringify(item.prompt)},\n    test: ${JSON.stringify(test)},\n    checks: [\n      ${checks.join(',\n      ')},\n    ],\n  },`;
  });
  return [
    `// Written by \`model-gate import promptfoo\` from ${JSON.stringify(path.basename(suiteName))}: the suite's`,
    '// JavaScript assertions, decided as promptfoo decides them. It is code of the repository, run',
    '// whenever answers are graded (docs/security.md). Import the suite again rather than edit it.',
    ...files.map(
      (file, i) => `import * as file${i} from ${JSON.stringify(importPath(moduleDir, file))};`,
    ),
    '',
    '/** Inline assertions, compiled as promptfoo compiles them. */',
    'const BODIES = [',
    ...bodies.map((body) => `  ${JSON.stringify(body)},`),
    "].map((body) => new Function('output', 'context', body));",
    '',
    `const FILES = [${files.map((_f, i) => `file${i}`).join(', ')}];`,
    '',
    'const ITEMS = {',
    ...entries,
    '};',
    '',
    RUNTIME,
  ].join('\n');
}

/** The part of the module that is the same for every suite. */
const RUNTIME = `/** The function a file assertion names: its export \`fn\`, or the file's function. */
function fileFunction(exports, fn) {
  const fallback = exports.default;
  const found = fn === null
    ? (typeof fallback === 'function' ? fallback : fallback?.default)
    : (exports[fn] ?? fallback?.[fn]);
  if (typeof found !== 'function') {
    throw new Error(fn === null ? 'the file exports no function' : \`the file exports no function \${fn}\`);
  }
  return found;
}

/** The answer as promptfoo hands it to an assertion: a JSON object or list parsed. */
function outputOf(answer) {
  const text = answer.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return answer;
  try {
    return JSON.parse(text);
  } catch {
    return answer;
  }
}

function passes(check, output, context) {
  let result;
  try {
    const run = 'body' in check ? BODIES[check.body] : fileFunction(FILES[check.file], check.fn);
    result = run(output, { ...context, config: check.config });
  } catch {
    return false;
  }
  if (result !== null && typeof result === 'object' && typeof result.then === 'function') {
    result.then(undefined, () => undefined);
    throw new Error('a JavaScript assertion returned a Promise: graders here decide at once');
  }
  if (typeof result === 'boolean') return result !== check.negate;
  if (typeof result === 'number') return check.threshold ? result >= check.threshold : result > 0;
  if (result !== null && typeof result === 'object' && typeof result.pass === 'boolean') {
    return result.pass;
  }
  return false;
}

export function grade(answer, item) {
  const entry = Object.hasOwn(ITEMS, item.id) ? ITEMS[item.id] : undefined;
  if (entry === undefined) {
    throw new Error(\`no JavaScript assertion for item \${item.id}: import the suite again\`);
  }
  const output = outputOf(answer);
  const context = { prompt: entry.prompt, vars: entry.test.vars, test: entry.test };
  return entry.checks.every((check) => passes(check, output, context));
}
`;

/** Whether an assertion is promptfoo JavaScript (its `not-` form included). */
export function isScript(assertion: unknown): assertion is Record<string, unknown> {
  return (
    isMapping(assertion) &&
    (assertion['type'] === 'javascript' || assertion['type'] === 'not-javascript')
  );
}
