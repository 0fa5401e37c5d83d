/**
 * `node --import tsx bench/oc/churnOnly.ts [--runs N --seed S --effect-runs N --variant-runs N
 * --open-runs N --open-only]`: the churn rows alone (`--open-only`: the open items' rows alone).
 */
import { wilsonInterval } from '../../src/stats/wilson.js';
import { operatingCharacteristics } from './churn.js';

function option(name: string): number | undefined {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? Number.NaN : Number(process.argv[index + 1]);
  return Number.isFinite(value) ? value : undefined;
}

const result = await operatingCharacteristics({
  runs: option('runs') ?? 200,
  seed: option('seed') ?? 1,
  effectRuns: option('effect-runs'),
  variantRuns: option('variant-runs'),
  openRuns: option('open-runs'),
  openOnly: process.argv.includes('--open-only'),
});
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
for (const r of result.rows) {
  const { low, high } = wilsonInterval(r.hits, r.runs);
  process.stdout.write(
    `| ${r.rule} | ${r.scenario} | ${r.hits}/${r.runs} | ${pct(r.hits / r.runs)} [${pct(low)}, ${pct(high)}] | ${r.target} | ${r.met ? 'yes' : 'NO'} |\n`,
  );
}
