/**
 * Operating characteristics of the churn gate rules, on data drawn from a known truth
 * (bench/oc/churnTruth.ts) and pushed through the real analysis and gate at default settings:
 * K = 10, 300 items in 5 domains of 60, difficulty U-shaped (baseline p ~ Beta(0.3, 0.3)).
 *
 * Scenarios (law is the domain that moves; the others keep or gain):
 * - no change: the candidate's p equals the baseline's on every item;
 * - law −30: law's items fall 30 points on average, none by more than 0.5 (each falls by
 *   min(0.5, p)·s with s chosen so the mean is 30 points), while the other domains gain so the
 *   overall accuracy rises 1.5 points;
 * - ±0.5: 30 items move by 0.5, the 10 losses all in law, the 20 gains elsewhere;
 * - law ±0.5 no net: 10 law items gain 0.5 and 10 lose 0.5, nothing else moves.
 * The same scenarios are then repeated with open items (free-form answer texts graded by the
 * analysis, bench/oc/churnOpenTruth.ts) at the same budget, and with other generators:
 * Beta(0.5, 0.5), a mixture with 80% of items within 0.05 of 0 or 1, unequal domains (20 to 100
 * items), no greedy answers, K = 20.
 */
import { churnCheck } from '../../src/checks/churn/index.js';
import type { ChurnSection } from '../../src/checks/churn/section.js';
import type { CheckContext, GateFinding } from '../../src/checks/types.js';
import { CHECKS, type BuiltInConfig } from '../../src/checks/builtIn.js';
import { configSchema } from '../../src/config/schema.js';
import type { ChurnItem } from '../../src/checks/churn/items.js';
import type { OpenItem } from '../../src/checks/churn/openItems.js';
import { createRng, type Rng } from '../../src/stats/prng.js';
import {
  type Difficulty,
  drawDifficulty,
  drawRecords,
  makeItems,
  type TruthItem,
} from './churnTruth.js';
import { drawOpenRecords, openItemsLike } from './churnOpenTruth.js';
import type { CheckOc, OcOptions, OcRow } from './types.js';
import type { ChurnCallRecord } from '../../src/checks/churn/records.js';
import { foldRecords } from '../../src/checks/fold.js';

const LOST = 'law';

export interface Generator {
  name: string;
  domains: Record<string, number>;
  difficulty: Difficulty;
  samples: number;
  greedy: boolean;
  /** Open items: answers are texts the analysis grades; this share of wrong ones malformed. */
  open?: { malformed: number };
}

export const DEFAULT_GENERATOR: Generator = {
  name: 'Beta(0.3, 0.3), 5 × 60 items, K = 10, greedy',
  domains: { law: 60, physics: 60, economics: 60, history: 60, biology: 60 },
  difficulty: { kind: 'beta', a: 0.3, b: 0.3 },
  samples: 10,
  greedy: true,
};

/** The default generator with open items: six grader types, a fifth of wrong answers malformed. */
export const OPEN_GENERATOR: Generator = {
  ...DEFAULT_GENERATOR,
  name: 'open items (6 grader types, 20% of wrong answers malformed)',
  open: { malformed: 0.2 },
};

/** The first adaptive default (4 + 8 up to 20, one futility bar), compared with today's. */
export const FIRST_ADAPTIVE_DEFAULT = {
  sampling: 'adaptive',
  samplesFirst: 4,
  samplesStep: 8,
  samplesMax: 20,
  settledShare: 0.1,
  futilityP: 0.2,
  futilityFrom: 10,
  futilityTighten: 1,
};

export const OTHER_GENERATORS: Generator[] = [
  { ...DEFAULT_GENERATOR, name: 'Beta(0.5, 0.5)', difficulty: { kind: 'beta', a: 0.5, b: 0.5 } },
  {
    ...DEFAULT_GENERATOR,
    name: '80% settled (p within 0.05 of 0 or 1)',
    difficulty: { kind: 'mixture', settled: 0.8 },
  },
  {
    ...DEFAULT_GENERATOR,
    name: 'domains of 60, 20, 40, 80, 100 items',
    domains: { law: 60, physics: 20, economics: 40, history: 80, biology: 100 },
  },
  { ...DEFAULT_GENERATOR, name: 'no greedy answers', greedy: false },
  { ...DEFAULT_GENERATOR, name: 'K = 20', samples: 20 },
];

export type Scenario = 'no change' | 'law −30' | '±0.5' | 'law ±0.5 no net';

function baselineTruth(rng: Rng, g: Generator): TruthItem[] {
  return makeItems(g.domains).map((item) => {
    const p = drawDifficulty(rng, g.difficulty);
    return { item, baseline: p, candidate: p };
  });
}

function redrawDomain(
  rng: Rng,
  g: Generator,
  truth: TruthItem[],
  accept: (t: TruthItem[]) => boolean,
): void {
  const own = truth.filter((t) => t.item.domain === LOST);
  for (let attempt = 0; attempt < 1000 && !accept(own); attempt++) {
    for (const t of own) {
      t.baseline = drawDifficulty(rng, g.difficulty);
      t.candidate = t.baseline;
    }
  }
}

/** Moves `count` items chosen at random among those that can move by `by` without leaving [0, 1]. */
function move(rng: Rng, pool: TruthItem[], count: number, by: number): void {
  const movable = rng.shuffle(
    pool.filter((t) => t.candidate === t.baseline && t.baseline + by >= 0 && t.baseline + by <= 1),
  );
  for (const t of movable.slice(0, count)) t.candidate = t.baseline + by;
}

export function scenarioTruth(rng: Rng, g: Generator, scenario: Scenario): TruthItem[] {
  const truth = baselineTruth(rng, g);
  const own = () => truth.filter((t) => t.item.domain === LOST);
  const others = () => truth.filter((t) => t.item.domain !== LOST);
  if (scenario === 'law −30') {
    redrawDomain(
      rng,
      g,
      truth,
      (law) => law.reduce((s, t) => s + Math.min(0.5, t.baseline), 0) >= 0.3 * law.length,
    );
    const law = own();
    const room = law.reduce((s, t) => s + Math.min(0.5, t.baseline), 0);
    const scale = (0.3 * law.length) / room;
    for (const t of law) t.candidate = t.baseline - Math.min(0.5, t.baseline) * scale;
    const rest = others();
    const needed = 0.3 * law.length + 0.015 * truth.length;
    const gainRoom = rest.reduce((s, t) => s + Math.min(0.5, 1 - t.baseline), 0);
    const gainScale = Math.min(1, needed / gainRoom);
    for (const t of rest) t.candidate = t.baseline + Math.min(0.5, 1 - t.baseline) * gainScale;
  } else if (scenario === '±0.5') {
    redrawDomain(rng, g, truth, (law) => law.filter((t) => t.baseline >= 0.5).length >= 10);
    move(rng, own(), 10, -0.5);
    move(rng, others(), 20, 0.5);
  } else if (scenario === 'law ±0.5 no net') {
    redrawDomain(
      rng,
      g,
      truth,
      (law) =>
        law.filter((t) => t.baseline >= 0.5).length >= 10 &&
        law.filter((t) => t.baseline <= 0.5).length >= 10,
    );
    move(rng, own(), 10, -0.5);
    move(rng, own(), 10, 0.5);
  }
  return truth;
}

export interface RunOutcome {
  findings: GateFinding[];
  section: ChurnSection;
}

export function contextFor(
  g: Generator,
  method: 'fisher-bh' | 'rci' = 'fisher-bh',
): CheckContext<BuiltInConfig> {
  const config = configSchema(CHECKS).parse({
    models: { baseline: 'base', candidate: 'cand' },
    churn: { samples: g.samples, greedy: g.greedy, method },
  });
  return { config, baseDir: '.', models: { baseline: 'base', candidate: 'cand' } };
}

export function runOnce(
  seed: number,
  g: Generator,
  scenario: Scenario,
  ctx: CheckContext<BuiltInConfig>,
): RunOutcome {
  const rng = createRng(seed);
  const truth = scenarioTruth(rng, g, scenario);
  const models = { baseline: 'base', candidate: 'cand' };
  let items: ChurnItem[] = truth.map((t) => t.item);
  let records: ChurnCallRecord[];
  if (g.open) {
    const open = openItemsOf(g);
    const openTruth = truth.map((t, i) => ({ ...t, item: open[i] as OpenItem }));
    records = drawOpenRecords(rng, openTruth, models, g.samples, g.greedy, g.open.malformed);
    items = open;
  } else {
    records = drawRecords(rng, truth, models, g.samples, g.greedy);
  }
  const section = foldRecords(
    churnCheck.fold,
    records,
    { items, file: 'truth', warnings: [] },
    ctx,
  );
  return { section, findings: churnCheck.gate(section, ctx) };
}

/** The open items of a generator, built once: their graders compile JSON Schemas. */
const openItems = new Map<Generator, OpenItem[]>();

export function openItemsOf(g: Generator): OpenItem[] {
  let items = openItems.get(g);
  if (!items) {
    items = openItemsLike(
      Object.entries(g.domains).flatMap(([domain, count]) =>
        Array.from({ length: count }, (_, i) => ({ id: `${domain}-${i}`, domain })),
      ),
    );
    openItems.set(g, items);
  }
  return items;
}

const failed = (f: readonly GateFinding[]) => f.some((x) => x.severity === 'fail');
const named = (f: readonly GateFinding[], domain?: string) =>
  f.some(
    (x) =>
      x.rule === 'domain-loss' &&
      (x.severity === 'fail' || x.severity === 'warn') &&
      (domain === undefined || x.values?.domain === domain),
  );
const ruleFailed = (f: readonly GateFinding[], rule: string) =>
  f.some((x) => x.rule === rule && x.severity === 'fail');

type Target = { below?: number; above?: number };

function rowOf(
  rule: string,
  scenario: string,
  kind: OcRow['kind'],
  hits: number,
  runs: number,
  target: Target,
): OcRow {
  const rate = runs === 0 ? Number.NaN : hits / runs;
  const met = target.below !== undefined ? rate <= target.below : rate >= (target.above as number);
  const pct = (x: number) => `${Number((100 * x).toFixed(2))}%`;
  return {
    check: 'churn',
    rule,
    scenario,
    kind,
    runs,
    hits,
    target:
      target.below !== undefined ? `≤ ${pct(target.below)}` : `≥ ${pct(target.above as number)}`,
    met,
  };
}

export interface ChurnOcOptions extends OcOptions {
  generators?: Generator[];
  /** Runs per known-effect scenario of the default generator (default: a quarter of runs). */
  effectRuns?: number;
  /** Runs per scenario for the other generators (default 0: not run). */
  variantRuns?: number;
  /** Open items: runs as the default generator's (the same budget) unless set; 0: not run. */
  openRuns?: number;
  /** Only the open items' rows (more runs of them, say, without the default generator's). */
  openOnly?: boolean;
}

export async function operatingCharacteristics(options: ChurnOcOptions): Promise<CheckOc> {
  const rows: OcRow[] = [];
  const noChangeGateFails: boolean[] = [];
  // The other generators cost as much again: `npm run oc` runs the default one, the table in
  // docs/gate-validity-churn.md adds them (bench/oc/churnOnly.ts --variant-runs N).
  const variants = (options.variantRuns ?? 0) > 0 ? (options.generators ?? OTHER_GENERATORS) : [];
  const open = (options.openRuns ?? options.runs) > 0 ? [OPEN_GENERATOR] : [];
  const generators = options.openOnly
    ? [OPEN_GENERATOR]
    : [DEFAULT_GENERATOR, ...open, ...variants];
  for (const g of generators) {
    const main = g === DEFAULT_GENERATOR;
    // Open items get the budget of the default generator: same runs, same targets.
    const budget = main || g === OPEN_GENERATOR;
    const runs = main
      ? options.runs
      : g === OPEN_GENERATOR
        ? (options.openRuns ?? options.runs)
        : (options.variantRuns ?? Math.max(10, Math.round(options.runs / 20)));
    const effectRuns = budget ? (options.effectRuns ?? Math.max(10, Math.round(runs / 4))) : runs;
    const label = (s: string) => (main ? s : `${s} — ${g.name}`);
    const ctx = contextFor(g);
    const share = ctx.config.falseAlarmRate / ctx.config.checks.length;
    // Seeds of the other generators as before open items joined; open items have their own.
    const seedIndex = g === OPEN_GENERATOR ? 97 : [DEFAULT_GENERATOR, ...variants].indexOf(g);
    const seed = (scenario: number, run: number) =>
      options.seed * 1_000_003 + seedIndex * 100_003 + scenario * 10_007 + run;

    let fails = 0;
    let domainNamed = 0;
    let deteriorated = 0;
    for (let r = 0; r < runs; r++) {
      const { findings } = runOnce(seed(0, r), g, 'no change', ctx);
      const fail = failed(findings);
      if (main) noChangeGateFails.push(fail);
      if (fail) fails++;
      if (named(findings)) domainNamed++;
      if (ruleFailed(findings, 'max-deteriorated')) deteriorated++;
    }
    rows.push(
      rowOf('any (check fails)', label('no change'), 'no change', fails, runs, { below: share }),
    );
    rows.push(
      rowOf('domain-loss (any domain named)', label('no change'), 'no change', domainNamed, runs, {
        below: share / 2,
      }),
    );
    rows.push(
      rowOf('max-deteriorated', label('no change'), 'no change', deteriorated, runs, {
        below: share / 2,
      }),
    );

    // The known effects: what each must do to count, and the rate it must reach.
    const effects: [Scenario, number, string, string, (f: GateFinding[]) => boolean, Target][] = [
      [
        'law −30',
        1,
        'domain-loss (law named, gate fails)',
        'law −30, overall +1.5',
        (f) => named(f, LOST) && failed(f),
        { above: 0.9 },
      ],
      [
        '±0.5',
        2,
        'domain-loss (law named)',
        '30 items ±0.5, losses in law',
        (f) => named(f, LOST),
        { above: 0.8 },
      ],
      [
        'law ±0.5 no net',
        3,
        'domain-loss (law called a loss)',
        'law 10 × +0.5, 10 × −0.5',
        (f) => named(f, LOST),
        { below: 0.1 },
      ],
    ];
    for (const [scenario, code, rule, text, hit, target] of effectRuns > 0 ? effects : []) {
      let hits = 0;
      for (let r = 0; r < effectRuns; r++) {
        if (hit(runOnce(seed(code, r), g, scenario, ctx).findings)) hits++;
      }
      rows.push(rowOf(rule, label(text), 'known effect', hits, effectRuns, target));
    }

    if (main) {
      const rciCtx = contextFor(g, 'rci');
      let rciFails = 0;
      for (let r = 0; r < runs; r++) {
        if (failed(runOnce(seed(4, r), g, 'no change', rciCtx).findings)) rciFails++;
      }
      rows.push(
        rowOf('any, method: rci', label('no change'), 'no change', rciFails, runs, {
          below: share,
        }),
      );
    }
  }
  return { rows, noChangeGateFails };
}
