/**
 * `node --import tsx bench/oc/personasOnly.ts [--runs N --seed S --scenario TEXT --nightly]`:
 * the personas rows alone, N runs per scenario (not a quarter), for the scenarios whose name
 * contains TEXT; `--nightly` measures the nightly scenarios (Fisher and Bonferroni).
 */
import { wilsonInterval } from '../../src/stats/wilson.js';
import {
  LOOK_ALIKE_POOL_SCENARIOS,
  LOOK_ALIKE_SCENARIOS,
  LOOK_ALIKE_TWIN_SCENARIOS,
  NIGHTLY_SCENARIOS,
  nightlyCharacteristics,
  operatingCharacteristics,
  RUN_SHARE,
  SCENARIOS,
} from './personas.js';

function option(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? undefined : process.argv[index + 1];
}

const nightly = process.argv.includes('--nightly');
const filter = option('scenario') ?? '';
const all = nightly
  ? NIGHTLY_SCENARIOS
  : [
      ...SCENARIOS,
      ...LOOK_ALIKE_SCENARIOS,
      ...LOOK_ALIKE_POOL_SCENARIOS,
      ...LOOK_ALIKE_TWIN_SCENARIOS,
    ];
const chosen = all.filter((s) => s.name.includes(filter));
const options = {
  runs: Number(option('runs') ?? 100) * RUN_SHARE,
  seed: Number(option('seed') ?? 1),
};
const measure = nightly ? nightlyCharacteristics : operatingCharacteristics;
const result = await measure(options, {}, chosen);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
for (const r of result.rows) {
  const { low, high } = wilsonInterval(r.hits, r.runs);
  process.stdout.write(
    `| ${r.check} | ${r.rule} | ${r.scenario} | ${r.kind} | ${r.hits}/${r.runs} | ${pct(r.hits / r.runs)} [${pct(low)}, ${pct(high)}] | ${r.target} | ${r.met ? 'yes' : 'NO'} |\n`,
  );
}
