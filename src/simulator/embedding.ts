/**
 * Simulated embeddings: a hashed bag of words, L2-normalised. Texts sharing words get close
 * vectors, which is all the personas check needs from an embedding model in tests.
 */
import { createHash } from 'node:crypto';

export const EMBEDDING_DIMENSIONS = 256;

export function embedText(text: string): number[] {
  const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    const hash = createHash('sha256').update(word).digest();
    const slot = hash.readUInt32BE(0) % EMBEDDING_DIMENSIONS;
    const sign = (hash[4] ?? 0) & 1 ? 1 : -1;
    vector[slot] = (vector[slot] ?? 0) + sign;
  }
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((x) => x / norm);
}
