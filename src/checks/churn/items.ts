/**
 * Items: loading and validation. Multiple-choice items are read here; an item with a `prompt`
 * is an open item, read by openItems.ts. Both kinds may be mixed in one file.
 *
 * Accepted files: JSON Lines (.jsonl), a JSON array (.json) or a YAML list (.yml / .yaml); a
 * YAML or JSON file may also be a mapping with the list under `items` and file-wide settings
 * beside it (`max-tokens` of the open items).
 * Fields: `id`, `domain`, `question`, `choices` (2–10), `answer` (a letter, or a 0-based
 * index). The MMLU-Pro export names are accepted as they are: `question_id`, `category`,
 * `options`, `answer` (letter) and `answer_index`; its `cot_content` and `src` are ignored.
 * Each item is checked by the schemas of itemSchema.ts; every problem names the file and the
 * line of its field (YAML: the document says where each field is written) or, in JSON, of its
 * item, and the item's id. Unknown fields are warnings.
 */
import path from 'node:path';
import { isMap, isScalar, isSeq, type LineCounter, type Node, type YAMLMap } from 'yaml';
import { parseInWords } from '../../config/issues.js';
import { parsedKeyProblems, parseJsonList } from '../../config/jsonData.js';
import {
  formatSize,
  MAX_ITEMS,
  MAX_JSON_ITEMS_BYTES,
  MAX_YAML_ITEMS_BYTES,
  readLimitedFile,
} from '../../config/limits.js';
import { decodeUserText } from '../../config/textFile.js';
import { lineOfPath, parseYamlDocument, yamlListEntries } from '../../config/yaml.js';
import { InputError } from '../../errors.js';
import { choiceItemSchema, DEFAULT_MAX_TOKENS, LETTERS } from './itemSchema.js';
import {
  type ItemProblem,
  isOpenItem,
  itemProblems,
  itemsFolder,
  type OpenItem,
  type OpenItemFile,
  readMaxTokens,
  validateOpenItem,
} from './openItems.js';

/** A multiple-choice item (`kind` is absent or `choice`). */
export interface ChoiceItem {
  kind?: 'choice';
  id: string;
  domain: string;
  question: string;
  choices: string[];
  /** Letter of the correct choice (A = first). */
  answer: string;
  /** Where the item was written, for messages. */
  line: number;
}

export type ChurnItem = ChoiceItem | OpenItem;

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

interface RawItem {
  value: unknown;
  line: number;
  /** The entry's YAML node, for the line of each field; absent in JSON (the item's line). */
  node?: unknown;
}

/** Where the fields of the file's items are written. */
interface Located extends OpenItemFile {
  /** Lines of the YAML document the items were read from; null for JSON. */
  lines: LineCounter | null;
}

export function loadItemsFile(file: string, displayName = file): LoadedItems {
  let bytes: Buffer | null;
  try {
    bytes = readItemsBytes(file, displayName);
  } catch (error) {
    if (error instanceof InputError) throw error;
    bytes = null;
  }
  if (bytes === null) {
    throw new InputError(`${displayName}: items file not found or unreadable`, [
      'set churn.items in model-gate.yml to a .jsonl, .json or .yaml file of items',
    ]);
  }
  const text = decodeUserText(bytes, displayName);
  // The bytes are not needed once decoded: not held while the items are read.
  bytes = null;
  return parseItems(text, displayName, itemsFolder(file));
}

/**
 * Parses and validates items; `name` is the file name used in messages (and picks the format),
 * `baseDir` the folder grader modules are found from (default: the current folder).
 */
export function parseItems(text: string, name: string, baseDir = '.'): LoadedItems {
  const extension = path.extname(name).toLowerCase();
  const unreadable: string[] = [];
  const {
    entries: raw,
    maxTokens,
    lines,
  } = extension === '.jsonl' || extension === '.ndjson'
    ? { entries: readJsonLines(text, name, unreadable), maxTokens: DEFAULT_MAX_TOKENS, lines: null }
    : readDocumentList(text, name);
  if (Array.isArray(raw) && raw.length > MAX_ITEMS) throw tooManyItems(name, null);
  const errors: string[] = [];
  const warnings: string[] = [];
  const items: ChurnItem[] = [];
  const firstLineOfId = new Map<string, number>();
  const file: Located = { name, baseDir, maxTokens, lines };
  for (const entry of raw) {
    const item = validateItem(entry, file, errors, warnings);
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
  if (unreadable.length > 0) throw new InputError(`${name}: unreadable lines`, unreadable);
  if (errors.length > 0) {
    throw new InputError(
      `${name}: ${errors.length === 1 ? '1 invalid item' : `${errors.length} invalid items`}`,
      errors,
    );
  }
  if (items.length === 0) {
    throw new InputError(`${name}: no items`, [
      'expected at least one item (multiple-choice, or open with a prompt)',
    ]);
  }
  return { items, warnings };
}

/** An items file of more than MAX_ITEMS items; `line` is where the one too many starts. */
function tooManyItems(name: string, line: number | null): InputError {
  const limit = MAX_ITEMS.toLocaleString('en-US');
  return new InputError(
    `${name}${line === null ? '' : `:${line}`}: more than ${limit} items; an items file holds at most ${limit}`,
    [
      `the limit keeps a validation of any items file under 500 MB of memory (docs/security.md, "Size limits"); take a sample of ${limit} items or fewer`,
    ],
  );
}

/**
 * The items of a JSON Lines text, one line at a time: each line's parsed value is handed on
 * and dropped once its item is read, so the memory is the text and the items, never all the
 * parsed lines at once. Lines that are not JSON, or whose keys are refused, go to `unreadable`
 * (told after every line is read); the item one past MAX_ITEMS is refused at once.
 */
function* readJsonLines(text: string, name: string, unreadable: string[]): Generator<RawItem> {
  let count = 0;
  let line = 0;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const stop = newline === -1 ? text.length : newline;
    const content = text.slice(start, stop > start && text[stop - 1] === '\r' ? stop - 1 : stop);
    start = stop + 1;
    line++;
    if (content.trim() === '') continue;
    if (++count > MAX_ITEMS) throw tooManyItems(name, line);
    let value: unknown;
    try {
      value = JSON.parse(content);
    } catch (error) {
      // Described, never quoted: the line may hold anything (a token pasted by mistake).
      unreadable.push(`${name}:${line}: ${describeUnreadableLine(error)}`);
      continue;
    }
    const problems = parsedKeyProblems(content, value, line);
    for (const problem of problems) unreadable.push(`${name}:${problem.line}: ${problem.message}`);
    if (problems.length === 0) yield { value, line };
  }
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
function readDocumentList(
  text: string,
  name: string,
): { entries: RawItem[]; maxTokens: number; lines: LineCounter | null } {
  const json = path.extname(name).toLowerCase() === '.json' ? parseJsonList(text, name) : null;
  if (json) return { entries: json, maxTokens: DEFAULT_MAX_TOKENS, lines: null };
  refuseOversizedText(text, name);
  const parsed = parseYamlDocument(text, name);
  const lines = parsed.lineCounter;
  const root = parsed.doc.contents;
  if (isSeq(root)) {
    return { entries: yamlListEntries(parsed) ?? [], maxTokens: DEFAULT_MAX_TOKENS, lines };
  }
  const list = isMap(root) ? root.get('items', true) : undefined;
  if (!isMap(root) || !isSeq(list)) {
    throw new InputError(`${name}: expected a list of items`, [
      'write the items as a YAML list, a JSON array, or one JSON object per line in a .jsonl file',
      'or a mapping with the list under `items` (and `max-tokens` for its open items)',
    ]);
  }
  return {
    entries: yamlListEntries(parsed, list) ?? [],
    maxTokens: fileMaxTokens(root, name),
    lines,
  };
}

/** JSON items may be large, YAML ones less (the YAML parser holds more). */
function readItemsBytes(file: string, shownAs: string): Buffer | null {
  const extension = path.extname(shownAs).toLowerCase();
  const json = ['.jsonl', '.ndjson', '.json'].includes(extension);
  return readLimitedFile(
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

/** File-wide settings a mapping-shaped items file may give beside `items`. */
const FILE_KEYS = ['items', 'max-tokens'];

/** The `max-tokens` a mapping-shaped items file gives its open items (the other keys refused). */
function fileMaxTokens(root: YAMLMap, name: string): number {
  const problems: string[] = [];
  let given: unknown;
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (key === 'max-tokens') given = isNode(pair.value) ? pair.value.toJSON() : pair.value;
    else if (!FILE_KEYS.includes(key))
      problems.push(`unknown file setting "${key}" (expected ${FILE_KEYS.join(', ')})`);
  }
  const maxTokens = given === undefined ? DEFAULT_MAX_TOKENS : readMaxTokens(given, problems);
  if (problems.length > 0 || maxTokens === null) {
    throw new InputError(`${name}: invalid file settings`, problems);
  }
  return maxTokens;
}

function validateItem(
  entry: RawItem,
  file: Located,
  errors: string[],
  warnings: string[],
): ChurnItem | null {
  const at = `${file.name}:${entry.line}`;
  const value = entry.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors.push(
      `${at}: expected an object with id, question, choices and answer (or id, prompt and a grader)`,
    );
    return null;
  }
  const fields = value as Record<string, unknown>;
  const report = (problems: readonly ItemProblem[]): null => {
    const label = itemLabel(fields);
    for (const problem of problems)
      errors.push(
        `${file.name}:${fieldLine(entry, file, problem.path)}${label}: ${problem.message}`,
      );
    return null;
  };
  if (isOpenItem(fields)) {
    const read = validateOpenItem(fields, entry.line, file, warnings);
    return Array.isArray(read) ? report(read) : read;
  }
  const unknown = Object.keys(fields).filter((key) => !KNOWN_FIELDS.has(key));
  if (unknown.length > 0) {
    warnings.push(
      `${at}: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (ignored)`,
    );
  }
  const parsed = parseInWords(choiceItemSchema, fields);
  if (!parsed.success) return report(itemProblems(parsed.error));
  const item: ChoiceItem = parsed.data;
  item.line = entry.line;
  return item;
}

/** The line a problem at `path` of the item names: the field's own in YAML, the item's in JSON. */
function fieldLine(entry: RawItem, file: Located, path: readonly PropertyKey[]): number {
  if (!file.lines || entry.node === undefined) return entry.line;
  return lineOfPath(file.lines, entry.node, path) ?? entry.line;
}

/** ` (item "q1")` when the item has a usable id, for every message about it. */
function itemLabel(fields: Readonly<Record<string, unknown>>): string {
  const raw = fields['id'] ?? fields['question_id'];
  const id = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  return id === '' ? '' : ` (item "${id}")`;
}

/** Letters of an item's choices: A, B, C… */
export function choiceLetters(item: Pick<ChoiceItem, 'choices'>): string[] {
  return [...LETTERS.slice(0, item.choices.length)];
}

/** Whether an item is multiple-choice (not open). */
export function isChoiceItem(item: ChurnItem): item is ChoiceItem {
  return item.kind !== 'open';
}

function isNode(value: unknown): value is Node {
  return value !== null && typeof value === 'object' && 'toJSON' in value;
}
