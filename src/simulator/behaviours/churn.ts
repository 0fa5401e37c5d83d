/**
 * Simulated answering for the churn check: multiple-choice items, and open items (free-form
 * answers, openAnswers.ts) found by their system and prompt texts.
 *
 * Scenario block (under a model's `churn:` key; every field optional):
 *
 *   churn:
 *     items: fixtures/items/general.yml  # item file whose answer key the model "knows";
 *                                        # relative to the working directory, else to
 *                                        # model-gate's own folder (built-in fixtures)
 *     accuracy: 0.7        # typical chance of answering an item correctly, in (0, 1)
 *     spread: 1.5          # SD of item difficulty on the logit scale (0: all items alike)
 *     difficulty-seed: 1   # seed of the item difficulties; keep it equal across models so
 *                          # that baseline and candidate find the same items hard
 *     domains:             # logit shift per domain (negative: worse)
 *       law: -1.2
 *     item-shifts:         # logit shift per item id, on top of the domain shift
 *       law-03: -2
 *     invalid: 0.02        # chance that an answer is not valid JSON (open items: empty)
 *     malformed: 0.2       # open items: chance that a wrong answer is malformed (broken
 *                          # JSON, no number, no label) rather than plausible
 *
 * Each item's latent probability of a correct answer is
 *   logit(p) = logit(accuracy) + spread·z(item) + domains[domain] + item-shifts[id],
 * with z(item) a standard normal draw seeded by (difficulty-seed, item id): `latentAccuracy`
 * computes it, so tests know the truth. A stochastic answer is a Bernoulli(p) draw seeded by
 * (model, prompt, seed option); a wrong answer is another valid letter. At temperature 0 the
 * model answers its most likely option: correct exactly when p ≥ ½.
 *
 * Asked for token logprobs (the exact churn estimator over Ollama), the model reports its
 * distribution at temperature 1: ln p for the correct letter and ln((1 − p)/(m − 1)) for each
 * of the m − 1 others (`letterLogprobs`). The simulator does not model temperature otherwise:
 * its sampled answers are correct with probability p at any temperature above 0, so the exact
 * estimator equals the sampled one at churn.temperature 1 only.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import {
  type ChoiceItem,
  type ChurnItem,
  choiceLetters,
  loadItemsFile,
} from '../../checks/churn/items.js';
import type { OpenItem } from '../../checks/churn/openItems.js';
import { openPromptKey } from '../../checks/churn/openPrompt.js';
import { itemPromptKey, parseChurnPrompt } from '../../checks/churn/prompt.js';
import { expecting } from '../../config/issues.js';
import { packageRoot } from '../../packageRoot.js';
import { normalQuantile } from '../../stats/normal.js';
import { createRng, seedFromText } from '../../stats/prng.js';
import type { Behaviour, SimulatedChat } from '../behaviour.js';
import { parseBehaviourParams } from '../behaviourParams.js';
import { drawOpenAnswer } from './openAnswers.js';

export const DEFAULT_CHURN_ITEMS = 'fixtures/items/general.yml';

/** A number that must pass `ok`, refused in the words of `expected`. */
const numberWhere = (ok: (v: number) => boolean, expected: string) =>
  z.number(expecting(expected)).refine(ok, expecting(expected));

const shifts = z
  .record(
    z.string(),
    z.number(expecting('a number (logit shift)')).finite(expecting('a number (logit shift)')),
    expecting('a map of names to numbers'),
  )
  .default({});

const paramsSchema = z
  .strictObject(
    {
      items: z
        .string(expecting('a path to an item file'))
        .min(1, expecting('a path to an item file'))
        .default(DEFAULT_CHURN_ITEMS),
      accuracy: numberWhere(
        (v) => v > 0 && v < 1,
        'a probability strictly between 0 and 1',
      ).default(0.7),
      spread: numberWhere((v) => v >= 0, 'a non-negative number').default(1.5),
      'difficulty-seed': numberWhere(Number.isInteger, 'an integer').default(1),
      domains: shifts,
      'item-shifts': shifts,
      invalid: numberWhere((v) => v >= 0 && v < 1, 'a probability in [0, 1)').default(0),
      malformed: numberWhere((v) => v >= 0 && v <= 1, 'a probability in [0, 1]').default(0.2),
    },
    expecting(
      'a map (items, accuracy, spread, difficulty-seed, domains, item-shifts, invalid, malformed)',
    ),
  )
  .transform(({ 'difficulty-seed': difficultySeed, 'item-shifts': itemShifts, ...block }) => ({
    ...block,
    difficultySeed,
    itemShifts,
  }));

export type ChurnBehaviourParams = z.output<typeof paramsSchema>;

export function parseChurnParams(raw: unknown): ChurnBehaviourParams {
  return parseBehaviourParams(paramsSchema, 'churn', raw);
}

const logit = (p: number): number => Math.log(p / (1 - p));

type LatentParams = Pick<
  ChurnBehaviourParams,
  'accuracy' | 'spread' | 'difficultySeed' | 'domains' | 'itemShifts'
>;

/** logit of the model's true probability of answering this item correctly. */
export function latentLogit(params: LatentParams, item: Pick<ChurnItem, 'id' | 'domain'>): number {
  // A standard normal difficulty per item, the same for every model with this seed.
  const u = createRng(
    seedFromText(`difficulty\u0000${params.difficultySeed}\u0000${item.id}`),
  ).next();
  const z = normalQuantile(Math.min(1 - 1e-12, Math.max(1e-12, u)));
  return (
    logit(params.accuracy) +
    params.spread * z +
    (params.domains[item.domain] ?? 0) +
    (params.itemShifts[item.id] ?? 0)
  );
}

/** The model's true probability of answering this item correctly. */
export function latentAccuracy(
  params: LatentParams,
  item: Pick<ChurnItem, 'id' | 'domain'>,
): number {
  return 1 / (1 + Math.exp(-latentLogit(params, item)));
}

/** ln(1 + e^x) without overflow for large x. */
const softplus = (x: number): number => (x > 30 ? x : Math.log1p(Math.exp(x)));

/**
 * Log-probability of each letter at temperature 1: ln p for the correct one, ln((1 − p)/(m − 1))
 * for each of the m − 1 others, from the logit so that p near 0 or 1 stays finite.
 */
export function letterLogprobs(
  logitP: number,
  item: Pick<ChoiceItem, 'answer' | 'choices'>,
): Record<string, number> {
  const letters = choiceLetters(item);
  const wrong = -softplus(logitP) - Math.log(letters.length - 1);
  return Object.fromEntries(
    letters.map((letter) => [letter, letter === item.answer ? -softplus(-logitP) : wrong]),
  );
}

/**
 * One answer: 'correct', or the letter of a wrong choice, or null for an invalid reply.
 * Pure: the same (model, prompt, seed, temperature) always gives the same draw.
 */
export function drawChurnAnswer(
  latent: number,
  item: Pick<ChoiceItem, 'answer' | 'choices'>,
  draw: { model: string; prompt: string; seed: number; temperature: number },
  invalid = 0,
): string | null {
  const rng = createRng(
    seedFromText(`${draw.model}\u0000${draw.seed}\u0000${draw.temperature}\u0000${draw.prompt}`),
  );
  if (rng.next() < invalid) return null;
  const correct = draw.temperature === 0 ? latent >= 0.5 : rng.next() < latent;
  if (correct) return item.answer;
  const wrong = choiceLetters(item).filter((letter) => letter !== item.answer);
  return wrong[rng.int(wrong.length)] as string;
}

/** An item file's items by the key of their prompt: choice items and open items apart. */
interface ItemsByPrompt {
  choice: Map<string, ChoiceItem>;
  open: Map<string, OpenItem>;
}

const itemCache = new Map<string, ItemsByPrompt>();

/** Item files already found, by working folder and name: a lookup per request costs a stat. */
const located = new Map<string, string>();

/** The item file: as given when it exists there, otherwise among model-gate's own fixtures. */
function locateItems(file: string): string {
  const key = `${process.cwd()}\u0000${file}`;
  let found = located.get(key);
  if (found === undefined) {
    found = path.resolve(file);
    const builtIn = path.join(packageRoot(), file);
    if (!path.isAbsolute(file) && !existsSync(found) && existsSync(builtIn)) found = builtIn;
    located.set(key, found);
  }
  return found;
}

function itemsByPrompt(file: string): ItemsByPrompt {
  const absolute = locateItems(file);
  let found = itemCache.get(absolute);
  if (!found) {
    found = { choice: new Map(), open: new Map() };
    for (const item of loadItemsFile(absolute, file).items as ChurnItem[]) {
      if (item.kind === 'open') found.open.set(openPromptKey(item.system, item.prompt), item);
      else found.choice.set(itemPromptKey(item), item);
    }
    itemCache.set(absolute, found);
  }
  return found;
}

/** An open item's answer, when the chat is one of the file's open prompts; else null. */
function openAnswer(chat: SimulatedChat, params: ChurnBehaviourParams): string | null {
  const item = itemsByPrompt(params.items).open.get(openPromptKey(chat.system, chat.user));
  if (!item) return null;
  return drawOpenAnswer(
    latentAccuracy(params, item),
    item,
    { model: chat.model, seed: chat.seed, temperature: chat.temperature },
    { invalid: params.invalid, malformed: params.malformed },
  );
}

export const churnBehaviour: Behaviour = {
  name: 'churn',
  validate: parseChurnParams,
  answer(chat: SimulatedChat, raw: unknown): string | null {
    const asked = parseChurnPrompt(chat.user);
    if (!asked) return openAnswer(chat, parseChurnParams(raw));
    const params = parseChurnParams(raw);
    const item = itemsByPrompt(params.items).choice.get(itemPromptKey(asked));
    if (!item) {
      // A question the model was not given an answer key for: it guesses.
      const letters = choiceLetters(asked);
      const rng = createRng(seedFromText(`${chat.model}\u0000${chat.seed}\u0000${chat.user}`));
      return JSON.stringify({ answer: letters[rng.int(letters.length)] });
    }
    const answer = drawChurnAnswer(
      latentAccuracy(params, item),
      item,
      { model: chat.model, prompt: chat.user, seed: chat.seed, temperature: chat.temperature },
      params.invalid,
    );
    return answer === null ? 'I think the answer is' : JSON.stringify({ answer });
  },
  choiceLogprobs(chat, raw, content) {
    const asked = parseChurnPrompt(chat.user);
    const at = /"answer"\s*:\s*"/.exec(content);
    if (!asked || !at) return null;
    const params = parseChurnParams(raw);
    const item = itemsByPrompt(params.items).choice.get(itemPromptKey(asked));
    const letters = choiceLetters(asked);
    return {
      offset: at.index + at[0].length,
      // An item without an answer key is a guess: every letter alike.
      alternatives: item
        ? letterLogprobs(latentLogit(params, item), item)
        : Object.fromEntries(letters.map((l) => [l, -Math.log(letters.length)])),
    };
  },
};
