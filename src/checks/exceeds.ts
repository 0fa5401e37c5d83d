/**
 * "More than the limit", read as the user who wrote the limit reads it. Gate values are often
 * differences or products of shares (4/10 − 3/10, 29% of 100), and binary floating point puts
 * those a hair off the decimal value: 0.4 − 0.3 is 0.10000000000000003, 0.29 × 100 is
 * 28.999999999999996. Without a margin, a rise of exactly 10 points would "exceed" a 10-point
 * limit and 29 items would exceed 29% of 100. Two unequal shares a/n and b/m with n, m up to
 * 10 000 differ by at least 1/(n·m) = 1e-8, well above the margin, so no real excess is lost.
 */
export const LIMIT_MARGIN = 1e-9;

export function exceeds(value: number, limit: number): boolean {
  return value > limit + LIMIT_MARGIN;
}
