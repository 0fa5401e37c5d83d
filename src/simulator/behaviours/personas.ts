/**
 * Simulated assistants for the personas check: each assistant answers from its own
 * vocabulary, mixed with words every assistant uses and words the probe itself calls for.
 * How much of an answer is the assistant's own, and which assistants share one vocabulary,
 * are scenario settings, so a test knows which pairs the analysis must find confused.
 *
 * Scenario block (under a model's `personas:` key; every field optional):
 *
 *   personas:
 *     catalogue: fixtures/personas/catalogue.yml  # recognise assistants by their exact
 *                                                 # system prompt (path from the working dir)
 *     assistants:              # or by a phrase found in the system prompt
 *       flavour: "Your field is flavour"
 *     same-voice:              # assistants answering from one shared vocabulary
 *       - [flavour, taste]
 *     answer-words: 60         # counted words per answer (short and stop words come on top)
 *     vocabulary: 40           # words in each voice's own vocabulary
 *     own-share: 0.6           # share of words drawn from the assistant's voice
 *     probe-share: 0.15        # share drawn from the probe's vocabulary; the rest is common
 *
 * A persona request is a chat with a system prompt and no JSON format. A system prompt that
 * matches no assistant gets a voice of its own (keyed by the prompt), so without any setting
 * every distinct prompt is a distinct voice. Draws are seeded by (model, system prompt,
 * probe, seed option); vocabularies by the voice alone, so baseline and candidate share them.
 */
import { z } from 'zod';
import { type PersonasCatalogue, parseCatalogue } from '../../checks/personas/catalogue.js';
import { expecting } from '../../config/issues.js';
import { MAX_CATALOGUE_BYTES, readLimitedFile } from '../../config/limits.js';
import { createRng, type Rng, seedFromText } from '../../stats/prng.js';
import { errorMessage } from '../../text/format.js';
import type { Behaviour, SimulatedChat } from '../behaviour.js';
import { parseBehaviourParams } from '../behaviourParams.js';

const SHARE = expecting('a number between 0 and 1');
const COUNT = expecting('a whole number from 1 to 2000');
const share = z.number(SHARE).min(0, SHARE).max(1, SHARE);
const count = z.number(COUNT).int(COUNT).min(1, COUNT).max(2000, COUNT);

const paramsSchema = z
  .strictObject(
    {
      catalogue: z
        .string(expecting('the path of a persona catalogue'))
        .min(1, expecting('the path of a persona catalogue'))
        .nullish(),
      assistants: z
        .record(
          z.string(),
          z.string(expecting('a phrase of its prompt')).min(1, expecting('a phrase of its prompt')),
          expecting('a map of assistant name → phrase of its prompt'),
        )
        .default({}),
      'same-voice': z
        .array(
          z
            .array(z.string(expecting('an assistant name')), expecting('a list of ≥ 2 names'))
            .min(2, expecting('a list of ≥ 2 names')),
          expecting('a list of groups, each a list of ≥ 2 names'),
        )
        .default([]),
      'answer-words': count.default(60),
      vocabulary: count.default(40),
      'own-share': share.default(0.6),
      'probe-share': share.default(0.15),
    },
    expecting('a mapping of settings (or nothing for the defaults)'),
  )
  .refine((block) => block['own-share'] + block['probe-share'] <= 1, {
    path: ['probe-share'],
    error: (issue) => {
      const block = issue.input as { 'own-share': number; 'probe-share': number };
      return `expected own-share + probe-share at most 1 together, got ${block['own-share']} + ${block['probe-share']}`;
    },
  })
  .transform((block) => ({
    catalogue: block.catalogue ?? null,
    /** Assistant name → phrase of its system prompt. */
    assistants: block.assistants,
    sameVoice: block['same-voice'],
    answerWords: block['answer-words'],
    vocabulary: block.vocabulary,
    ownShare: block['own-share'],
    probeShare: block['probe-share'],
  }));

export type PersonasBehaviourParams = z.output<typeof paramsSchema>;

export function readPersonasParams(raw: unknown): PersonasBehaviourParams {
  return parseBehaviourParams(paramsSchema, 'personas', raw);
}

const catalogues = new Map<string, PersonasCatalogue>();

function catalogueAt(file: string): PersonasCatalogue {
  let catalogue = catalogues.get(file);
  if (!catalogue) {
    const bytes = readLimitedFile(file, file, MAX_CATALOGUE_BYTES, 'persona catalogue');
    if (bytes === null) throw new Error(`${file}: persona catalogue not found`);
    catalogue = parseCatalogue(bytes.toString('utf8'), file);
    catalogues.set(file, catalogue);
  }
  return catalogue;
}

/** Which assistant wrote this system prompt, by exact prompt or by phrase; null if none. */
export function identifyAssistant(system: string, params: PersonasBehaviourParams): string | null {
  for (const [name, phrase] of Object.entries(params.assistants)) {
    if (system.includes(phrase)) return name;
  }
  if (params.catalogue) {
    const found = catalogueAt(params.catalogue).assistants.find((a) => a.prompt === system.trim());
    if (found) return found.name;
  }
  return null;
}

/** The vocabulary key of an assistant: its same-voice group, or itself. */
export function voiceOf(assistant: string, params: PersonasBehaviourParams): string {
  const group = params.sameVoice.find((g) => g.includes(assistant));
  return group ? `group:${[...group].sort().join('+')}` : `assistant:${assistant}`;
}

export function personasAnswer(
  chat: SimulatedChat,
  params: PersonasBehaviourParams,
): string | null {
  if (chat.system === null || chat.system.trim() === '' || chat.format !== null) return null;
  const assistant = identifyAssistant(chat.system, params);
  const voice = assistant ? voiceOf(assistant, params) : `prompt:${chat.system}`;
  const own = wordList(`voice|${voice}`, params.vocabulary);
  const probe = wordList(`probe|${chat.user}`, Math.max(8, Math.round(params.vocabulary / 3)));
  const common = wordList('common', params.vocabulary * 2);

  const rng = createRng(
    seedFromText(JSON.stringify([chat.model, chat.system, chat.user, chat.seed])),
  );
  const words: string[] = [];
  for (let i = 0; i < params.answerWords; i++) {
    const u = rng.next();
    const pool =
      u < params.ownShare ? own : u < params.ownShare + params.probeShare ? probe : common;
    words.push(pickSkewed(pool, rng));
  }
  return sentences(words, rng);
}

export const personasBehaviour: Behaviour = {
  name: 'personas',
  answer: (chat, params) => personasAnswer(chat, readPersonasParams(params)),
  validate: (params) => {
    const read = readPersonasParams(params);
    if (read.catalogue) {
      try {
        catalogueAt(read.catalogue);
      } catch (error) {
        throw new Error(`personas.catalogue: ${errorMessage(error)}`);
      }
    }
  },
};

const SYLLABLES = [
  'ba',
  'ce',
  'di',
  'fo',
  'gu',
  'ka',
  'le',
  'mi',
  'no',
  'pu',
  'ra',
  'se',
  'ti',
  'vo',
  'zu',
  'bre',
  'cla',
  'dro',
  'fli',
  'gra',
  'plo',
  'sta',
  'tri',
  'vel',
  'mar',
  'son',
  'lin',
  'dor',
];

/** A reproducible list of made-up words (never stop words, always ≥ 4 letters). */
function wordList(key: string, size: number): string[] {
  const rng = createRng(seedFromText(key));
  const words = new Set<string>();
  while (words.size < size) {
    const parts = 2 + rng.int(2);
    let word = '';
    for (let i = 0; i < parts; i++) word += SYLLABLES[rng.int(SYLLABLES.length)];
    words.add(word);
  }
  return [...words];
}

/** Low indexes come up more often, as a few words dominate any real voice. */
function pickSkewed(pool: readonly string[], rng: Rng): string {
  const u = rng.next();
  return pool[Math.floor(u * u * pool.length)] ?? pool[0] ?? 'word';
}

// Two letters at most: dropped by the tokeniser in any language, like real filler words.
const FILLERS = ['a', 'of', 'to', 'it', 'is', 'in', 'on', 'as'];

function sentences(words: readonly string[], rng: Rng): string {
  const out: string[] = [];
  let sentence: string[] = [];
  for (const word of words) {
    sentence.push(word);
    if (rng.next() < 0.3) sentence.push(FILLERS[rng.int(FILLERS.length)] ?? 'the');
    if (sentence.length >= 8 + rng.int(5)) {
      out.push(capitalise(sentence.join(' ')));
      sentence = [];
    }
  }
  if (sentence.length > 0) out.push(capitalise(sentence.join(' ')));
  return out.join(' ');
}

function capitalise(sentence: string): string {
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}
