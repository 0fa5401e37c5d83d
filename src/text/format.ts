/**
 * How numbers, shares, signed changes, seed lists, counts and error messages read, in every
 * sentence, table cell and chart label: gates and renderers use these, so one value reads the
 * same in a finding, the summary and a chart. Text for people writes a negative number with
 * the minus sign U+2212 ("−0.012"); hyphens stay for words and ranges of names. Values that
 * a program reads (report.json, action outputs, CLI lines meant for parsing) are numbers, or
 * `machineNumber`'s plain JavaScript spelling, never these strings.
 *
 * No imports: every stage may use this module.
 */

/** U+2212, the sign of a negative number in prose and tables. */
export const MINUS = '\u2212';
/** Shown in place of a value that is missing or not a finite number. */
export const MISSING = '–';

type Maybe = number | null | undefined;

function isFiniteNumber(value: Maybe): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** Drops trailing zeros of a fixed-point spelling: "2.50" → "2.5", "3.00" → "3". */
function dropZeros(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/**
 * The magnitude rounded to `digits`, and whether anything is left of it: a value that rounds
 * to zero shows no sign, since "−0.000" would claim a direction the digits do not show.
 */
function magnitude(value: number, digits: number, trim: boolean): { shown: string; zero: boolean } {
  const fixed = Math.abs(value).toFixed(digits);
  return { shown: trim ? dropZeros(fixed) : fixed, zero: Number(fixed) === 0 };
}

export interface DigitsOptions {
  /** Drop trailing zeros ("2.5" rather than "2.50"). */
  trim?: boolean;
}

/** Fixed digits: 0.4123 → "0.412", −0.5 → "−0.500"; "–" when missing. */
export function num(value: Maybe, digits = 3, options: DigitsOptions = {}): string {
  if (!isFiniteNumber(value)) return MISSING;
  const { shown, zero } = magnitude(value, digits, options.trim ?? false);
  return value < 0 && !zero ? `${MINUS}${shown}` : shown;
}

/** Fixed digits with trailing zeros dropped: 2.50 → "2.5", 3 → "3". */
export function trimmed(value: Maybe, digits = 1): string {
  return num(value, digits, { trim: true });
}

/** Always signed: "+0.012", "−0.012", and "±0.000" for a value that rounds to zero. */
export function signed(value: Maybe, digits = 3, options: DigitsOptions = {}): string {
  if (!isFiniteNumber(value)) return MISSING;
  const { shown, zero } = magnitude(value, digits, options.trim ?? false);
  if (zero) return `±${shown}`;
  return `${value > 0 ? '+' : MINUS}${shown}`;
}

/** A share as a percentage: 0.1234 → "12.3%". */
export function percent(value: Maybe, digits = 1, options: DigitsOptions = {}): string {
  if (!isFiniteNumber(value)) return MISSING;
  return `${num(value * 100, digits, options)}%`;
}

/**
 * A change of a share in signed percentage points: 0.028 → "+2.8 pts". `unit` is the word
 * after the number ("points" in sentences where "pts" reads abbreviated).
 */
export function points(value: Maybe, digits = 1, unit = 'pts'): string {
  if (!isFiniteNumber(value)) return MISSING;
  return `${signed(value * 100, digits)} ${unit}`;
}

/** A confidence or significance level: 0.95 → "95%", 0.975 → "97.5%". */
export function levelText(value: number): string {
  return percent(value, 1, { trim: true });
}

/**
 * A p-value, which spans many decades: fixed digits from 0.001 up, exponent notation below
 * ("4.2e−5", with the minus sign).
 */
export function pValue(p: Maybe, digits = 3): string {
  if (!isFiniteNumber(p)) return MISSING;
  if (p !== 0 && Math.abs(p) < 0.001) return p.toExponential(1).replace('-', MINUS);
  return num(p, digits);
}

/**
 * A p-value to `figures` significant figures ("0.0023", "0.43"), exponent notation below
 * 0.0001 ("4.2e−5").
 */
export function pValueFigures(p: Maybe, figures = 2): string {
  if (!isFiniteNumber(p)) return MISSING;
  if (p !== 0 && Math.abs(p) < 0.0001) return p.toExponential(1).replace('-', MINUS);
  return p.toPrecision(figures);
}

/** "[0.412, 0.533]"; "–" when either end is missing. */
export function interval(
  low: Maybe,
  high: Maybe,
  format: (v: number) => string = (v) => num(v, 3),
): string {
  if (!isFiniteNumber(low) || !isFiniteNumber(high)) return MISSING;
  return `[${format(low)}, ${format(high)}]`;
}

/**
 * Seeds (or any integers) as sorted runs: [3, 1, 2, 9, 9] → "1–3, 9". Duplicates count once;
 * an empty list gives "".
 */
export function seedRanges(seeds: readonly number[]): string {
  const sorted = [...new Set(seeds)].sort((a, b) => a - b);
  const runs: string[] = [];
  let start = 0;
  for (let i = 1; i <= sorted.length; i++) {
    const previous = sorted[i - 1] as number;
    if (i < sorted.length && sorted[i] === previous + 1) continue;
    const first = sorted[start] as number;
    runs.push(first === previous ? String(first) : `${first}–${previous}`);
    start = i;
  }
  return runs.join(', ');
}

/** A count with its noun: (1, "item") → "1 item", (3, "item") → "3 items". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** The message of anything thrown: an Error's message, otherwise its string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A number for a program to read (action outputs, parsable lines): at most `decimals`
 * decimal places, trailing zeros dropped, the plain hyphen for negatives, "" when missing.
 */
export function machineNumber(value: Maybe, decimals: number): string {
  if (!isFiniteNumber(value)) return '';
  const rounded = Number(value.toFixed(decimals));
  return String(Object.is(rounded, -0) ? 0 : rounded);
}
