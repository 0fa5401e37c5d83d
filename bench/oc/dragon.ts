/**
 * Operating characteristics of the dragon gate rules, measured from a known truth.
 *
 * The games are played by the real engine (GameSession) with scripted players whose confidence
 * behaviour is defined, not estimated: the reference policies of players.ts (careful states the
 * protocol's open-edge probabilities, random 0.5, overconfident 0.95) and an "overstating"
 * careful player that states a chosen value toward unexplored cells, where it is right about
 * 64% of the time. Baseline and candidate draw their moves from independent streams, so two
 * identical players are two samples of the same behaviour, as two runs of one model at a
 * temperature above 0 are. Their records go through the check's real `analyse`, `gate` and
 * `rules`, as in a run.
 *
 * Rows: per failing rule, two identical players (false alarms, target ≤ the rule's share) and
 * known calibration losses (power); the instrument control on every 10-seed window of seeds
 * 0–1999 (target: no false INCONCLUSIVE).
 */
import { type BuiltInConfig, CHECKS } from '../../src/checks/builtIn.js';
import { dragonCheck } from '../../src/checks/dragon/index.js';
import {
  carefulConfidence,
  playReferenceGames,
  type ReferencePlayer,
  referenceAnswer,
} from '../../src/checks/dragon/players.js';
import { isDragonRecord } from '../../src/checks/dragon/records.js';
import type { DragonSection } from '../../src/checks/dragon/section.js';
import { GameSession } from '../../src/checks/dragon/session.js';
import { loadConfig } from '../../src/config/load.js';
// The checks hand their settings blocks to the config when the registry loads.
import '../../src/checks/builtIn.js';
import type { DragonDefinitions } from '../../src/checks/dragon/definitions.js';
import { foldRecords } from '../../src/checks/fold.js';
import type { CheckContext, GateFinding } from '../../src/checks/types.js';
import { checkFalseAlarmBudget } from '../../src/checks/types.js';
import type { SampleRecord } from '../../src/sampleLog/index.js';
import { createRng, seedFromText } from '../../src/stats/prng.js';
import { wilsonInterval } from '../../src/stats/wilson.js';
import type { CheckOc, OcOptions, OcRow } from './types.js';

/** A player with a known confidence behaviour. */
export interface ScriptedPlayer {
  label: string;
  policy: ReferencePlayer;
  /** careful only: what it states toward an unexplored cell (truth: right ≈ 64% of the time). */
  unexploredConfidence?: number;
}

export const CAREFUL: ScriptedPlayer = { label: 'careful', policy: 'careful' };
export const RANDOM: ScriptedPlayer = { label: 'random (0.5)', policy: 'random' };
export const OVERCONFIDENT: ScriptedPlayer = {
  label: 'overconfident (0.95)',
  policy: 'overconfident',
};
export const overstating = (stated: number): ScriptedPlayer => ({
  label: `careful stating ${stated} toward unexplored cells`,
  policy: 'careful',
  unexploredConfidence: stated,
});

const WALLS = 40;
const NO_REQUEST = { temperature: 0, seed: 0, num_ctx: 0, num_predict: 0, think: false };

/**
 * The games of one scripted player on these seeds, as a model's run would log them. `stream`
 * names the player's random draws: two streams are two independent samples of the behaviour.
 */
export function playScripted(
  player: ScriptedPlayer,
  model: string,
  seeds: readonly number[],
  stream: string,
  promptSha256: string,
): SampleRecord[] {
  const unexplored = carefulConfidence(WALLS).unexplored;
  const records: SampleRecord[] = [];
  for (const seed of seeds) {
    const session = new GameSession({ seed, walls: WALLS, model, digest: null, promptSha256 });
    const rng = createRng(seedFromText(`${stream}/${seed}`));
    while (!session.finished) {
      const answer = referenceAnswer(player.policy, session.observation(), rng, WALLS);
      const stated =
        player.unexploredConfidence !== undefined && answer.confidence === unexplored
          ? player.unexploredConfidence
          : answer.confidence;
      records.push(
        session.play({
          status: 'ok',
          move: answer.move,
          confidence: stated,
          latencyMs: 1,
          attempts: 1,
          options: NO_REQUEST,
        }),
      );
    }
    records.push(session.gameRecord());
  }
  return records;
}

export interface Harness {
  ctx: CheckContext<BuiltInConfig>;
  definitions: DragonDefinitions;
  seeds: number[];
}

/** The default config (three checks, 5% budget) with a baseline and a candidate. */
export async function harness(seeds: readonly number[] = defaultSeeds()): Promise<Harness> {
  const loaded = loadConfig({
    checks: CHECKS,
    file: null,
    env: {},
    overrides: [
      { path: ['models', 'baseline'], value: 'base', source: 'oc' },
      { path: ['models', 'candidate'], value: 'cand', source: 'oc' },
      { path: ['dragon', 'seeds'], value: [...seeds], source: 'oc' },
    ],
  });
  const ctx: CheckContext<BuiltInConfig> = {
    config: loaded.config,
    baseDir: loaded.baseDir,
    models: { baseline: 'base', candidate: 'cand' },
  };
  const definitions = await dragonCheck.load(ctx);
  return { ctx, definitions, seeds: [...seeds] };
}

function defaultSeeds(): number[] {
  return Array.from({ length: 10 }, (_, i) => i);
}

export interface PairOutcome {
  findings: GateFinding[];
  section: DragonSection;
  /** The ece-increase card's stated smallest detected rise, when it gives one. */
  statedEceRise: number | null;
}

/**
 * One simulated run: baseline and candidate each play the seeds (the seeds themselves are
 * drawn per run from a wide range, so runs are independent mazes), then analyse + gate + rules.
 */
export function simulatePair(
  h: Harness,
  baseline: ScriptedPlayer,
  candidate: ScriptedPlayer,
  run: string,
): PairOutcome {
  const records = [
    ...playScripted(baseline, 'base', h.seeds, `${run}/baseline`, h.definitions.promptSha256),
    ...playScripted(candidate, 'cand', h.seeds, `${run}/candidate`, h.definitions.promptSha256),
  ];
  const section = foldRecords(dragonCheck.fold, records, h.definitions, h.ctx);
  const findings = dragonCheck.gate(section, h.ctx);
  const card = dragonCheck.rules?.(section, h.ctx).find((c) => c.rule === 'ece-increase');
  const stated = card ? /rise of ([0-9.]+)/.exec(card.detects) : null;
  return { findings, section, statedEceRise: stated ? Number(stated[1]) : null };
}

/** Seeds of run i: ten consecutive seeds from a range no test uses, different per run. */
function seedsOfRun(base: number, i: number, count: number): number[] {
  const start = 10_000 + ((base * 7919 + i * count) % 80_000);
  return Array.from({ length: count }, (_, k) => start + k);
}

export interface ScenarioResult {
  runs: number;
  /** Runs in which each rule failed the gate. */
  fails: Record<string, number>;
  /** Runs in which the check failed the gate (any rule). */
  gateFails: boolean[];
  meanEceDifference: number;
  meanStatedEceRise: number | null;
}

export async function runScenario(
  baseline: ScriptedPlayer,
  candidate: ScriptedPlayer,
  options: OcOptions & { seedsPerRun?: number },
): Promise<ScenarioResult> {
  const count = options.seedsPerRun ?? 10;
  const fails: Record<string, number> = {};
  const gateFails: boolean[] = [];
  let differenceSum = 0;
  let differenceRuns = 0;
  let statedSum = 0;
  let statedRuns = 0;
  for (let i = 0; i < options.runs; i++) {
    const h = await harness(seedsOfRun(options.seed, i, count));
    const outcome = simulatePair(h, baseline, candidate, `oc/${options.seed}/${i}`);
    const failed = new Set(
      outcome.findings.filter((f) => f.severity === 'fail').map((f) => f.rule),
    );
    for (const rule of failed) fails[rule] = (fails[rule] ?? 0) + 1;
    gateFails.push(failed.size > 0);
    const d = outcome.section.comparison?.ece?.difference.value;
    if (d !== undefined) {
      differenceSum += d;
      differenceRuns++;
    }
    if (outcome.statedEceRise !== null) {
      statedSum += outcome.statedEceRise;
      statedRuns++;
    }
  }
  return {
    runs: options.runs,
    fails,
    gateFails,
    meanEceDifference: differenceRuns > 0 ? differenceSum / differenceRuns : Number.NaN,
    meanStatedEceRise: statedRuns > 0 ? statedSum / statedRuns : null,
  };
}

/**
 * The instrument control on consecutive windows of `size` seeds from `from`: how many windows
 * the three reference players make inconclusive. The players' games are played once.
 */
export async function controlWindows(
  from: number,
  windows: number,
  size = 10,
): Promise<{ windows: number; inconclusive: number[]; pointRanking: number[] }> {
  return controlOnWindows(
    Array.from({ length: windows }, (_, w) => from + w * size),
    size,
  );
}

/**
 * The instrument control on the windows starting at `starts`. `pointRanking` lists the windows
 * the former rule (careful lowest ECE and overconfident highest, on point values) failed.
 */
export async function controlOnWindows(
  starts: readonly number[],
  size = 10,
): Promise<{ windows: number; inconclusive: number[]; pointRanking: number[] }> {
  const seeds = starts.flatMap((s) => Array.from({ length: size }, (_, i) => s + i));
  const records = (['random', 'overconfident', 'careful'] as const).flatMap((p) =>
    playReferenceGames(p, seeds, WALLS),
  );
  const bySeed = new Map<number, SampleRecord[]>();
  for (const r of records) {
    if (!isDragonRecord(r)) continue;
    const list = bySeed.get(r.game) ?? [];
    list.push(r);
    bySeed.set(r.game, list);
  }
  const inconclusive: number[] = [];
  const pointRanking: number[] = [];
  for (let w = 0; w < starts.length; w++) {
    const window = seeds.slice(w * size, (w + 1) * size);
    const h = await harness(window);
    const own = window.flatMap((s) => bySeed.get(s) ?? []);
    const section = foldRecords(dragonCheck.fold, own, h.definitions, h.ctx);
    const findings = dragonCheck.gate(section, h.ctx);
    if (findings.some((f) => f.rule === 'instrument-control'))
      inconclusive.push(window[0] as number);
    const order = section.instrument?.order ?? [];
    if (order[0] !== 'careful' || order.at(-1) !== 'overconfident') {
      pointRanking.push(window[0] as number);
    }
  }
  return { windows: starts.length, inconclusive, pointRanking };
}

function pct(x: number, digits = 1): string {
  return `${(100 * x).toFixed(digits)}%`;
}

/** Whether a measured false-alarm count is compatible with the target share (Wilson interval). */
function withinShare(hits: number, runs: number, share: number): boolean {
  return wilsonInterval(hits, runs).low <= share;
}

export async function operatingCharacteristics(options: OcOptions): Promise<CheckOc> {
  const h = await harness();
  const budget = checkFalseAlarmBudget(h.ctx.config);
  const share = h.definitions.ruleFalseAlarmRate;
  const rules = ['ece-increase', 'brier-above-chance'];
  const rows: OcRow[] = [];
  const row = (
    rule: string,
    scenario: string,
    kind: OcRow['kind'],
    hits: number,
    runs: number,
    target: string,
    met: boolean,
  ) => rows.push({ check: 'dragon', rule, scenario, kind, runs, hits, target, met });

  let noChangeGateFails: boolean[] = [];
  for (const player of [CAREFUL, RANDOM, OVERCONFIDENT]) {
    const result = await runScenario(player, player, options);
    if (player === CAREFUL) noChangeGateFails = result.gateFails;
    for (const rule of rules) {
      const hits = result.fails[rule] ?? 0;
      row(
        rule,
        `two identical players: ${player.label}, 10 seeds`,
        'no change',
        hits,
        result.runs,
        `≤ ${pct(share, 2)}`,
        withinShare(hits, result.runs, share),
      );
    }
    const any = result.gateFails.filter(Boolean).length;
    row(
      'any',
      `two identical players: ${player.label}, 10 seeds`,
      'no change',
      any,
      result.runs,
      `≤ ${pct(budget, 2)}`,
      withinShare(any, result.runs, budget),
    );
  }

  for (const stated of [0.9, 0.8, 0.75, 0.7]) {
    const result = await runScenario(CAREFUL, overstating(stated), options);
    const hits = result.fails['ece-increase'] ?? 0;
    const rise = result.meanEceDifference.toFixed(3);
    const said =
      result.meanStatedEceRise === null
        ? ''
        : `; cards said ${result.meanStatedEceRise.toFixed(3)}`;
    row(
      'ece-increase',
      `careful → states ${stated} toward unexplored cells (right 64%), mean ECE rise ${rise}${said}`,
      'known effect',
      hits,
      result.runs,
      stated === 0.9 ? '≥ 80%' : 'measured',
      stated === 0.9 ? hits / result.runs >= 0.8 : true,
    );
    if (stated === 0.9) {
      const brier = result.fails['brier-above-chance'] ?? 0;
      row(
        'brier-above-chance',
        'careful → states 0.9 toward unexplored cells (right 64%)',
        'known effect',
        brier,
        result.runs,
        'measured',
        true,
      );
    }
  }
  const wild = await runScenario(CAREFUL, OVERCONFIDENT, options);
  for (const rule of rules) {
    row(
      rule,
      'careful → overconfident (0.95 on uniform moves)',
      'known effect',
      wild.fails[rule] ?? 0,
      wild.runs,
      '≥ 80%',
      (wild.fails[rule] ?? 0) / wild.runs >= 0.8,
    );
  }

  const control = await controlWindows(0, 200);
  row(
    'instrument-control',
    `random, overconfident, careful on each 10-seed window of seeds 0–1999 (a point ranking failed ${control.pointRanking.length})`,
    'no change',
    control.inconclusive.length,
    control.windows,
    '0 windows',
    control.inconclusive.length === 0,
  );
  return { rows, noChangeGateFails };
}
