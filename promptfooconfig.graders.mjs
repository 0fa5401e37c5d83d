// Written by `model-gate import promptfoo` from "promptfooconfig.yaml": the suite's
// JavaScript assertions, decided as promptfoo decides them. It is code of the repository, run
// whenever answers are graded (docs/security.md). Import the suite again rather than edit it.

/** Inline assertions, compiled as promptfoo compiles them. */
const BODIES = [
  "return JSON.stringify(output).length < 100 && output.order > 0",
].map((body) => new Function('output', 'context', body));

const FILES = [];

const ITEMS = {
  "order-json": {
    prompt: "Give order 4471 as JSON with field order.",
    test: {"vars":{"shop":"Sole Mates","question":"Give order 4471 as JSON with field order."},"description":"Order JSON"},
    checks: [
      { body: 0, threshold: null, negate: false, config: {} },
    ],
  },
};

/** The function a file assertion names: its export `fn`, or the file's function. */
function fileFunction(exports, fn) {
  const fallback = exports.default;
  const found = fn === null
    ? (typeof fallback === 'function' ? fallback : fallback?.default)
    : (exports[fn] ?? fallback?.[fn]);
  if (typeof found !== 'function') {
    throw new Error(fn === null ? 'the file exports no function' : `the file exports no function ${fn}`);
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
    throw new Error(`no JavaScript assertion for item ${item.id}: import the suite again`);
  }
  const output = outputOf(answer);
  const context = { prompt: entry.prompt, vars: entry.test.vars, test: entry.test };
  return entry.checks.every((check) => passes(check, output, context));
}
