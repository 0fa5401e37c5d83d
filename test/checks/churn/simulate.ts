/** Sample logs of simulated model pairs whose true per-item accuracies are known. */
import type { ChoiceItem } from '../../../src/checks/churn/items.js';
import { type ChurnSettings, churnSettingsSchema } from '../../../src/checks/churn/settings.js';
import { churnCallRecord, makeItems } from '../../../bench/oc/churnTruth.js';
import {
  type ChurnBehaviourParams,
  drawChurnAnswer,
  latentAccuracy,
} from '../../../src/simulator/behaviours/churn.js';
import type { ChurnCallRecord } from '../../../src/checks/churn/records.js';

// The question text feeds the simulator's seeds, so the golden files depend on it.
export function syntheticItems(domains: Record<string, number>): ChoiceItem[] {
  return makeItems(domains, {
    question: (domain, i) => `Synthetic ${domain} question ${i}`,
    choices: ['one', 'two', 'three', 'four'],
  });
}

export function params(overrides: Partial<ChurnBehaviourParams> = {}): ChurnBehaviourParams {
  return {
    items: 'unused',
    accuracy: 0.6,
    spread: 1.5,
    difficultySeed: 1,
    domains: {},
    itemShifts: {},
    invalid: 0,
    malformed: 0.2,
    ...overrides,
  };
}

export function settings(overrides: Partial<ChurnSettings> = {}): ChurnSettings {
  // Fixed K = 10 unless a test says otherwise: the analysis at a fixed K is these tests' subject.
  return { ...churnSettingsSchema.parse({ samples: 10 }), ...overrides };
}

export function record(
  model: string,
  item: ChoiceItem,
  mode: 'stochastic' | 'greedy',
  sample: number,
  answer: string | null,
  status: ChurnCallRecord['status'] = answer === null ? 'invalid' : 'ok',
): ChurnCallRecord {
  return churnCallRecord(model, item, mode, sample, answer, status, `hash-${item.id}`);
}

/** K stochastic samples (seed base + k) and one greedy sample per item for one model. */
export function simulateModel(
  model: string,
  items: readonly ChoiceItem[],
  behaviour: ChurnBehaviourParams,
  samples: number,
  baseSeed: number,
): ChurnCallRecord[] {
  const records: ChurnCallRecord[] = [];
  for (const item of items) {
    const latent = latentAccuracy(behaviour, item);
    for (let k = 0; k < samples; k++) {
      const answer = drawChurnAnswer(
        latent,
        item,
        { model, prompt: item.question, seed: baseSeed + k, temperature: 0.7 },
        behaviour.invalid,
      );
      records.push(record(model, item, 'stochastic', k, answer));
    }
    const greedy = drawChurnAnswer(latent, item, {
      model,
      prompt: item.question,
      seed: 42,
      temperature: 0,
    });
    records.push(record(model, item, 'greedy', 0, greedy));
  }
  return records;
}
