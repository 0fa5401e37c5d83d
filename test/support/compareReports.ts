/**
 * Field-by-field comparison of two report.json files (model-gate.report/1): the expected one,
 * written by a release, and the one the code under test wrote from the same sample logs.
 * Every field is compared: numbers within a relative 1e-9, strings, booleans and nulls
 * exactly, objects key by key, arrays index by index. The exceptions are three explicit lists
 * below, each entry with its reason; anything not listed that differs is a difference.
 *
 * Used by test/golden/equivalence.test.ts and scripts/compare-reports.ts (for large logs).
 */

/** One step of a path: an object key or an array index. */
type Segment = string | number;

/**
 * A path pattern: dot-separated keys, `[n]` for an index; `*` matches any one key or index,
 * `**` any number of steps (none included). `run.requests[*].meanLatencyMs`.
 */
export type PathPattern = string;

/**
 * Fields that differ between two analyses of the same logs for reasons other than the
 * analysis itself. They are not compared at all.
 */
export const IGNORED: readonly { path: PathPattern; why: string }[] = [
  { path: 'createdAt', why: 'the time the report was written' },
  { path: 'tool.version', why: 'the version of the code that wrote the report' },
];

/**
 * Prose: sentences whose wording may improve while what they say stays. Each must still be a
 * string; the numbers they quote are compared through the structured fields beside them
 * (a reason's `values`).
 */
export const WORDING: readonly { path: PathPattern; why: string }[] = [
  {
    path: 'verdict.reasons[*].message',
    why: "a reason's sentence; its check, rule, severity and values are compared",
  },
  {
    path: 'verdict.suppressed[*].message',
    why: "a suppressed reason's sentence; its check, rule, severity and values are compared",
  },
];

/**
 * Numbers allowed to move by more than 1e-9: a Monte-Carlo estimate whose random stream had
 * to change, or a quantity now approximated. Each entry states its tolerance (`relative` of
 * the larger magnitude, or `absolute`) and why. Empty: every number is the release's.
 */
export const TOLERANCES: readonly {
  path: PathPattern;
  relative?: number;
  absolute?: number;
  why: string;
}[] = [];

/** Numbers agree when within this share of the larger magnitude. */
export const RELATIVE_TOLERANCE = 1e-9;
/**
 * …or when both are this close to zero: a sum of terms that cancel comes out as 0 or as
 * 5.6e-17 depending on the order of the additions, and no relative bound can hold between
 * them. Far below any p-value, rate or interval the gate reads.
 */
export const ZERO_TOLERANCE = 1e-15;

export interface Difference {
  /** Where, as `checks.churn.comparison.items[3].pValue`. */
  path: string;
  /** The ids of the array elements on the way (`items[3]` is law-04), to find the item. */
  where: string;
  expected: unknown;
  actual: unknown;
  /** What differs: a value, a type, a missing or extra field, a length. */
  what: string;
}

export interface CompareOptions {
  ignored?: readonly { path: PathPattern }[];
  wording?: readonly { path: PathPattern }[];
  tolerances?: readonly { path: PathPattern; relative?: number; absolute?: number }[];
}

/** Every difference between `expected` and `actual`, in document order. */
export function compareReports(
  expected: unknown,
  actual: unknown,
  options: CompareOptions = {},
): Difference[] {
  const rules: Rules = {
    ignored: (options.ignored ?? IGNORED).map((p) => parsePattern(p.path)),
    wording: (options.wording ?? WORDING).map((p) => parsePattern(p.path)),
    tolerances: (options.tolerances ?? TOLERANCES).map((t) => ({
      pattern: parsePattern(t.path),
      relative: t.relative ?? 0,
      absolute: t.absolute ?? 0,
    })),
  };
  const out: Difference[] = [];
  walk(expected, actual, [], [], rules, out);
  return out;
}

interface Rules {
  ignored: Segment[][];
  wording: Segment[][];
  tolerances: { pattern: Segment[]; relative: number; absolute: number }[];
}

function walk(
  expected: unknown,
  actual: unknown,
  at: Segment[],
  where: string[],
  rules: Rules,
  out: Difference[],
): void {
  if (rules.ignored.some((p) => matches(p, at))) return;
  const push = (what: string, e: unknown = expected, a: unknown = actual) =>
    out.push({ path: formatPath(at), where: where.join(', '), expected: e, actual: a, what });
  const kindE = kindOf(expected);
  const kindA = kindOf(actual);
  if (kindE !== kindA) {
    push(`type: ${kindE} expected, ${kindA} found`);
    return;
  }
  if (kindE === 'number') {
    if (!numbersAgree(expected as number, actual as number, at, rules)) push('value');
  } else if (kindE === 'string') {
    if (expected !== actual && !rules.wording.some((p) => matches(p, at))) push('value');
  } else if (kindE === 'array') {
    const e = expected as unknown[];
    const a = actual as unknown[];
    if (e.length !== a.length) push('length', e.length, a.length);
    for (let i = 0; i < Math.min(e.length, a.length); i++) {
      const id = identity(e[i]);
      walk(
        e[i],
        a[i],
        [...at, i],
        id ? [...where, `${formatPath([...at, i])} is ${id}`] : where,
        rules,
        out,
      );
    }
  } else if (kindE === 'object') {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    for (const key of Object.keys(e)) {
      if (!(key in a)) {
        if (!rules.ignored.some((p) => matches(p, [...at, key])))
          out.push({
            path: formatPath([...at, key]),
            where: where.join(', '),
            expected: e[key],
            actual: undefined,
            what: 'missing',
          });
      } else walk(e[key], a[key], [...at, key], where, rules, out);
    }
    for (const key of Object.keys(a)) {
      if (!(key in e) && !rules.ignored.some((p) => matches(p, [...at, key])))
        out.push({
          path: formatPath([...at, key]),
          where: where.join(', '),
          expected: undefined,
          actual: a[key],
          what: 'extra field',
        });
    }
  } else if (expected !== actual) push('value');
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function numbersAgree(e: number, a: number, at: Segment[], rules: Rules): boolean {
  if (e === a) return true;
  const gap = Math.abs(e - a);
  const scale = Math.max(Math.abs(e), Math.abs(a));
  if (gap <= RELATIVE_TOLERANCE * scale || gap <= ZERO_TOLERANCE) return true;
  return rules.tolerances.some(
    (t) => matches(t.pattern, at) && (gap <= t.relative * scale || gap <= t.absolute),
  );
}

/** An array element's own name, when it has one: items, reasons, rules, assistants. */
function identity(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const record = value as Record<string, unknown>;
  for (const key of ['id', 'item', 'rule', 'model', 'assistant', 'name', 'seed']) {
    const named = record[key];
    if (typeof named === 'string' || typeof named === 'number') return `${key} ${named}`;
  }
  return null;
}

const IDENTIFIER = /^[A-Za-z_$][\w$-]*$/;

export function formatPath(at: readonly Segment[]): string {
  let text = '';
  for (const step of at) {
    if (typeof step === 'number') text += `[${step}]`;
    else if (IDENTIFIER.test(step)) text += text === '' ? step : `.${step}`;
    else text += `[${JSON.stringify(step)}]`;
  }
  return text === '' ? '(root)' : text;
}

/** `a.b[*].c["odd key"]` into its steps; `*` and `**` stay as wildcards. */
export function parsePattern(pattern: PathPattern): Segment[] {
  const steps: Segment[] = [];
  const token = /\.?([A-Za-z_$*][\w$*-]*)|\[(\d+|\*|"(?:[^"\\]|\\.)*")\]/y;
  let rest = 0;
  while (rest < pattern.length) {
    token.lastIndex = rest;
    const found = token.exec(pattern);
    if (!found) throw new Error(`path pattern ${pattern}: cannot read from character ${rest}`);
    const [, key, bracket] = found;
    if (key !== undefined) steps.push(key);
    else if (bracket === '*') steps.push('*');
    else if (bracket?.startsWith('"')) steps.push(JSON.parse(bracket) as string);
    else steps.push(Number(bracket));
    rest = token.lastIndex;
  }
  return steps;
}

function matches(pattern: readonly Segment[], at: readonly Segment[]): boolean {
  if (pattern.length === 0) return at.length === 0;
  const [head, ...tail] = pattern;
  if (head === '**') {
    for (let skip = 0; skip <= at.length; skip++) if (matches(tail, at.slice(skip))) return true;
    return false;
  }
  if (at.length === 0) return false;
  if (head !== '*' && head !== at[0]) return false;
  return matches(tail, at.slice(1));
}

/** The differences as lines: path, both values, and the ids on the way. At most `limit`. */
export function formatDifferences(differences: readonly Difference[], limit = 50): string {
  const shown = differences.slice(0, limit).map((d) => {
    const context = d.where === '' ? '' : `  (${d.where})`;
    return `${d.path}: ${d.what}\n    expected ${show(d.expected)}\n    actual   ${show(d.actual)}${context}`;
  });
  if (differences.length > limit) shown.push(`… and ${differences.length - limit} more`);
  return shown.join('\n');
}

function show(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = JSON.stringify(value);
  return text.length > 300 ? `${text.slice(0, 300)}… (${text.length} characters)` : text;
}
