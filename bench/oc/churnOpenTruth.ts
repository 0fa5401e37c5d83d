/**
 * Churn data from a known truth for open items: the same truths as bench/oc/churnTruth.ts
 * (each item's true probability of a right answer per model), but each sample is an answer
 * text — right, plausibly wrong or (at `malformed`) malformed, as the simulator writes them —
 * logged as a run logs it. The analysis grades the texts with the items' graders; nothing
 * here calls the analysis. The items cycle through six grader types.
 */
import { parseItems } from '../../src/checks/churn/items.js';
import type { OpenItem } from '../../src/checks/churn/openItems.js';
import { itemPromptHash } from '../../src/checks/churn/prompt.js';
import type { Rng } from '../../src/stats/prng.js';
import { openAnswerText } from '../../src/simulator/behaviours/openAnswers.js';
import type { TruthItem } from './churnTruth.js';
import type { ChurnCallRecord } from '../../src/checks/churn/records.js';

/** One open item per grader type, as an items file writes it; `n` makes each item its own. */
const SHAPES: ((n: number) => Record<string, unknown>)[] = [
  (n) => ({ prompt: `Is ${n} even? Answer yes or no.`, expected: n % 2 === 0 ? 'yes' : 'no' }),
  (n) => ({ prompt: `Name city ${n}.`, expected: [`City-${n}`], grader: 'contains' }),
  (n) => ({
    prompt: `Reference of order ${n}?`,
    expected: `REF-${n}-AB`,
    grader: { type: 'regex', pattern: `^REF-${n}-[A-Z]{2}$` },
  }),
  (n) => ({
    prompt: `Total of order ${n}?`,
    expected: n * 1.5,
    grader: { type: 'number', tolerance: 0.01 },
  }),
  (n) => ({
    prompt: `Order ${n} as JSON?`,
    expected: { order: n },
    grader: {
      type: 'json',
      schema: { type: 'object', required: ['order'], properties: { order: { type: 'integer' } } },
    },
  }),
  (n) => ({
    prompt: `Ticket ${n}: label it.`,
    expected: ['billing', 'shipping', 'returns'][n % 3],
    grader: { type: 'label', labels: ['billing', 'shipping', 'returns'] },
  }),
];

/** Open items with the ids and domains of `like`, their graders cycling through the six types. */
export function openItemsLike(like: readonly { id: string; domain: string }[]): OpenItem[] {
  const raw = like.map((item, n) => ({
    id: item.id,
    domain: item.domain,
    ...(SHAPES[n % SHAPES.length] as (n: number) => Record<string, unknown>)(n),
  }));
  return parseItems(JSON.stringify(raw), 'open-truth.json').items as OpenItem[];
}

/** One answer text: right with probability p, else malformed with probability `malformed`. */
function answer(rng: Rng, item: OpenItem, p: number, malformed: number): string {
  return openAnswerText(item, rng.next() < p, malformed, rng);
}

function openRecord(
  model: string,
  item: OpenItem,
  mode: 'stochastic' | 'greedy',
  sample: number,
  text: string,
  hash: string,
): ChurnCallRecord {
  const grade = item.grader.grade(text);
  return {
    v: 1,
    kind: 'call',
    check: 'churn',
    model,
    digest: null,
    key: `${item.id}#${mode === 'greedy' ? 'greedy' : sample}`,
    sample,
    options: {
      temperature: mode === 'greedy' ? 0 : 0.7,
      seed: sample,
      num_ctx: 4096,
      num_predict: item.maxTokens,
      think: false,
    },
    prompt_sha256: hash,
    status: 'ok',
    latency_ms: 1,
    attempts: 1,
    item: item.id,
    domain: item.domain,
    mode,
    answer: grade.reading,
    correct: grade.correct,
    text,
    grader: item.grader.fingerprint,
    ...(grade.offLabel ? { off_label: true } : {}),
  };
}

/** K answers per item and model (and a greedy one: right when p > 0.5), as texts. */
export function drawOpenRecords(
  rng: Rng,
  truth: readonly TruthItem<OpenItem>[],
  models: { baseline: string; candidate: string },
  samples: number,
  greedy: boolean,
  malformed: number,
): ChurnCallRecord[] {
  const records: ChurnCallRecord[] = [];
  for (const t of truth) {
    const hash = itemPromptHash(t.item);
    for (const [model, p] of [
      [models.baseline, t.baseline],
      [models.candidate, t.candidate],
    ] as const) {
      for (let k = 0; k < samples; k++) {
        records.push(
          openRecord(model, t.item, 'stochastic', k, answer(rng, t.item, p, malformed), hash),
        );
      }
      if (greedy) {
        const text = answer(rng, t.item, p > 0.5 ? 1 : 0, malformed);
        records.push(openRecord(model, t.item, 'greedy', 0, text, hash));
      }
    }
  }
  return records;
}
