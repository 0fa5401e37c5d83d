/**
 * `npm run oc [-- --runs N --seed S]`: every check's operating characteristics at default
 * settings, then the whole gate on two identical models (a run fails when any check fails).
 * The table printed here is the one in docs/gate-validity.md.
 */
import { wilsonInterval } from '../../src/stats/wilson.js';
import { operatingCharacteristics as churn } from './churn.js';
import { operatingCharacteristics as dragon } from './dragon.js';
import { nightlyWithHistory } from './nightly.js';
import { nightlyCharacteristics, operatingCharacteristics as personas } from './personas.js';
import { operatingCharacteristics as speed } from './speed.js';
import { decodeDropCharacteristics } from './speedNightly.js';
import type { CheckOc, OcOptions, OcRow } from './types.js';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? Number.NaN : Number(process.argv[index + 1]);
  return Number.isFinite(value) ? value : fallback;
}

function pct(x: number): string {
  return `${(100 * x).toFixed(1)}%`;
}

function row(r: OcRow): string {
  const { low, high } = wilsonInterval(r.hits, r.runs);
  const rate = `${pct(r.hits / r.runs)} [${pct(low)}, ${pct(high)}]`;
  return `| ${r.check} | ${r.rule} | ${r.scenario} | ${r.kind} | ${r.hits}/${r.runs} | ${rate} | ${r.target} | ${r.met ? 'yes' : 'NO'} |`;
}

const options: OcOptions = { runs: option('runs', 200), seed: option('seed', 1) };
const results: CheckOc[] = [];
const lines = [
  '| check | rule | scenario | kind | hits | rate [95% Wilson] | target | met |',
  '|---|---|---|---|---|---|---|---|',
];
for (const measure of [churn, dragon, personas]) {
  const result = await measure(options);
  results.push(result);
  for (const r of result.rows) lines.push(row(r));
}
const runs = Math.min(...results.map((r) => r.noChangeGateFails.length));
let wholeGateFails = 0;
for (let i = 0; i < runs; i++) {
  if (results.some((r) => r.noChangeGateFails[i])) wholeGateFails++;
}
const whole: OcRow = {
  check: 'all three',
  rule: 'whole gate',
  scenario: 'two identical models',
  kind: 'no change',
  runs,
  hits: wholeGateFails,
  target: '≤ 5%',
  met: runs > 0 && wholeGateFails / runs <= 0.05,
};
lines.push(row(whole));
// The speed check runs only when named: its rows stand apart from the default gate's.
const speedResult = await speed(options);
results.push(speedResult);
for (const r of speedResult.rows) lines.push(row(r));
// Its nightly rule, on histories of one model.
const decodeDrop = decodeDropCharacteristics(options);
results.push(decodeDrop);
for (const r of decodeDrop.rows) lines.push(row(r));
// Nightly runs (one model, a history): nightly personas, then the dragon with its drift rule
// and the whole gate night by night (a quarter of the runs, like personas).
const nightly = { ...options, runs: Math.max(1, Math.ceil(options.runs / 4)) };
for (const result of [await nightlyCharacteristics(options), await nightlyWithHistory(nightly)]) {
  results.push(result);
  for (const r of result.rows) lines.push(row(r));
}
process.stdout.write(`${lines.join('\n')}\n`);
process.exitCode = [...results.flatMap((r) => r.rows), whole].every((r) => r.met) ? 0 : 1;
