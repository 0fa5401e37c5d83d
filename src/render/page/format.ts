/** How the page writes numbers: the same conventions as summary.md (minus sign U+2212). */
const MINUS = '\u2212';
export const MISSING = '–';

const finite = (v: number | null | undefined): v is number =>
  typeof v === 'number' && Number.isFinite(v);

export function num(v: number | null | undefined, digits = 3): string {
  if (!finite(v)) return MISSING;
  const fixed = Math.abs(v).toFixed(digits);
  return v < 0 && Number(fixed) !== 0 ? `${MINUS}${fixed}` : fixed;
}

export function pct(v: number | null | undefined, digits = 1): string {
  return finite(v) ? `${num(v * 100, digits)}%` : MISSING;
}

export function signed(v: number | null | undefined, digits = 2): string {
  if (!finite(v)) return MISSING;
  const shown = num(Math.abs(v), digits);
  if (Number(Math.abs(v).toFixed(digits)) === 0) return `±${shown}`;
  return `${v > 0 ? '+' : MINUS}${shown}`;
}

/** A p-value: fixed digits from 0.001 up, exponent notation below. */
export function pValue(v: number | null | undefined): string {
  if (!finite(v)) return MISSING;
  if (v !== 0 && v < 0.001) return v.toExponential(1).replace('-', MINUS);
  return v.toFixed(3);
}
