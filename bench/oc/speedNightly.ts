/**
 * Operating characteristics of the nightly `decode-drop` rule, by simulation from a known
 * truth: each night the server runs at 60 tokens/s times a night factor (lognormal, σ 0.05: a
 * dedicated GPU's night-to-night spread), each of the check's 90 answers adds lognormal noise
 * (σ 0.25), and the night's rate is the median of its answers, as the history line keeps it.
 * The previous nights (`history.drift-nights`), then tonight at the true rate times (1 − drop),
 * through the rule's own analysis at the default limit. The rule is a limit, not a test, and
 * takes no share of the false-alarm budget: an unchanged night must fail it far more rarely
 * than the budget allows (a tenth of it), a night 10% slower (within the limit) rarely.
 */
import { type BuiltInConfig, CHECKS } from '../../src/checks/builtIn.js';
import { analyseDecodeDrop } from '../../src/checks/speed/nightly.js';
import type { SpeedNight } from '../../src/checks/speed/nightlyChart.js';
import { configSchema } from '../../src/config/schema.js';
import { createRng, mixSeed, type Rng } from '../../src/stats/prng.js';
import { quantile } from '../../src/stats/quantile.js';
import { wilsonInterval } from '../../src/stats/wilson.js';
import { normal } from './speedGenerator.js';
import type { CheckOc, OcOptions, OcRow } from './types.js';

const ANSWERS = 90;
const NIGHT_SIGMA = 0.05;
const ANSWER_SIGMA = 0.25;

function night(rng: Rng, factor: number): SpeedNight {
  const server = 60 * factor * Math.exp(NIGHT_SIGMA * normal(rng));
  const rates = Array.from(
    { length: ANSWERS },
    () => server * Math.exp(ANSWER_SIGMA * normal(rng)),
  );
  return { decodeTokensPerSecond: quantile(rates, 0.5) };
}

function defaults(): BuiltInConfig {
  return configSchema(CHECKS).parse({ models: { baseline: 'prod' }, checks: ['speed'] });
}

/** Histories (of `runs`) whose night fails when tonight is `drop` slower, at the defaults. */
export function decodeDropFailures(drop: number, runs: number, seed: number): number {
  const config = defaults();
  const window = config.history.driftNights;
  const rng = createRng(mixSeed(seed));
  let failed = 0;
  for (let run = 0; run < runs; run++) {
    const nights = Array.from({ length: window }, () => night(rng, 1));
    nights.push(night(rng, 1 - drop));
    if (analyseDecodeDrop(nights, config.speed.gate.maxDecodeDrop, window).fired) failed++;
  }
  return failed;
}

/** Tonight's drop, and the share of failing nights it must stay under or reach. */
const DROPS: {
  drop: number;
  kind: OcRow['kind'];
  target: { atMost: number } | { atLeast: number } | null;
}[] = [
  { drop: 0, kind: 'no change', target: { atMost: 0.005 } },
  { drop: 0.1, kind: 'no change', target: { atMost: 0.02 } },
  { drop: 0.2, kind: 'known effect', target: null },
  { drop: 0.25, kind: 'known effect', target: null },
  { drop: 0.3, kind: 'known effect', target: { atLeast: 0.8 } },
  { drop: 0.35, kind: 'known effect', target: { atLeast: 0.95 } },
];

/** Ten histories per run of the other rows: a night is cheap, and the rates are small. */
export function decodeDropCharacteristics(options: OcOptions): CheckOc {
  const config = defaults();
  const runs = 10 * options.runs;
  const pct = (x: number, digits: number) => `${(100 * x).toFixed(digits)}%`;
  const rows = DROPS.map(({ drop, kind, target }, k): OcRow => {
    const hits = decodeDropFailures(drop, runs, options.seed * 1000 + 900 + k);
    const scenario = `nightly with a history: ${config.history.driftNights} previous nights, tonight ${drop === 0 ? 'unchanged' : `${pct(drop, 0)} slower`} (σ 0.25 per answer, 0.05 per night; limit ${pct(config.speed.gate.maxDecodeDrop, 0)})`;
    const base = { check: 'speed', rule: 'decode-drop', scenario, kind, runs, hits };
    if (target === null) return { ...base, target: 'shown', met: true };
    if ('atMost' in target) {
      const met = wilsonInterval(hits, runs).low <= target.atMost;
      return { ...base, target: `≤ ${pct(target.atMost, 1)}`, met };
    }
    return { ...base, target: `≥ ${pct(target.atLeast, 0)}`, met: hits / runs >= target.atLeast };
  });
  return { rows, noChangeGateFails: [] };
}
