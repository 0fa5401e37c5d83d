/**
 * Operating characteristics of a nightly run with a history (`output.history`): one model, no
 * candidate, measured night after night while nothing changes. Each run plays seven nights of
 * the dragon game (a scripted player with fresh draws every night, on the run's ten seeds, the
 * same each night as a nightly config plays them: careful, whose ECE is small and steady, or
 * overconfident, whose ECE is large and noisier) and keeps their ECE lines as the history.
 * On the seventh night it applies what a nightly run applies: the dragon comparisons with the
 * sixth night's report, the drift rule on the seven nights, and personas against the sixth
 * night (Fisher and Bonferroni, personas.ts). Churn has no failing rule in a single-model run.
 * The night fails when any of these rules fails; the budget holds when the share of failing
 * nights stays within `false-alarm-rate`.
 */
import { CHECKS, type BuiltInConfig } from '../../src/checks/builtIn.js';
import { dragonCheck } from '../../src/checks/dragon/index.js';
import { driftFalseAlarmRate } from '../../src/checks/dragon/rules.js';
import type { DragonSection } from '../../src/checks/dragon/section.js';
import type { CheckContext, GateFinding } from '../../src/checks/types.js';
import { checkFalseAlarmBudget } from '../../src/checks/types.js';
import { loadConfig } from '../../src/config/load.js';
// The checks hand their settings blocks to the config when the registry loads.
import { nightlyOf } from '../../src/checks/list.js';
import { HISTORY_VERSION, type HistoryEntry } from '../../src/history/entry.js';
import { historySection } from '../../src/history/section.js';
import { CAREFUL, OVERCONFIDENT, playScripted, type ScriptedPlayer } from './dragon.js';
import { NIGHTLY_SCENARIOS, simulateNightlyRun, withinShare } from './personas.js';
import type { CheckOc, OcOptions, OcRow } from './types.js';
import { foldRecords } from '../../src/checks/fold.js';

/** Nights played per run: the drift rule's default window. */
const NIGHTS = 7;
const MODEL = 'prod';

async function nightlyContext(seeds: readonly number[]) {
  const { config, baseDir } = loadConfig({
    checks: CHECKS,
    file: null,
    env: {},
    overrides: [
      { path: ['models', 'baseline'], value: MODEL, source: 'oc' },
      { path: ['output', 'history'], value: 'history.jsonl', source: 'oc' },
      { path: ['dragon', 'seeds'], value: [...seeds], source: 'oc' },
    ],
  });
  const ctx: CheckContext<BuiltInConfig> = {
    config,
    baseDir,
    models: { baseline: MODEL, candidate: null },
  };
  return { ctx, definitions: await dragonCheck.load(ctx) };
}

function entryOf(section: DragonSection, night: number): HistoryEntry {
  return {
    v: HISTORY_VERSION,
    date: new Date(Date.UTC(2026, 0, night, 3)).toISOString(),
    commit: null,
    model: MODEL,
    digest: null,
    verdict: 'pass',
    ...nightlyOf(CHECKS, { dragon: section }),
  };
}

/** The failing findings of the seventh night's dragon rules: comparisons and drift. */
async function dragonNight(
  player: ScriptedPlayer,
  seeds: readonly number[],
  stream: string,
): Promise<GateFinding[]> {
  const { ctx, definitions } = await nightlyContext(seeds);
  const sections = Array.from({ length: NIGHTS }, (_, n) =>
    foldRecords(
      dragonCheck.fold,
      playScripted(player, MODEL, seeds, `${stream}/night${n}`, definitions.promptSha256),
      definitions,
      ctx,
    ),
  );
  const tonight = sections[NIGHTS - 1] as DragonSection;
  // The previous night comes back from its report.json: a plain copy.
  const previous: unknown = JSON.parse(JSON.stringify(sections[NIGHTS - 2]));
  const entries = sections.map((s, n) => entryOf(s, n + 1));
  const history = historySection({
    checks: CHECKS,
    prior: entries.slice(0, -1),
    tonight: entries[NIGHTS - 1] as HistoryEntry,
    config: ctx.config,
    file: 'history.jsonl',
    appended: true,
  });
  return [...dragonCheck.gate(tonight, ctx, previous), ...history.findings].filter(
    (f) => f.severity === 'fail',
  );
}

/** Ten seeds of run i from a range no test uses (as in dragon.ts), different per run. */
function seedsOfRun(base: number, i: number): number[] {
  const start = 20_000 + ((base * 7919 + i * 10) % 80_000);
  return Array.from({ length: 10 }, (_, k) => start + k);
}

interface PlayerTally {
  fails: Record<string, number>;
  dragon: number;
  personas: number;
  nights: boolean[];
}

async function tallyNights(player: ScriptedPlayer, options: OcOptions): Promise<PlayerTally> {
  const tally: PlayerTally = { fails: {}, dragon: 0, personas: 0, nights: [] };
  const noChange = NIGHTLY_SCENARIOS[0];
  if (!noChange) throw new Error('no nightly personas scenario');
  for (let r = 0; r < options.runs; r++) {
    const stream = `nightly/${player.label}/${options.seed}/${r}`;
    const dragon = await dragonNight(player, seedsOfRun(options.seed, r), stream);
    for (const rule of new Set(dragon.map((f) => f.rule))) {
      tally.fails[rule] = (tally.fails[rule] ?? 0) + 1;
    }
    const personas = simulateNightlyRun(noChange, options.seed * 100_003 + r).findings.some(
      (f) => f.severity === 'fail',
    );
    if (dragon.length > 0) tally.dragon++;
    if (personas) tally.personas++;
    tally.nights.push(dragon.length > 0 || personas);
  }
  return tally;
}

/**
 * Rows per player: each dragon rule at its part of the share, the dragon check, nightly
 * personas, and the whole gate. The first player's nights are the whole-gate line.
 */
export async function nightlyWithHistory(
  options: OcOptions,
  players: readonly ScriptedPlayer[] = [CAREFUL, OVERCONFIDENT],
): Promise<CheckOc> {
  const { ctx } = await nightlyContext(seedsOfRun(options.seed, 0));
  const budget = ctx.config.falseAlarmRate;
  const share = checkFalseAlarmBudget(ctx.config);
  const part = driftFalseAlarmRate(ctx.config);
  const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
  const rows: OcRow[] = [];
  let noChangeGateFails: boolean[] = [];
  for (const player of players) {
    const tally = await tallyNights(player, options);
    if (player === players[0]) noChangeGateFails = tally.nights;
    const row = (check: string, name: string, hits: number, target: number): OcRow => ({
      check,
      rule: name,
      scenario: `nightly with a history, ${player.label}: ${NIGHTS} nights of 10 seeds`,
      kind: 'no change',
      runs: options.runs,
      hits,
      target: `≤ ${pct(target)}`,
      met: withinShare(hits, options.runs, target),
    });
    rows.push(
      ...['ece-increase', 'brier-above-chance', 'ece-drift'].map((name) =>
        row('dragon', name, tally.fails[name] ?? 0, part),
      ),
      row('dragon', 'any', tally.dragon, share),
      row('personas (nightly)', 'any', tally.personas, share),
      row('all three', 'whole gate', tally.nights.filter(Boolean).length, budget),
    );
  }
  return { rows, noChangeGateFails };
}
