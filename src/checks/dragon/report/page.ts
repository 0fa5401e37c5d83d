/**
 * The dragon check's part of report.html: every game of each model replayed through the game
 * engine from its logged moves, so the page can draw the maze, the player's path, the dragon
 * and each decision's stated confidence and outcome. Pure. A logged outcome the replay does not
 * reproduce (a log of another maze) stops the replay there, and the page says so.
 */
import type { SampleRecord } from '../../../sampleLog/index.js';
import { num, percent } from '../../../text/format.js';
import type { CheckPageInput } from '../../types.js';
import type { DragonDefinitions } from '../definitions.js';
import { type GameState, newGame, playDecision } from '../game.js';
import { type Cell, edgeId, edgeSide, type Move } from '../geometry.js';
import { generateMaze, type Maze, sortedWalls } from '../maze.js';
import type {
  DragonPage,
  DragonPageGame,
  DragonPagePlay,
  DragonPageStep,
  PageCell,
  PageWall,
} from '../page/types.js';
import { type DragonCallRecord, isDragonCall } from '../records.js';
import type { DragonGame, DragonSection, DragonSeries } from '../section.js';

const cellOf = (cell: Cell): PageCell => [cell.row, cell.col];

function wallOf(id: number): PageWall {
  const { cell, side } = edgeSide(id);
  return [cell.row, cell.col, side === 'right' ? 'r' : 'd'];
}

/** Decision records per model and seed, in decision order. */
function decisionsBySeed(
  records: readonly SampleRecord[],
  models: readonly string[],
): Map<string, DragonCallRecord[]> {
  const out = new Map<string, DragonCallRecord[]>();
  for (const record of records) {
    if (!isDragonCall(record) || !models.includes(record.model)) continue;
    const key = `${record.model}\u0000${record.game}`;
    const list = out.get(key) ?? [];
    list.push(record);
    out.set(key, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.decision - b.decision);
  return out;
}

/** One logged decision played on the replayed game; null when the log and the engine disagree. */
function replayStep(state: GameState, record: DragonCallRecord): DragonPageStep | null {
  const before = state.player;
  const known = state.knownWalls.size;
  const played = playDecision(state, record.move as Move);
  if (played.outcome !== record.outcome) return null;
  const step: DragonPageStep = {
    t: record.turn,
    m: record.move,
    c: record.confidence,
    o: record.outcome,
    at: cellOf(state.player),
    d: state.dragonAwake ? cellOf(state.dragon) : null,
  };
  if (state.knownWalls.size > known && record.move !== 'pass') {
    const id = edgeId(before, record.move as Exclude<Move, 'pass'>);
    if (id !== null) step.w = wallOf(id);
  }
  if (record.caught) step.caught = record.caught;
  if (record.status !== 'ok') step.s = record.status;
  return step;
}

interface Replay {
  steps: DragonPageStep[];
  roar: DragonPagePlay['roar'];
  note: string | null;
}

function replay(maze: Maze, decisions: readonly DragonCallRecord[]): Replay {
  const state = newGame(maze);
  const steps: DragonPageStep[] = [];
  let roar: DragonPagePlay['roar'] = null;
  for (const [i, record] of decisions.entries()) {
    if (record.decision !== i) {
      return {
        steps,
        roar,
        note: `Decision ${i} is missing from the log: the replay stops there.`,
      };
    }
    if (state.result) {
      return { steps, roar, note: `The game ended at decision ${i}, yet the log goes on.` };
    }
    const step = replayStep(state, record);
    if (!step) {
      const note = `At decision ${i} the log says "${record.outcome}" where this maze gives another outcome (a log of another maze or protocol): the replay stops there.`;
      return { steps, roar, note };
    }
    if (!roar && state.roarLocation) roar = { step: i, at: cellOf(state.roarLocation) };
    steps.push(step);
  }
  return { steps, roar, note: null };
}

function playOf(
  maze: Maze,
  series: DragonSeries | null,
  model: string,
  role: string,
  decisions: readonly DragonCallRecord[],
): DragonPagePlay {
  const game: DragonGame | undefined = series?.games.find((g) => g.seed === maze.seed);
  const { steps, roar, note } = replay(maze, decisions);
  const moves = decisions.filter((d) => d.status === 'ok' && d.move !== 'pass');
  const advanced = moves.filter((d) => d.outcome !== 'wall' && d.outcome !== 'known_wall');
  const stated = moves.reduce((sum, d) => sum + (d.confidence ?? 0), 0);
  return {
    model,
    role,
    result: game?.result ?? null,
    turns: game?.turns ?? null,
    wounds: game?.wounds ?? null,
    cellsVisited: game?.cellsVisited ?? null,
    treasureFound: game?.treasureFound ?? null,
    success: moves.length > 0 ? advanced.length / moves.length : null,
    meanConfidence: moves.length > 0 ? stated / moves.length : null,
    roar,
    steps,
    note: note ?? (game ? null : 'No finished game in the log for this seed (an interrupted run).'),
  };
}

export function dragonPage(input: CheckPageInput<DragonDefinitions, DragonSection>): DragonPage {
  const { section, definitions, ctx } = input;
  const roles: [string, string, DragonSeries | null][] = [
    [ctx.models.baseline, 'baseline', section.baseline],
  ];
  if (ctx.models.candidate) roles.push([ctx.models.candidate, 'candidate', section.candidate]);
  const decisions = decisionsBySeed(
    input.collected,
    roles.map(([model]) => model),
  );
  const games: DragonPageGame[] = definitions.seeds.map((seed) => {
    const maze = generateMaze(seed, definitions.walls);
    return {
      seed,
      camp: cellOf(maze.camp),
      treasure: cellOf(maze.treasure),
      walls: sortedWalls(maze).map(wallOf),
      plays: roles.map(([model, role, series]) =>
        playOf(maze, series, model, role, decisions.get(`${model}\u0000${seed}`) ?? []),
      ),
    };
  });
  return {
    check: 'dragon',
    protocol: section.protocol,
    walls: section.walls,
    hints: section.hints,
    overview: overview(section),
    games,
    notes: [
      ...section.notices,
      'The maze is drawn whole: the model saw only the walls it had bumped into (drawn in red as it finds them).',
    ],
  };
}

function estimateText(
  e: { value: number; low: number; high: number } | null,
  f: (v: number) => string = (v) => num(v),
): string {
  return e ? `${f(e.value)} [${f(e.low)}, ${f(e.high)}]` : '–';
}

function overview(section: DragonSection): DragonPage['overview'] {
  const series = [section.baseline, section.candidate, ...section.referencePlayers].filter(
    (s): s is DragonSeries => s !== null,
  );
  const pct = (v: number) => percent(v);
  const row = (label: string, f: (s: DragonSeries) => string) => [label, ...series.map(f)];
  return {
    columns: ['', ...series.map((s) => (s.player ? `${s.player} (reference)` : s.model))],
    rows: [
      row('ECE (95% interval over games)', (s) => estimateText(s.ece)),
      row('Brier score', (s) => num(s.brier)),
      row('mean stated confidence', (s) => percent(s.meanConfidence)),
      row('moves that advanced', (s) => estimateText(s.success, pct)),
      row('moves into a known wall', (s) => percent(s.knownWallRepeatRate)),
      row('games won', (s) => `${s.wins.count} of ${s.wins.games}`),
      row('invalid answers', (s) => percent(s.invalidRate)),
    ],
  };
}
