/**
 * Analysis time of the churn check on a synthetic sample log: 2,000 items × K = 10 × 2 models
 * (plus one greedy sample each), default settings (126 splits, 200 null replicates).
 * Target: under 2 s. Run: npx tsx bench/churn.ts
 */
import { analyseChurn } from '../src/checks/churn/analyse.js';
import type { ChurnItem } from '../src/checks/churn/items.js';
import { churnSettingsSchema } from '../src/checks/churn/settings.js';
import { createRng } from '../src/stats/prng.js';
import type { ChurnCallRecord } from '../src/checks/churn/records.js';

const ITEMS = 2000;
const SAMPLES = 10;
const DOMAINS = ['law', 'physics', 'economics', 'psychology'];

const rng = createRng(2026);
const items: ChurnItem[] = Array.from({ length: ITEMS }, (_, i) => ({
  id: `item-${i}`,
  domain: DOMAINS[i % DOMAINS.length] as string,
  question: `Question ${i}`,
  choices: ['a', 'b', 'c', 'd'],
  answer: 'A',
  line: i + 1,
}));

const records: ChurnCallRecord[] = [];
for (const model of ['baseline:8b', 'candidate:8b']) {
  for (const item of items) {
    const p = rng.next();
    for (let k = 0; k <= SAMPLES; k++) {
      const greedy = k === SAMPLES;
      const status = rng.next() < 0.01 ? 'invalid' : 'ok';
      const correct = greedy ? p >= 0.5 : rng.next() < p;
      records.push({
        v: 1,
        kind: 'call',
        check: 'churn',
        model,
        digest: null,
        key: `${item.id}#${greedy ? 'greedy' : k}`,
        sample: greedy ? 0 : k,
        options: {
          temperature: greedy ? 0 : 0.7,
          seed: greedy ? 42 : 1000 + k,
          num_ctx: 4096,
          num_predict: 32,
          think: false,
        },
        prompt_sha256: 'x',
        status,
        latency_ms: 10,
        attempts: 1,
        item: item.id,
        domain: item.domain,
        mode: greedy ? 'greedy' : 'stochastic',
        answer: status === 'ok' ? (correct ? 'A' : 'B') : null,
        correct: status === 'ok' ? correct : null,
      });
    }
  }
}

const settings = churnSettingsSchema.parse({});
const started = performance.now();
const section = analyseChurn({
  records,
  items,
  settings,
  baseline: 'baseline:8b',
  candidate: 'candidate:8b',
});
const elapsed = (performance.now() - started) / 1000;
const c = section.comparison;
console.log(
  `churn analysis: ${ITEMS} items × K=${SAMPLES} × 2 models (${records.length} records), ` +
    `${c?.rci.splits.count} splits, ${c?.null.replicates} null replicates: ${elapsed.toFixed(2)} s (target < 2 s)`,
);
process.exitCode = elapsed < 2 ? 0 : 1;
