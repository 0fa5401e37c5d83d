/**
 * Spearman–Brown prophecy: the reliability of a test lengthened by a factor k, from the
 * reliability r of the original, r_k = k·r / (1 + (k − 1)·r). With k = 2 it turns the
 * correlation between two half-tests into the reliability of the whole: 2r / (1 + r).
 */
export function spearmanBrown(r: number, lengthFactor = 2): number {
  if (!(lengthFactor > 0)) {
    throw new RangeError(`spearmanBrown needs a positive length factor, got ${lengthFactor}`);
  }
  return (lengthFactor * r) / (1 + (lengthFactor - 1) * r);
}
