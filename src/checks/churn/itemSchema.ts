/**
 * The fields of an item, as zod schemas: what each field's type is, then what the fields must
 * say together (an answer among the choices, a prompt that is not blank). Each problem keeps
 * the path of the field it is about, so that the reader can name the line of that field; the
 * messages of the checks between fields are the item's own words ("empty question"), the
 * others read "choices[2]: expected string, got a mapping". Grader options are read by
 * graders/options.ts.
 */
import { z } from 'zod';
import { expecting } from '../../config/issues.js';

export const MAX_CHOICES = 10;
export const LETTERS = 'ABCDEFGHIJ';
/** Tokens an open answer may take when neither the item nor the file says. */
export const DEFAULT_MAX_TOKENS = 256;
export const MAX_MAX_TOKENS = 32768;

const DEFAULT_DOMAIN = 'general';

// Unions of scalar types as one check each: a large items file holds hundreds of thousands
// of ids and choices, and a zod union tries its branches one by one.
const isText = (v: unknown): v is string | number => typeof v === 'string' || typeof v === 'number';
const idValue = z.custom<string | number>(isText, expecting('a text or a number')).nullish();
const domainValue = z.string().nullish();
/** A choice is shown as its text: numbers and true/false are written as they read. */
const choiceValue = z.custom<string | number | boolean>(
  (v) => isText(v) || typeof v === 'boolean',
  expecting('a text'),
);

/** An id as text: a number reads as its digits; blank is no id. */
function idText(value: string | number | null | undefined): string {
  return typeof value === 'number' ? String(value) : (value ?? '').trim();
}

function domainText(...values: (string | null | undefined)[]): string {
  const given = values.find((v) => typeof v === 'string' && v.trim() !== '');
  return given?.trim() ?? DEFAULT_DOMAIN;
}

/** A refinement's problem, kept at the path of its field. */
type Report = (path: readonly PropertyKey[], message: string) => void;

function reporter(ctx: z.RefinementCtx): Report {
  return (path, message) => ctx.addIssue({ code: 'custom', path: [...path], message });
}

/**
 * A multiple-choice item, MMLU-Pro names accepted (`question_id`, `category`, `options`,
 * `answer_index`). Fields it does not know are left out (the reader warns about them).
 */
export const choiceItemSchema = z
  .object({
    id: idValue,
    question_id: idValue,
    domain: domainValue,
    category: domainValue,
    question: z.string().nullish(),
    choices: z.array(choiceValue).nullish(),
    options: z.array(choiceValue).nullish(),
    answer: z.custom<string | number>(isText, expecting('a letter or a 0-based index')).nullish(),
    answer_index: z.number().nullish(),
  })
  .transform((fields, ctx) => {
    const report = reporter(ctx);
    const id = idText(fields.id ?? fields.question_id);
    if (id === '') report(['id'], 'missing id (expected a non-empty "id" or "question_id")');
    const question = (fields.question ?? '').trim();
    if (question === '') report(['question'], 'empty question');
    const choicesKey = fields.choices ? 'choices' : 'options';
    const choices = textsOf(fields.choices ?? fields.options);
    if (choices === null)
      report(['choices'], 'missing choices (expected a list "choices" or "options")');
    else checkChoices(choices, choicesKey, report);
    const answer = resolveAnswer(fields.answer, fields.answer_index, choices?.length ?? 0, report);
    if (id === '' || question === '' || choices === null || answer === null) return z.NEVER;
    // The reader sets the line.
    return {
      id,
      domain: domainText(fields.domain, fields.category),
      question,
      choices,
      answer,
      line: 0,
    };
  });

/** The choices as texts: zod's copy of the list as it is when it holds only texts (the usual case). */
function textsOf(choices: (string | number | boolean)[] | null | undefined): string[] | null {
  if (!choices) return null;
  return choices.every((c) => typeof c === 'string') ? (choices as string[]) : choices.map(String);
}

function checkChoices(choices: readonly string[], key: string, report: Report): void {
  if (choices.length < 2) report([key], `${choices.length} choice(s); at least 2 are needed`);
  if (choices.length > MAX_CHOICES) {
    report([key], `${choices.length} choices; at most ${MAX_CHOICES} (letters A–J) are supported`);
  }
  const empty = choices.findIndex((choice) => choice.trim() === '');
  if (empty !== -1) report([key, empty], 'an empty choice');
}

/** The letter of the correct choice, from `answer` (a letter or an index) and `answer_index`. */
function resolveAnswer(
  answer: string | number | null | undefined,
  answerIndex: number | null | undefined,
  choiceCount: number,
  report: Report,
): string | null {
  const valid = LETTERS.slice(0, Math.min(choiceCount, MAX_CHOICES));
  const range = valid.length > 0 ? `${valid[0]}–${valid[valid.length - 1]}` : 'a letter';
  let fromAnswer: string | null = null;
  if (typeof answer === 'string' && answer.trim() !== '') {
    const letter = answer.trim().toUpperCase();
    fromAnswer = /^\d+$/.test(letter) ? (LETTERS[Number(letter)] ?? '?') : letter;
  } else if (typeof answer === 'number') {
    if (!Number.isInteger(answer) || answer < 0) {
      report(['answer'], `answer ${answer} is not a letter or a 0-based index`);
      return null;
    }
    fromAnswer = LETTERS[answer] ?? '?';
  }
  let fromIndex: string | null = null;
  if (answerIndex !== undefined && answerIndex !== null) {
    if (!Number.isInteger(answerIndex) || answerIndex < 0) {
      report(['answer_index'], `answer_index ${answerIndex} is not a 0-based index`);
      return null;
    }
    fromIndex = LETTERS[answerIndex] ?? '?';
  }
  const letter = fromAnswer ?? fromIndex;
  const where = fromAnswer !== null ? 'answer' : 'answer_index';
  if (letter === null) {
    report(['answer'], `missing answer (expected "answer": ${range} or "answer_index")`);
    return null;
  }
  if (fromAnswer !== null && fromIndex !== null && fromAnswer !== fromIndex) {
    report(['answer_index'], `answer ${fromAnswer} and answer_index (${fromIndex}) disagree`);
    return null;
  }
  if (!valid.includes(letter) || letter.length !== 1) {
    report([where], `unknown answer "${String(answer ?? answerIndex)}" (expected ${range})`);
    return null;
  }
  return letter;
}

/** A `max-tokens` count: an integer from 1 to MAX_MAX_TOKENS. */
export const maxTokensSchema = z
  .number()
  .refine((v) => Number.isInteger(v) && v >= 1 && v <= MAX_MAX_TOKENS, {
    error: (issue) =>
      `max-tokens ${JSON.stringify(issue.input)}: expected an integer from 1 to ${MAX_MAX_TOKENS}`,
  });

/** A prompt or system text: any non-blank string, kept exactly as written. */
function verbatimText(field: string) {
  return z
    .string()
    .refine((text) => text.trim() !== '', { error: `${field} must be a non-empty text` });
}

/**
 * The fields of an open item other than its grader (built by graders/build.ts from `grader`
 * and `expected`, which may be anything a grader reads).
 */
export const openItemSchema = z
  .object({
    id: idValue,
    domain: domainValue,
    prompt: verbatimText('prompt'),
    system: verbatimText('system').nullish(),
    expected: z.unknown().optional(),
    grader: z.unknown().optional(),
    'max-tokens': maxTokensSchema.optional(),
    question: z.unknown().optional(),
  })
  .transform((fields, ctx) => {
    const report = reporter(ctx);
    const id = idText(fields.id);
    if (id === '') report(['id'], 'missing id (expected a non-empty "id")');
    if (fields.question !== undefined) {
      report(
        ['question'],
        'both `prompt` (an open item) and `question` (multiple choice): keep one',
      );
    }
    if (id === '' || fields.question !== undefined) return z.NEVER;
    return {
      id,
      domain: domainText(fields.domain),
      prompt: fields.prompt,
      system: fields.system ?? null,
      expected: fields.expected,
      grader: fields.grader,
      maxTokens: fields['max-tokens'] ?? null,
    };
  });
