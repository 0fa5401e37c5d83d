/**
 * The level of adaptive sampling's tests with the efficacy stop, under no change: single items
 * (the item test at α and at the stop's bound) and domains of open items (the domain test), for
 * a design and a bound.
 *
 *   npx tsx bench/adaptiveLevel.ts [items] [domains]
 *
 * Rows: the shipped design with its bound at 300 items (0.05 / 300), and the same design with
 * bounds of 0.001 and 0.01 (far looser than a run uses, so that stops under the null occur).
 */
import {
  type AdaptiveDesign,
  adaptiveItemTest,
  designOf,
  sampleItemAdaptively,
} from '../src/checks/churn/adaptive.js';
import { churnSettingsSchema } from '../src/checks/churn/settings.js';
import { createRng, type Rng } from '../src/stats/prng.js';
import { type Stratum, stratifiedExactTest } from '../src/stats/stratifiedExact.js';
import { wilsonInterval } from '../src/stats/wilson.js';

const items = Number(process.argv[2] ?? 100_000);
const domains = Number(process.argv[3] ?? 20_000);
const shipped = designOf(churnSettingsSchema.parse({ sampling: 'adaptive' }), 300);
const rows: Array<[string, AdaptiveDesign]> = [
  [`shipped, bound ${shipped.decided?.pAtMost.toPrecision(3)}`, shipped],
  ['shipped, bound 0.001', { ...shipped, decided: { pAtMost: 0.001 } }],
  ['shipped, bound 0.01', { ...shipped, decided: { pAtMost: 0.01 } }],
];

function draws(rng: Rng, p: [number, number]) {
  return (model: 'baseline' | 'candidate', _from: number, count: number): number => {
    const q = model === 'baseline' ? p[0] : p[1];
    let x = 0;
    for (let k = 0; k < count; k++) if (rng.next() < q) x++;
    return x;
  };
}

const pct = (k: number, n: number): string => {
  const { low, high } = wilsonInterval(k, n);
  return `${(k / n).toFixed(4)} [${low.toFixed(4)}, ${high.toFixed(4)}]`;
};

process.stdout.write(
  `| design | items decided (share) | item test p ≤ 0.05 | p ≤ 0.01 | p ≤ bound | domain test (10 open items, one-sided, both sides) p ≤ 0.05 | p ≤ 0.01 |\n|---|---|---|---|---|---|---|\n`,
);
for (const [name, design] of rows) {
  const bound = design.decided?.pAtMost ?? 0;
  const rng = createRng(2929);
  let decided = 0;
  const rejected = [0, 0, 0];
  for (let i = 0; i < items; i++) {
    const p = rng.next();
    const test = adaptiveItemTest(sampleItemAdaptively(draws(rng, [p, p]), design), design);
    if (test.decided) decided++;
    [0.05, 0.01, bound].forEach((a, j) => {
      if (test.pValue <= a) rejected[j] = (rejected[j] as number) + 1;
    });
  }
  const domainRejected = [0, 0];
  for (let d = 0; d < domains; d++) {
    const strata: Stratum[] = [];
    for (let i = 0; i < 10; i++) {
      const p = 0.3 + 0.4 * rng.next();
      const stages = sampleItemAdaptively(draws(rng, [p, p]), design);
      strata.push(...adaptiveItemTest(stages, design).domainStrata);
    }
    const test = stratifiedExactTest(strata);
    [0.05, 0.01].forEach((a, j) => {
      domainRejected[j] =
        (domainRejected[j] as number) + (test.pLower <= a ? 1 : 0) + (test.pUpper <= a ? 1 : 0);
    });
  }
  process.stdout.write(
    `| ${name} | ${decided} (${(decided / items).toFixed(5)}) | ${pct(rejected[0] as number, items)} | ${pct(rejected[1] as number, items)} | ${pct(rejected[2] as number, items)} | ${pct(domainRejected[0] as number, 2 * domains)} | ${pct(domainRejected[1] as number, 2 * domains)} |\n`,
  );
}
