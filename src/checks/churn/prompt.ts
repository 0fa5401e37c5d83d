/**
 * The churn prompt. Versioned: any change to the wording changes PROMPT_VERSION, and the
 * SHA-256 of what is sent is recorded with every sample, so a log never mixes prompts
 * silently. The simulator reads the same layout back (parseChurnPrompt), so the format lives
 * here only.
 */
import { createHash } from 'node:crypto';
import type { ChatMessage, JsonSchema } from '../../providers/types.js';
import { type ChoiceItem, type ChurnItem, choiceLetters } from './items.js';
import { openMessages, openPromptHash } from './openPrompt.js';

export const PROMPT_VERSION = 'churn-prompt/1';

export const CHURN_SYSTEM_PROMPT =
  'You are taking a multiple-choice test. Choose the single best option. ' +
  'Reply with a JSON object of the form {"answer": "<letter>"} and nothing else.';

const HEADER = 'Multiple-choice question.';
const QUESTION_LABEL = 'Question:';
const OPTIONS_LABEL = 'Options:';
const FOOTER = 'Answer with the letter of the best option.';

/** Choices are one line each in the prompt; line breaks inside a choice become spaces. */
function oneLine(text: string): string {
  return text.replace(/\s*\r?\n\s*/g, ' ').trim();
}

export function churnUserPrompt(item: Pick<ChoiceItem, 'question' | 'choices'>): string {
  const options = item.choices.map((choice, i) => `${choiceLetters(item)[i]}. ${oneLine(choice)}`);
  return [
    HEADER,
    '',
    QUESTION_LABEL,
    item.question,
    '',
    OPTIONS_LABEL,
    ...options,
    '',
    FOOTER,
  ].join('\n');
}

export function churnMessages(item: Pick<ChoiceItem, 'question' | 'choices'>): ChatMessage[] {
  return [
    { role: 'system', content: CHURN_SYSTEM_PROMPT },
    { role: 'user', content: churnUserPrompt(item) },
  ];
}

/** `{"answer": "<letter>"}` with the item's letters as the only allowed values. */
export function answerSchema(item: Pick<ChoiceItem, 'choices'>): JsonSchema {
  return {
    type: 'object',
    properties: { answer: { type: 'string', enum: choiceLetters(item) } },
    required: ['answer'],
    additionalProperties: false,
  };
}

/** Hash of everything that defines the question asked: version, messages and answer schema. */
export function churnPromptHash(item: Pick<ChoiceItem, 'question' | 'choices'>): string {
  const payload = JSON.stringify({
    version: PROMPT_VERSION,
    messages: churnMessages(item),
    format: answerSchema(item),
  });
  return createHash('sha256').update(payload).digest('hex');
}

/** The question and choices read back from a churn prompt; null for any other prompt. */
export function parseChurnPrompt(user: string): { question: string; choices: string[] } | null {
  const lines = user.split('\n');
  if (lines[0] !== HEADER || lines[2] !== QUESTION_LABEL) return null;
  const optionsAt = lines.lastIndexOf(OPTIONS_LABEL);
  if (optionsAt < 4 || lines[lines.length - 1] !== FOOTER) return null;
  const question = lines.slice(3, optionsAt - 1).join('\n');
  const choices: string[] = [];
  for (const line of lines.slice(optionsAt + 1, lines.length - 2)) {
    const match = /^([A-J])\. (.*)$/.exec(line);
    if (!match || match[1] !== 'ABCDEFGHIJ'[choices.length]) return null;
    choices.push(match[2] as string);
  }
  return choices.length >= 2 ? { question, choices } : null;
}

/** Key by which the simulator finds an item from its prompt: question and one-line choices. */
export function itemPromptKey(item: Pick<ChoiceItem, 'question' | 'choices'>): string {
  return JSON.stringify([item.question, item.choices.map(oneLine)]);
}

/** The messages of any item: the multiple-choice layout, or an open item's own texts. */
export function itemMessages(item: ChurnItem): ChatMessage[] {
  return item.kind === 'open' ? openMessages(item) : churnMessages(item);
}

/** The answer format of any item: the letter schema; none for an open item (free text). */
export function itemFormat(item: ChurnItem): JsonSchema | undefined {
  return item.kind === 'open' ? undefined : answerSchema(item);
}

/** The prompt hash of any item. */
export function itemPromptHash(item: ChurnItem): string {
  return item.kind === 'open' ? openPromptHash(item) : churnPromptHash(item);
}
