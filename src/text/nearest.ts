/**
 * Which known words a mistyped one was meant to be: a setting's name, a model tag. A word is
 * near when a few edits turn it into the known one, two neighbours swapped counting as one
 * edit ("cnad" for "cand"), so that a message can name the word the user meant.
 */

/** Edits (insert, delete, replace, swap of two neighbours) from `a` to `b`. */
export function editDistance(a: string, b: string): number {
  // Three rows suffice: a swap looks two characters back.
  let before = new Array<number>(b.length + 1).fill(0);
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, (before[j - 2] ?? 0) + 1);
      }
      current.push(best);
    }
    before = previous;
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The known words near enough to `word` to be what was meant, nearest first (ties in the
 * order given). A third of the word's length may be wrong, at least one character: more,
 * and the "suggestion" would be a different word, not the one the user meant.
 */
export function nearWords(word: string, known: readonly string[]): string[] {
  const wanted = word.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  return known
    .map((candidate, order) => ({
      candidate,
      order,
      distance: editDistance(wanted, candidate.toLowerCase()),
    }))
    .filter((c) => c.distance <= limit && c.candidate !== word)
    .sort((x, y) => x.distance - y.distance || x.order - y.order)
    .map((c) => c.candidate);
}

/** `; did you mean "word"?` naming the known word nearest a typo, or nothing when none is near. */
export function didYouMean(word: unknown, known: readonly unknown[]): string {
  if (typeof word !== 'string') return '';
  const words = known.filter((k): k is string => typeof k === 'string');
  const near = nearWords(word, words)[0];
  return near === undefined ? '' : `; did you mean ${JSON.stringify(near)}?`;
}
