/**
 * Token counts as a server reports them are untrusted numbers: a count is kept only when it is
 * a whole number, 0 or more, that a double holds exactly; anything else is unknown (null). The
 * sample log refuses a negative count when it is read back, so one must never be written.
 */
export function countOrNull(value: unknown): number | null {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : null;
}
