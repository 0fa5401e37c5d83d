/**
 * Churn data from a known truth, written apart from the analysis: each item has a true
 * probability of being answered correctly by the baseline and by the candidate, and each of the
 * K samples is an independent Bernoulli draw of it. Nothing here calls the check's code; the
 * records are what a real run would log.
 */
import type { ChoiceItem, ChurnItem } from '../../src/checks/churn/items.js';
import type { ChurnCallRecord } from '../../src/sampleLog/index.js';
import type { Rng } from '../../src/stats/prng.js';

/** Beta(a, b) for a, b ≤ 1 by Jöhnk's method (accept when U^(1/a) + V^(1/b) ≤ 1). */
export function drawBeta(rng: Rng, a: number, b: number): number {
  for (;;) {
    const x = Math.log(1 - rng.next()) / a;
    const y = Math.log(1 - rng.next()) / b;
    const m = Math.max(x, y);
    const sum = Math.exp(x - m) + Math.exp(y - m);
    if (Math.log(sum) + m <= 0) return Math.exp(x - m) / sum;
  }
}

/** How hard the items are: the distribution their baseline p is drawn from. */
export type Difficulty =
  | { kind: 'beta'; a: number; b: number }
  /** Most items settled: `settled` of them within 0.05 of 0 or 1, the rest uniform. */
  | { kind: 'mixture'; settled: number };

export function drawDifficulty(rng: Rng, difficulty: Difficulty): number {
  if (difficulty.kind === 'beta') return drawBeta(rng, difficulty.a, difficulty.b);
  const u = rng.next();
  if (u < difficulty.settled / 2) return 0.05 * rng.next();
  if (u < difficulty.settled) return 1 - 0.05 * rng.next();
  return rng.next();
}

export interface TruthItem<I extends ChurnItem = ChoiceItem> {
  item: I;
  baseline: number;
  candidate: number;
}

/** How a generated item reads; only its id, domain and answer matter to the analysis. */
export interface ItemText {
  question(domain: string, index: number): string;
  choices: string[];
}

const PLAIN_TEXT: ItemText = {
  question: (domain, i) => `question ${i} of ${domain}`,
  choices: ['w', 'x', 'y', 'z'],
};

export function makeItems(
  domains: Record<string, number>,
  text: ItemText = PLAIN_TEXT,
): ChoiceItem[] {
  const items: ChoiceItem[] = [];
  for (const [domain, count] of Object.entries(domains)) {
    for (let i = 0; i < count; i++) {
      items.push({
        id: `${domain}-${i}`,
        domain,
        question: text.question(domain, i),
        choices: [...text.choices],
        answer: 'ABCD'[i % 4] as string,
        line: items.length + 1,
      });
    }
  }
  return items;
}

/**
 * A churn call record as a run logs it. `answer` null with status ok reads as an invalid
 * answer; a failed call (timeout, error) keeps no answer.
 */
export function churnCallRecord(
  model: string,
  item: ChoiceItem,
  mode: 'stochastic' | 'greedy',
  sample: number,
  answer: string | null,
  status: ChurnCallRecord['status'],
  promptSha256: string,
): ChurnCallRecord {
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
      num_predict: 32,
      think: false,
    },
    prompt_sha256: promptSha256,
    status,
    latency_ms: 1,
    attempts: 1,
    item: item.id,
    domain: item.domain,
    mode,
    answer: status === 'ok' ? answer : null,
    correct: status === 'ok' ? answer === item.answer : null,
  };
}

function callRecord(
  model: string,
  item: ChoiceItem,
  mode: 'stochastic' | 'greedy',
  sample: number,
  correct: boolean,
): ChurnCallRecord {
  const answer = correct ? item.answer : item.answer === 'A' ? 'B' : 'A';
  return churnCallRecord(model, item, mode, sample, answer, 'ok', `truth-${item.id}`);
}

/** K Bernoulli draws per item and model (and a greedy answer: right when p > 0.5). */
export function drawRecords(
  rng: Rng,
  truth: readonly TruthItem[],
  models: { baseline: string; candidate: string },
  samples: number,
  greedy: boolean,
): ChurnCallRecord[] {
  const records: ChurnCallRecord[] = [];
  for (const t of truth) {
    for (const [model, p] of [
      [models.baseline, t.baseline],
      [models.candidate, t.candidate],
    ] as const) {
      for (let k = 0; k < samples; k++)
        records.push(callRecord(model, t.item, 'stochastic', k, rng.next() < p));
      if (greedy) records.push(callRecord(model, t.item, 'greedy', 0, p > 0.5));
    }
  }
  return records;
}
