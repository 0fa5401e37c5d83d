// A grader module for docs/examples/open-items.yml: the answer's first word, lower-cased and
// without punctuation, is the item's expected word.
export function grade(answer, item) {
  const word = answer.trim().split(/\s+/)[0] ?? '';
  return word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '') === String(item.expected);
}
