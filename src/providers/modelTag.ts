import { nearWords } from '../text/nearest.js';
import { neutralise } from '../text/neutralise.js';

/** Ollama names an untagged model "x:latest": the name a server lists it under. */
export function withTag(model: string): string {
  return model.includes(':') ? model : `${model}:latest`;
}

/** Most tags a message lists: a server may hold hundreds. */
const LISTED = 8;
/** A served name is the server's text: shown made safe and cut to this length. */
const TAG_SHOWN = 120;

/**
 * The served tags that `model` was probably meant to be, nearest first: a tag a typo away
 * (`demo-cnad:1b` for `demo-cand:1b`), then the same model under another tag (`qwen2.5:14b`
 * for `qwen2.5:7b`).
 */
export function nearTags(model: string, served: readonly string[]): string[] {
  const tagged = served.map(withTag);
  const typos = nearWords(withTag(model), tagged).map((t) => served[tagged.indexOf(t)] as string);
  const name = withTag(model).split(':')[0];
  const siblings = served.filter((_, i) => tagged[i]?.split(':')[0] === name);
  return [...new Set([...typos, ...siblings])];
}

/** "the server has: a, b, c (and 12 more)", the tags nearest `model` first. */
export function servedTags(model: string, served: readonly string[], where: string): string {
  if (served.length === 0) return `${where} has no models`;
  const ordered = [...new Set([...nearTags(model, served), ...served])];
  const more = ordered.length > LISTED ? ` (and ${ordered.length - LISTED} more)` : '';
  const shown = ordered.slice(0, LISTED).map((tag) => neutralise(tag, TAG_SHOWN));
  return `${where} has: ${shown.join(', ')}${more}`;
}
