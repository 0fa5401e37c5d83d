/** `node --import tsx bench/oc/nightlyOnly.ts [--runs N --seed S]`: the nightly-with-history rows alone, N runs per player. */
import { wilsonInterval } from '../../src/stats/wilson.js';
import { nightlyWithHistory } from './nightly.js';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? Number.NaN : Number(process.argv[index + 1]);
  return Number.isFinite(value) ? value : fallback;
}

const result = await nightlyWithHistory({ runs: option('runs', 100), seed: option('seed', 1) });
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
for (const r of result.rows) {
  const { low, high } = wilsonInterval(r.hits, r.runs);
  process.stdout.write(
    `| ${r.check} | ${r.rule} | ${r.scenario} | ${r.kind} | ${r.hits}/${r.runs} | ${pct(r.hits / r.runs)} [${pct(low)}, ${pct(high)}] | ${r.target} | ${r.met ? 'yes' : 'NO'} |\n`,
  );
}
