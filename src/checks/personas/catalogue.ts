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
import { isMap } from 'yaml';
import { z } from 'zod';
import { describeValue, expecting, fieldPath, parseInWords } from '../../config/issues.js';
import { isMapping } from '../../render/json.js';
import { decodeUserText } from '../../config/textFile.js';
import { lineOfPath, parseYamlDocument } from '../../config/yaml.js';
import { MAX_CATALOGUE_BYTES, readLimitedFile } from '../../config/limits.js';
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

/** What a section must hold: "required, expected …" when missing, "expected …, got …" when wrong. */
function wanted(what: string, whenMissing = what) {
  return {
    error: (issue: { input?: unknown }) =>
      issue.input === undefined
        ? `required, expected ${whenMissing}`
        : `expected ${what}, got ${describeValue(issue.input)}`,
  };
}

const LANGUAGES = ['en', 'fr'] as const;
const languageSchema = z
  .union(
    [z.enum(LANGUAGES), z.array(z.enum(LANGUAGES)).min(1)],
    wanted('"en" or "fr", or a list of them (selects the stop-word lists)'),
  )
  .transform((given): StopWordLanguage[] => [...new Set([given].flat())]);

const stopWordsSchema = z
  .array(
    z.string(expecting('one word of letters')).regex(/^\p{L}+$/u, expecting('one word of letters')),
    expecting('a list of words'),
  )
  .default([]);

const promptText = z
  .string()
  .refine((text) => text.trim() !== '', expecting('a system prompt (non-empty text)'));

/** A system prompt alone, or a mapping with the prompt and at most one control. */
const assistantSchema = z.union(
  [
    promptText,
    z.strictObject({
      prompt: promptText,
      'paraphrase-of': z.string().optional(),
      'inverse-of': z.string().optional(),
    }),
  ],
  {
    error: (issue) =>
      typeof issue.input === 'string'
        ? `expected a system prompt (non-empty text), got ${describeValue(issue.input)}`
        : `expected a system prompt, or a mapping with prompt (non-empty text) and optionally paraphrase-of / inverse-of, got ${describeValue(issue.input)}`,
  },
);

/** The checks between sections, on the catalogue as written (see checkAcrossFields). */
const acrossFieldsSchema = z.unknown().superRefine((input, ctx) => checkAcrossFields(input, ctx));

const catalogueSchema = z
  .strictObject({
    language: languageSchema,
    'stop-words': stopWordsSchema,
    assistants: z.record(
      z.string().refine((name) => NAME.test(name) && name.length <= MAX_NAME),
      assistantSchema,
      wanted('a mapping of assistant name → system prompt'),
    ),
    probes: z.array(
      z
        .string(expecting('a question (non-empty text)'))
        .refine((text) => text.trim() !== '', expecting('a question (non-empty text)')),
      wanted('a list of questions', 'a list of questions every assistant could answer'),
    ),
  })
  .transform((catalogue) => ({
    languages: catalogue.language,
    extraStopWords: catalogue['stop-words'],
    assistants: Object.entries(catalogue.assistants).map(([name, value]) =>
      toAssistant(name, value),
    ),
    probes: catalogue.probes.map((probe) => probe.trim()),
  }));

type AssistantValue = z.output<typeof assistantSchema>;

function toAssistant(name: string, value: AssistantValue): CatalogueAssistant {
  if (typeof value === 'string') return { name, prompt: value.trim(), control: null };
  const key = Object.keys(CONTROL_KEYS).find((k) => value[k as keyof typeof value] !== undefined);
  const of = key ? String(value[key as keyof typeof value]).trim() : '';
  return {
    name,
    prompt: value.prompt.trim(),
    control: key ? { kind: CONTROL_KEYS[key] ?? 'paraphrase', of } : null,
  };
}

/**
 * What the sections say together: at least two assistants and probes, controls that shadow
 * another plain assistant of the file, no probe twice. Run on the catalogue as written, beside
 * the schema and even when a field is wrong, so that every problem is told at once.
 */
function checkAcrossFields(input: unknown, ctx: z.RefinementCtx): void {
  const catalogue = isMapping(input) ? input : {};
  const assistants = isMapping(catalogue['assistants']) ? catalogue['assistants'] : null;
  if (assistants) {
    const names = Object.keys(assistants);
    if (names.length < 2) {
      ctx.addIssue({
        code: 'custom',
        path: ['assistants'],
        message: `expected at least 2 assistants, got ${names.length} (attribution needs someone to confuse)`,
      });
    }
    for (const [name, value] of Object.entries(assistants)) {
      if (isMapping(value)) checkControl(name, value, assistants, ctx);
    }
  }
  const probes = Array.isArray(catalogue['probes']) ? catalogue['probes'] : null;
  if (!probes) return;
  if (probes.length < 2) {
    ctx.addIssue({
      code: 'custom',
      path: ['probes'],
      message: `expected at least 2 probes, got ${probes.length} (an answer is attributed from the assistant's other answers)`,
    });
  }
  const seen = new Map<string, number>();
  probes.forEach((probe, i) => {
    if (typeof probe !== 'string' || probe.trim() === '') return;
    const earlier = seen.get(probe.trim());
    if (earlier === undefined) seen.set(probe.trim(), i);
    else
      ctx.addIssue({
        code: 'custom',
        path: ['probes', i],
        message: `same text as probes[${earlier}]`,
      });
  });
}

function checkControl(
  name: string,
  value: Record<string, unknown>,
  assistants: Record<string, unknown>,
  ctx: z.RefinementCtx,
): void {
  const keys = Object.keys(CONTROL_KEYS).filter((key) => value[key] !== undefined);
  const problem = (key: string | null, message: string) =>
    ctx.addIssue({ code: 'custom', path: ['assistants', name, ...(key ? [key] : [])], message });
  if (keys.length > 1) problem(null, 'expected at most one of paraphrase-of and inverse-of');
  const key = keys[0];
  if (key === undefined) return;
  const of = value[key];
  if (typeof of !== 'string' || of.trim() === '') {
    problem(key, `expected the name of the assistant it shadows, got ${describeValue(of)}`);
    return;
  }
  const twin = assistants[of.trim()];
  if (of.trim() === name) problem(key, 'a control cannot shadow itself');
  else if (twin === undefined)
    problem(
      key,
      `"${of.trim()}" is not an assistant of this catalogue (known: ${Object.keys(assistants).join(', ')})`,
    );
  else if (isMapping(twin) && Object.keys(CONTROL_KEYS).some((k) => twin[k] !== undefined))
    problem(key, `"${of.trim()}" is itself a control; point at the assistant it shadows`);
}

export async function readCatalogue(
  absolutePath: string,
  shownAs: string,
): Promise<PersonasCatalogue> {
  let bytes: Buffer | null;
  try {
    bytes = readLimitedFile(absolutePath, shownAs, MAX_CATALOGUE_BYTES, 'persona catalogue');
  } catch (error) {
    if (error instanceof InputError) throw error;
    bytes = null;
  }
  if (bytes === null) {
    throw new InputError(`${shownAs}: persona catalogue not found`, [
      'set personas.catalogue in model-gate.yml to a YAML file with language, assistants and probes',
    ]);
  }
  return parseCatalogue(decodeUserText(bytes, shownAs), shownAs);
}

export function parseCatalogue(text: string, file: string): PersonasCatalogue {
  const { doc, lineCounter } = parseYamlDocument(text, file);
  const root = doc.contents;
  if (!isMap(root)) {
    const at = root?.range ? `line ${lineCounter.linePos(root.range[0]).line}: ` : '';
    throw new InputError(`${file}: expected a mapping with language, assistants and probes`, [
      root === null ? 'the file is empty' : `${at}found ${describeValue(doc.toJS())}`,
    ]);
  }
  const raw: unknown = doc.toJS();
  const parsed = parseInWords(catalogueSchema, raw);
  const across = acrossFieldsSchema.safeParse(raw);
  if (!parsed.success || !across.success) {
    const problems = [...(parsed.error?.issues ?? []), ...(across.error?.issues ?? [])]
      .flatMap((issue) => issueProblems(issue))
      .map((problem) => {
        const line = problem.missing ? null : lineOfPath(lineCounter, root, problem.path);
        return { line, text: `${line === null ? '' : `line ${line}: `}${problem.text}` };
      })
      // In the order of the file; a section that is missing last.
      .sort((a, b) => (a.line ?? Number.MAX_SAFE_INTEGER) - (b.line ?? Number.MAX_SAFE_INTEGER))
      .map((problem) => problem.text);
    throw new InputError(
      `${file}: ${problems.length === 1 ? 'invalid persona catalogue' : `${problems.length} problems in the persona catalogue`}`,
      problems,
    );
  }
  const { languages, extraStopWords, assistants, probes } = parsed.data as z.output<
    typeof catalogueSchema
  >;
  const language = languages[0] ?? 'en';
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

/** An issue of the catalogue schema in words, at its path; `missing` for a missing section. */
function issueProblems(
  issue: z.core.$ZodIssue,
): { path: PropertyKey[]; text: string; missing: boolean }[] {
  if (issue.code === 'unrecognized_keys') {
    const known = issue.path.length === 0 ? TOP_LEVEL : ASSISTANT_KEYS;
    return issue.keys.map((key) => ({
      path: [...issue.path, key],
      text: `${fieldPath([...issue.path, key])}: unknown field (known: ${known.join(', ')})`,
      missing: false,
    }));
  }
  if (issue.code === 'invalid_key') {
    const name = String(issue.path.at(-1) ?? '');
    const shown = JSON.stringify(name.length > MAX_NAME ? `${name.slice(0, MAX_NAME)}…` : name);
    return [
      {
        path: issue.path,
        text: `assistants.${shown}: not a usable assistant name: ${NAME_RULES}`,
        missing: false,
      },
    ];
  }
  const missing = issue.code === 'invalid_type' && issue.input === undefined;
  return [{ path: issue.path, text: `${fieldPath(issue.path)}: ${issue.message}`, missing }];
}
