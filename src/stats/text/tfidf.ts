/**
 * TF-IDF vectors of tokenised documents, the weighting the persona analysis uses:
 *
 *   tf(t, d)  = count of t in d / number of tokens in d     (0 for an empty document)
 *   idf(t)    = ln((1 + n) / (1 + df(t))) + 1                (smooth idf, n documents,
 *                                                             df = documents containing t)
 *   row(d)    = tf · idf, scaled to unit length (L2)
 *
 * The smoothing keeps a word found in every document at weight 1 instead of 0, as the
 * common scikit-learn default does, so the rows stay comparable to that reference.
 */
import { normalise } from './vectors.js';

export interface TfidfMatrix {
  /** Words in sorted order: column j of every row is vocabulary[j]. */
  vocabulary: string[];
  idf: number[];
  /** One unit-length row per document (a zero row for a document without words). */
  rows: number[][];
}

export function tfidf(documents: readonly (readonly string[])[]): TfidfMatrix {
  const vocabulary = [...new Set(documents.flat())].sort();
  const column = new Map(vocabulary.map((word, j) => [word, j]));
  const n = documents.length;

  const counts = documents.map((tokens) => {
    const row = new Array<number>(vocabulary.length).fill(0);
    for (const token of tokens) {
      const j = column.get(token) ?? 0;
      row[j] = (row[j] ?? 0) + 1;
    }
    return row;
  });

  const documentFrequency = new Array<number>(vocabulary.length).fill(0);
  for (const row of counts) {
    row.forEach((count, j) => {
      if (count > 0) documentFrequency[j] = (documentFrequency[j] ?? 0) + 1;
    });
  }
  const idf = documentFrequency.map((df) => Math.log((1 + n) / (1 + df)) + 1);

  const rows = counts.map((row, i) => {
    const length = documents[i]?.length ?? 0;
    return normalise(row.map((count, j) => (length === 0 ? 0 : count / length) * (idf[j] ?? 0)));
  });
  return { vocabulary, idf, rows };
}
