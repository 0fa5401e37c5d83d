/**
 * The persona catalogue: which assistants are declared (name → system prompt), which of them
 * are controls, and the probes every assistant answers. YAML, validated here so that a
 * mistake is reported with the file, the line and what was expected, before anything runs.
 *
 *   language: en                  # en | fr | [fr, en]: which stop-word lists to use
 *   stop-words: [kitchen]         # optional extra stop words
 *   assistants:
 *     technique: "You teach ..."  # a name and its system prompt, or:
 *     taste:
 *       prompt: "You help ..."
 *       paraphrase-of: flavour    # control: same ground, other words (must be confused)
 *     recipe-review:
 *       prompt: "People send ..."
 *       inverse-of: flavour       # control: same ground, reacts instead of explaining
 *   probes:
 *     - "A question every assistant could answer"
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isMap, isScalar, isSeq, type Node, type Pair, type YAMLMap } from 'yaml';
import { decodeUserText } from '../../config/textFile.js';
import { parseYamlDocument } from '../../config/yaml.js';
import { MAX_CATALOGUE_BYTES, refuseOversized } from '../../config/limits.js';
import { InputError } from '../../errors.js';
import type { StopWordLanguage } from '../../stats/text/stopWords.js';
import type { ControlKind, PersonasAssistant } from './section.js';

export interface CatalogueAssistant extends PersonasAssistant {
  prompt: string;
}

export interface PersonasCatalogue {
  /** The path as the user gave it, for messages and the report. */
  file: string;
  /** The first language listed (the only one, usually). */
  language: StopWordLanguage;
  /** Every language listed: stop words are the union of their lists. */
  languages: StopWordLanguage[];
  extraStopWords: string[];
  assistants: CatalogueAssistant[];
  probes: string[];
  /** SHA-256 of the normalised content: two runs on the same catalogue share it. */
  sha256: string;
}

/** Names end up in sample-log keys, file names and tables: keep them plain. */
const NAME = /^[\p{L}\p{N}][\p{L}\p{N}_-]*$/u;
const MAX_NAME = 64;
/** The rules a name follows, said whenever one is refused. */
export const NAME_RULES = `a name starts with a letter or digit, holds only letters, digits, "-" and "_", at most ${MAX_NAME} characters (it appears in sample-log keys and tables); __proto__, constructor and prototype are reserved`;
const TOP_LEVEL = ['language', 'stop-words', 'assistants', 'probes'];
const ASSISTANT_KEYS = ['prompt', 'paraphrase-of', 'inverse-of'];
const CONTROL_KEYS: Record<string, ControlKind> = {
  'paraphrase-of': 'paraphrase',
  'inverse-of': 'inverse',
};

export async function readCatalogue(
  absolutePath: string,
  shownAs: string,
): Promise<PersonasCatalogue> {
  refuseOversized(absolutePath, shownAs, MAX_CATALOGUE_BYTES, 'persona catalogue');
  let bytes: Buffer;
  try {
    bytes = await readFile(absolutePath);
  } catch {
    throw new InputError(`${shownAs}: persona catalogue not found`, [
      'set personas.catalogue in model-gate.yml to a YAML file with language, assistants and probes',
    ]);
  }
  return parseCatalogue(decodeUserText(bytes, shownAs), shownAs);
}

export function parseCatalogue(text: string, file: string): PersonasCatalogue {
  const { doc, lineCounter } = parseYamlDocument(text, file);
  const problems: string[] = [];
  const at = (node: Node | Pair | null | undefined): string => {
    const range =
      node && 'range' in node
        ? node.range
        : node && 'key' in node
          ? (node.key as Node)?.range
          : null;
    return range ? `line ${lineCounter.linePos(range[0]).line}: ` : '';
  };
  const root = doc.contents;
  if (!isMap(root)) {
    throw new InputError(`${file}: expected a mapping with language, assistants and probes`, [
      root === null ? 'the file is empty' : `${at(root)}found ${describe(root)}`,
    ]);
  }

  for (const pair of root.items) {
    const key = keyOf(pair);
    if (!TOP_LEVEL.includes(key)) {
      problems.push(`${at(pair)}${key}: unknown field (known: ${TOP_LEVEL.join(', ')})`);
    }
  }

  const languages = readLanguage(root, problems, at);
  const language = languages[0] ?? 'en';
  const extraStopWords = readStopWords(root, problems, at);
  const assistants = readAssistants(root, problems, at);
  const probes = readProbes(root, problems, at);

  if (problems.length > 0) {
    throw new InputError(
      `${file}: ${problems.length === 1 ? 'invalid persona catalogue' : `${problems.length} problems in the persona catalogue`}`,
      problems,
    );
  }
  const sha256 = createHash('sha256')
    // One language hashes as before, so a single-language catalogue keeps its hash.
    .update(
      JSON.stringify({
        language: languages.length === 1 ? language : languages,
        extraStopWords,
        assistants,
        probes,
      }),
    )
    .digest('hex');
  return { file, language, languages, extraStopWords, assistants, probes, sha256 };
}

type Locate = (node: Node | Pair | null | undefined) => string;

function readLanguage(root: YAMLMap, problems: string[], at: Locate): StopWordLanguage[] {
  const pair = findPair(root, 'language');
  const expected = 'expected "en" or "fr", or a list of them (selects the stop-word lists)';
  if (!pair) {
    problems.push(`language: required, ${expected}`);
    return ['en'];
  }
  const isLanguage = (v: unknown): v is StopWordLanguage => v === 'en' || v === 'fr';
  if (isScalar(pair.value) && isLanguage(pair.value.value)) return [pair.value.value];
  if (isSeq(pair.value) && pair.value.items.length > 0) {
    const values = pair.value.items.map((item) => (isScalar(item) ? item.value : undefined));
    if (values.every(isLanguage)) return [...new Set(values)];
  }
  problems.push(`${at(pair.value as Node)}language: ${expected}, got ${describe(pair.value)}`);
  return ['en'];
}

function readStopWords(root: YAMLMap, problems: string[], at: Locate): string[] {
  const pair = findPair(root, 'stop-words');
  if (!pair) return [];
  if (!isSeq(pair.value)) {
    problems.push(`${at(pair)}stop-words: expected a list of words, got ${describe(pair.value)}`);
    return [];
  }
  const words: string[] = [];
  pair.value.items.forEach((item, i) => {
    const value = isScalar(item) ? item.value : undefined;
    if (typeof value === 'string' && /^\p{L}+$/u.test(value)) words.push(value);
    else
      problems.push(
        `${at(item as Node)}stop-words[${i}]: expected one word of letters, got ${describe(item)}`,
      );
  });
  return words;
}

function readAssistants(root: YAMLMap, problems: string[], at: Locate): CatalogueAssistant[] {
  const pair = findPair(root, 'assistants');
  if (!pair) {
    problems.push('assistants: required, expected a mapping of assistant name → system prompt');
    return [];
  }
  if (!isMap(pair.value)) {
    problems.push(
      `${at(pair)}assistants: expected a mapping of assistant name → system prompt, got ${describe(pair.value)}`,
    );
    return [];
  }
  const assistants: CatalogueAssistant[] = [];
  const lines = new Map<string, string>();
  for (const entry of pair.value.items) {
    const name = keyOf(entry);
    if (!NAME.test(name) || name.length > MAX_NAME) {
      problems.push(
        `${at(entry)}assistants.${JSON.stringify(name.length > MAX_NAME ? `${name.slice(0, MAX_NAME)}…` : name)}: not a usable assistant name: ${NAME_RULES}`,
      );
      continue;
    }
    lines.set(name, at(entry));
    const assistant = readAssistant(name, entry, problems, at);
    if (assistant) assistants.push(assistant);
  }
  if (pair.value.items.length < 2) {
    problems.push(
      `${at(pair)}assistants: expected at least 2 assistants, got ${pair.value.items.length} (attribution needs someone to confuse)`,
    );
  }
  const byName = new Map(assistants.map((a) => [a.name, a]));
  for (const assistant of assistants) {
    if (!assistant.control) continue;
    const { kind, of } = assistant.control;
    const key = kind === 'paraphrase' ? 'paraphrase-of' : 'inverse-of';
    const where = `${lines.get(assistant.name) ?? ''}assistants.${assistant.name}.${key}`;
    const twin = byName.get(of);
    if (of === assistant.name) problems.push(`${where}: a control cannot shadow itself`);
    else if (!twin)
      problems.push(
        `${where}: "${of}" is not an assistant of this catalogue (known: ${[...byName.keys()].join(', ')})`,
      );
    else if (twin.control)
      problems.push(`${where}: "${of}" is itself a control; point at the assistant it shadows`);
  }
  return assistants;
}

function readAssistant(
  name: string,
  entry: Pair,
  problems: string[],
  at: Locate,
): CatalogueAssistant | null {
  const field = `assistants.${name}`;
  const value = entry.value as Node | null;
  if (isScalar(value)) {
    const prompt = nonEmptyText(value.value);
    if (prompt !== null) return { name, prompt, control: null };
    problems.push(
      `${at(entry)}${field}: expected a system prompt (non-empty text), got ${describe(value)}`,
    );
    return null;
  }
  if (!isMap(value)) {
    problems.push(
      `${at(entry)}${field}: expected a system prompt, or a mapping with prompt and optionally paraphrase-of / inverse-of, got ${describe(value)}`,
    );
    return null;
  }
  let ok = true;
  for (const inner of value.items) {
    const key = keyOf(inner);
    if (!ASSISTANT_KEYS.includes(key)) {
      problems.push(
        `${at(inner)}${field}.${key}: unknown field (known: ${ASSISTANT_KEYS.join(', ')})`,
      );
      ok = false;
    }
  }
  const promptPair = findPair(value, 'prompt');
  const prompt =
    promptPair && isScalar(promptPair.value) ? nonEmptyText(promptPair.value.value) : null;
  if (prompt === null) {
    const got = promptPair ? `, got ${describe(promptPair.value)}` : '';
    problems.push(
      `${at(promptPair ?? entry)}${field}.prompt: required, expected the system prompt as non-empty text${got}`,
    );
    ok = false;
  }
  const controls = Object.keys(CONTROL_KEYS)
    .map((key) => ({ key, pair: findPair(value, key) }))
    .filter((c): c is { key: string; pair: Pair } => c.pair !== undefined);
  if (controls.length > 1) {
    problems.push(`${at(entry)}${field}: expected at most one of paraphrase-of and inverse-of`);
    ok = false;
  }
  let control: CatalogueAssistant['control'] = null;
  const first = controls[0];
  if (first) {
    const of = isScalar(first.pair.value) ? first.pair.value.value : undefined;
    if (typeof of === 'string' && of.trim() !== '') {
      control = { kind: CONTROL_KEYS[first.key] ?? 'paraphrase', of: of.trim() };
    } else {
      problems.push(
        `${at(first.pair)}${field}.${first.key}: expected the name of the assistant it shadows, got ${describe(first.pair.value)}`,
      );
      ok = false;
    }
  }
  return ok && prompt !== null ? { name, prompt, control } : null;
}

function readProbes(root: YAMLMap, problems: string[], at: Locate): string[] {
  const pair = findPair(root, 'probes');
  if (!pair) {
    problems.push('probes: required, expected a list of questions every assistant could answer');
    return [];
  }
  if (!isSeq(pair.value)) {
    problems.push(`${at(pair)}probes: expected a list of questions, got ${describe(pair.value)}`);
    return [];
  }
  const probes: string[] = [];
  const seen = new Map<string, number>();
  pair.value.items.forEach((item, i) => {
    const text = isScalar(item) ? nonEmptyText(item.value) : null;
    if (text === null) {
      problems.push(
        `${at(item as Node)}probes[${i}]: expected a question (non-empty text), got ${describe(item)}`,
      );
      return;
    }
    const earlier = seen.get(text);
    if (earlier !== undefined) {
      problems.push(`${at(item as Node)}probes[${i}]: same text as probes[${earlier}]`);
      return;
    }
    seen.set(text, i);
    probes.push(text);
  });
  if (pair.value.items.length < 2) {
    problems.push(
      `${at(pair)}probes: expected at least 2 probes, got ${pair.value.items.length} (an answer is attributed from the assistant's other answers)`,
    );
  }
  return probes;
}

function findPair(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((pair) => keyOf(pair) === key) as Pair | undefined;
}

function keyOf(pair: Pair): string {
  return isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
}

function nonEmptyText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

function describe(node: unknown): string {
  if (node === null || node === undefined) return 'nothing';
  if (isMap(node)) return 'a mapping';
  if (isSeq(node)) return 'a list';
  if (isScalar(node)) {
    const value = node.value;
    if (value === null) return 'nothing';
    if (typeof value === 'string')
      return JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value);
    return String(value);
  }
  return typeof node;
}
