/**
 * Fitting many texts into a size budget (report.html): the longest texts are shortened first,
 * so every short text stays whole and only the few long ones are cut, to the same length.
 */

/**
 * The largest length L such that Σ min(length, L) ≤ budget; Infinity when every text fits
 * whole. Lengths and budget are in characters.
 */
export function lengthCap(lengths: readonly number[], budget: number): number {
  let total = 0;
  for (const length of lengths) total += length;
  if (total <= budget) return Number.POSITIVE_INFINITY;
  const sorted = [...lengths].sort((a, b) => a - b);
  let below = 0;
  for (let i = 0; i < sorted.length; i++) {
    const remaining = sorted.length - i;
    // Every text from i on is cut to the same length: what is left, shared equally.
    const cap = Math.floor((budget - below) / remaining);
    if (cap <= (sorted[i] as number)) return Math.max(0, cap);
    below += sorted[i] as number;
  }
  return Number.POSITIVE_INFINITY;
}

/** The text cut to at most `cap` characters, an ellipsis ending a shortened one. */
export function shorten(text: string, cap: number): string {
  if (text.length <= cap) return text;
  let end = Math.max(0, Math.floor(cap) - 1);
  const code = text.charCodeAt(end - 1);
  // Never half of a surrogate pair.
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
