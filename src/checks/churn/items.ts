/**
 * Multiple-choice items: loading and validation.
 *
 * Accepted files: JSON Lines (.jsonl), a JSON array (.json) or a YAML list (.yml / .yaml).
 * Fields: `id`, `domain`, `question`, `choices` (2–10), `answer` (a letter, or a 0-based
 * index). The MMLU-Pro export names are accepted as they are: `question_id`, `category`,
 * `options`, `answer` (letter) and `answer_index`; its `cot_content` and `src` are ignored.
 * Every problem names the file and line of the item; unknown fields are warnings.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseJsonList, parsedKeyProblems } from '../../config/jsonData.js';
import {
  formatSize,
  MAX_JSON_ITEMS_BYTES,
  MAX_YAML_ITEMS_BYTES,
  refuseOversized,
} from '../../config/limits.js';
import { decodeUserText } from '../../config/textFile.js';
import { parseYamlDocument, yamlListEntries } from '../../config/yaml.js';
import { InputError } from '../../errors.js';

export const MAX_CHOICES = 10;
export const LETTERS = 'ABCDEFGHIJ';

export interface ChurnItem {
  id: string;
  domain: string;
  question: string;
  choices: string[];
  /** Letter of the correct choice (A = first). */
  answer: string;
  /** Where the item was written, for messages. */
  line: number;
}

export interface LoadedItems {
  items: ChurnItem[];
  warnings: string[];
}

const KNOWN_FIELDS = new Set([
  'id',
  'question_id',
  'domain',
  'category',
  'question',
  'choices',
  'options',
  'answer',
  'answer_index',
  // MMLU-Pro fields carried along without use.
  'cot_content',
  'src',
]);

const DEFAULT_DOMAIN = 'general';

interface RawItem {
  value: unknown;
  line: number;
}

export function loadItemsFile(file: string, displayName = file): LoadedItems {
  refuseOversizedItems(file, displayName);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    throw new InputError(`${displayName}: items file not found or unreadable`, [
      'set churn.items in model-gate.yml to a .jsonl, .json or .yaml file of multiple-choice items',
    ]);
  }
  return parseItems(decodeUserText(bytes, displayName), displayName);
}

/** Parses and validates items; `name` is the file name used in messages (and picks the format). */
export function parseItems(text: string, name: string): LoadedItems {
  const extension = path.extname(name).toLowerCase();
  const raw =
    extension === '.jsonl' || extension === '.ndjson'
      ? readJsonLines(text, name)
      : readDocumentList(text, name);
  const errors: string[] = [];
  const warnings: string[] = [];
  const items: ChurnItem[] = [];
  const firstLineOfId = new Map<string, number>();
  for (const entry of raw) {
    const item = validateItem(entry, name, errors, warnings);
    if (!item) continue;
    const earlier = firstLineOfId.get(item.id);
    if (earlier !== undefined) {
      errors.push(
        `${name}:${item.line}: duplicate id "${item.id}" (first used on line ${earlier})`,
      );
      continue;
    }
    firstLineOfId.set(item.id, item.line);
    items.push(item);
  }
  if (errors.length > 0) {
    throw new InputError(
      `${name}: ${errors.length === 1 ? '1 invalid item' : `${errors.length} invalid items`}`,
      errors,
    );
  }
  if (items.length === 0) {
    throw new InputError(`${name}: no items`, ['expected at least one multiple-choice item']);
  }
  return { items, warnings };
}

function readJsonLines(text: string, name: string): RawItem[] {
  const entries: RawItem[] = [];
  const errors: string[] = [];
  text.split(/\r?\n/).forEach((content, index) => {
    if (content.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      // Described, never quoted: the line may hold anything (a token pasted by mistake).
      errors.push(`${name}:${index + 1}: ${describeUnreadableLine(error)}`);
      return;
    }
    entries.push({ value, line: index + 1 });
    for (const problem of parsedKeyProblems(content, value, index + 1))
      errors.push(`${name}:${problem.line}: ${problem.message}`);
  });
  if (errors.length > 0) throw new InputError(`${name}: unreadable lines`, errors);
  return entries;
}

function describeUnreadableLine(error: unknown): string {
  const expected = 'expected one JSON object per line, such as {"id": "q1", "question": …}';
  const position = /position (\d+)/.exec(error instanceof Error ? error.message : '');
  const where = position
    ? ` (the JSON stops making sense at column ${Number(position[1]) + 1})`
    : '';
  return `not valid JSON${where}; ${expected}`;
}

/**
 * A JSON array is read with the JSON parser (fast, and linear in its size); anything else —
 * YAML, or a .json file that is not strict JSON — with the YAML parser, which gives both
 * formats line numbers and resolves anchors, aliases and merge keys (src/config/yaml.ts).
 */
function readDocumentList(text: string, name: string): RawItem[] {
  const json = path.extname(name).toLowerCase() === '.json' ? parseJsonList(text, name) : null;
  if (json) return json;
  refuseOversizedText(text, name);
  const entries = yamlListEntries(parseYamlDocument(text, name));
  if (!entries) {
    throw new InputError(`${name}: expected a list of items`, [
      'write the items as a YAML list, a JSON array, or one JSON object per line in a .jsonl file',
    ]);
  }
  return entries;
}

/** Before reading: JSON items may be large, YAML ones less (the YAML parser holds more). */
function refuseOversizedItems(file: string, shownAs: string): void {
  const extension = path.extname(shownAs).toLowerCase();
  const json = ['.jsonl', '.ndjson', '.json'].includes(extension);
  refuseOversized(
    file,
    shownAs,
    json ? MAX_JSON_ITEMS_BYTES : MAX_YAML_ITEMS_BYTES,
    json ? 'JSON items file' : 'YAML items file',
    json ? undefined : 'write a large item set as JSON Lines (.jsonl), read one line at a time',
  );
}

/** The YAML limit for text that reached the YAML parser (a .json file that was not JSON). */
function refuseOversizedText(text: string, name: string): void {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= MAX_YAML_ITEMS_BYTES) return;
  throw new InputError(
    `${name}: not valid JSON, and at ${formatSize(bytes)} too large to read as YAML (${formatSize(MAX_YAML_ITEMS_BYTES)})`,
    [
      'check the JSON (a trailing comma, a quote left open), or write the items as JSON Lines (.jsonl)',
    ],
  );
}

function validateItem(
  entry: RawItem,
  file: string,
  errors: string[],
  warnings: string[],
): ChurnItem | null {
  const at = `${file}:${entry.line}`;
  const value = entry.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors.push(`${at}: expected an object with id, question, choices and answer`);
    return null;
  }
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((key) => !KNOWN_FIELDS.has(key));
  if (unknown.length > 0) {
    warnings.push(
      `${at}: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (ignored)`,
    );
  }
  const problems: string[] = [];

  const rawId = fields['id'] ?? fields['question_id'];
  const id =
    typeof rawId === 'number' ? String(rawId) : typeof rawId === 'string' ? rawId.trim() : '';
  if (id === '') problems.push('missing id (expected a non-empty "id" or "question_id")');

  const rawDomain = fields['domain'] ?? fields['category'];
  const domain =
    typeof rawDomain === 'string' && rawDomain.trim() !== '' ? rawDomain.trim() : DEFAULT_DOMAIN;

  const question = typeof fields['question'] === 'string' ? fields['question'].trim() : '';
  if (question === '') problems.push('empty question');

  const rawChoices = fields['choices'] ?? fields['options'];
  let choices: string[] = [];
  if (!Array.isArray(rawChoices)) {
    problems.push('missing choices (expected a list "choices" or "options")');
  } else {
    choices = rawChoices.map((choice) => (typeof choice === 'string' ? choice : String(choice)));
    if (choices.length < 2) problems.push(`${choices.length} choice(s); at least 2 are needed`);
    if (choices.length > MAX_CHOICES) {
      problems.push(
        `${choices.length} choices; at most ${MAX_CHOICES} (letters A–J) are supported`,
      );
    }
    if (choices.some((choice) => choice.trim() === '')) problems.push('an empty choice');
  }

  const answer = resolveAnswer(fields['answer'], fields['answer_index'], choices.length, problems);

  if (problems.length > 0) {
    const label = id === '' ? '' : ` (item "${id}")`;
    for (const problem of problems) errors.push(`${at}${label}: ${problem}`);
    return null;
  }
  return { id, domain, question, choices, answer: answer as string, line: entry.line };
}

function resolveAnswer(
  answer: unknown,
  answerIndex: unknown,
  choiceCount: number,
  problems: string[],
): string | null {
  const valid = LETTERS.slice(0, Math.min(choiceCount, MAX_CHOICES));
  const range = valid.length > 0 ? `${valid[0]}–${valid[valid.length - 1]}` : 'a letter';
  let fromAnswer: string | null = null;
  if (typeof answer === 'string' && answer.trim() !== '') {
    const letter = answer.trim().toUpperCase();
    if (/^\d+$/.test(letter)) fromAnswer = LETTERS[Number(letter)] ?? '?';
    else fromAnswer = letter;
  } else if (typeof answer === 'number' && Number.isInteger(answer) && answer >= 0) {
    fromAnswer = LETTERS[answer] ?? '?';
  } else if (answer !== undefined && answer !== null) {
    problems.push(`answer ${JSON.stringify(answer)} is not a letter or a 0-based index`);
    return null;
  }
  let fromIndex: string | null = null;
  if (answerIndex !== undefined && answerIndex !== null) {
    if (typeof answerIndex === 'number' && Number.isInteger(answerIndex) && answerIndex >= 0) {
      fromIndex = LETTERS[answerIndex] ?? '?';
    } else {
      problems.push(`answer_index ${JSON.stringify(answerIndex)} is not a 0-based index`);
      return null;
    }
  }
  const letter = fromAnswer ?? fromIndex;
  if (letter === null) {
    problems.push(`missing answer (expected "answer": ${range} or "answer_index")`);
    return null;
  }
  if (fromAnswer !== null && fromIndex !== null && fromAnswer !== fromIndex) {
    problems.push(`answer ${fromAnswer} and answer_index (${fromIndex}) disagree`);
    return null;
  }
  if (!valid.includes(letter) || letter.length !== 1) {
    problems.push(`unknown answer "${String(answer ?? answerIndex)}" (expected ${range})`);
    return null;
  }
  return letter;
}

/** Letters of an item's choices: A, B, C… */
export function choiceLetters(item: Pick<ChurnItem, 'choices'>): string[] {
  return [...LETTERS.slice(0, item.choices.length)];
}
