/**
 * The dragon check's part of report.html: every game of each model replayed through the game
 * engine from its logged moves, so the page can draw the maze, the player's path, the dragon
 * and each decision's stated confidence and outcome. Pure. A logged outcome the replay does not
 * reproduce (a log of another maze) stops the replay there, and the page says so.
 */
import { num, percent } from '../../../text/format.js';
import type { CheckPageInput } from '../../types.js';
import type { DragonDefinitions } from '../definitions.js';
import { type GameState, newGame, playDecision } from '../game.js';
import { type Cell, type Direction, edgeId, edgeSide } from '../geometry.js';
import { forecastOf } from '../analyse.js';
import { withInterval } from './markdown.js';
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
import type { DragonSection, DragonSeries } from '../section.js';

const cellOf = (cell: Cell): PageCell => [cell.row, cell.col];

function wallOf(id: number): PageWall {
  const { cell, side } = edgeSide(id);
  return [cell.row, cell.col, side === 'right' ? 'r' : 'd'];
}

/** One logged decision played on the replayed game; null when the log and the engine disagree. */
function replayStep(state: GameState, record: DragonCallRecord): DragonPageStep | null {
  const { player: before, knownWalls } = state;
  const known = knownWalls.size;
  if (playDecision(state, record.move).outcome !== record.outcome) return null;
  const step: DragonPageStep = {
    t: record.turn,
    m: record.move,
    c: record.confidence,
    o: record.outcome,
    at: cellOf(state.player),
    d: state.dragonAwake ? cellOf(state.dragon) : null,
  };
  const bumped = knownWalls.size > known && record.move !== 'pass';
  const id = bumped ? edgeId(before, record.move as Direction) : null;
  if (id !== null) step.w = wallOf(id);
  if (record.caught) step.caught = record.caught;
  if (record.status !== 'ok') step.s = record.status;
  return step;
}

/** The logged decisions of one game replayed, with a note where the replay had to stop. */
function replay(maze: Maze, decisions: readonly DragonCallRecord[]) {
  const state = newGame(maze);
  const steps: DragonPageStep[] = [];
  let roar: DragonPagePlay['roar'] = null;
  const stop = (note: string) => ({ steps, roar, note });
  for (const [i, record] of decisions.entries()) {
    if (record.decision !== i)
      return stop(`Decision ${i} is missing from the log: the replay stops there.`);
    if (state.result) return stop(`The game ended at decision ${i}, yet the log goes on.`);
    const step = replayStep(state, record);
    if (!step) {
      return stop(
        `At decision ${i} the log says "${record.outcome}" where this maze gives another outcome (a log of another maze or protocol): the replay stops there.`,
      );
    }
    if (!roar && state.roarLocation) roar = { step: i, at: cellOf(state.roarLocation) };
    steps.push(step);
  }
  return { steps, roar, note: null };
}

function playOf(
  maze: Maze,
  [model, role, series]: Role,
  decisions: readonly DragonCallRecord[],
): DragonPagePlay {
  const game = series?.games.find((g) => g.seed === maze.seed);
  const { steps, roar, note } = replay(maze, decisions);
  const moves = decisions.flatMap((d) => forecastOf(d) ?? []);
  const share = (part: number) => (moves.length > 0 ? part / moves.length : null);
  return {
    model,
    role,
    result: game?.result ?? null,
    turns: game?.turns ?? null,
    wounds: game?.wounds ?? null,
    cellsVisited: game?.cellsVisited ?? null,
    treasureFound: game?.treasureFound ?? null,
    success: share(moves.filter((f) => f.success).length),
    meanConfidence: share(moves.reduce((sum, f) => sum + f.confidence, 0)),
    roar,
    steps,
    note: note ?? (game ? null : 'No finished game in the log for this seed (an interrupted run).'),
  };
}

/** A model of the run: its tag, its role and its series. */
type Role = [string, string, DragonSeries | null];

export function dragonPage(input: CheckPageInput<DragonDefinitions, DragonSection>): DragonPage {
  const { section, definitions, ctx } = input;
  const roles: Role[] = [[ctx.models.baseline, 'baseline', section.baseline]];
  if (ctx.models.candidate) roles.push([ctx.models.candidate, 'candidate', section.candidate]);
  // Decision records per model and seed, in decision order.
  const decisions = new Map<string, DragonCallRecord[]>();
  for (const record of input.collected) {
    if (!isDragonCall(record) || !roles.some(([model]) => model === record.model)) continue;
    const key = `${record.model}\u0000${record.game}`;
    const list = decisions.get(key) ?? [];
    list.push(record);
    decisions.set(key, list);
  }
  for (const list of decisions.values()) list.sort((a, b) => a.decision - b.decision);
  const games: DragonPageGame[] = definitions.seeds.map((seed) => {
    const maze = generateMaze(seed, definitions.walls);
    return {
      seed,
      camp: cellOf(maze.camp),
      treasure: cellOf(maze.treasure),
      walls: sortedWalls(maze).map(wallOf),
      plays: roles.map((role) =>
        playOf(maze, role, decisions.get(`${role[0]}\u0000${seed}`) ?? []),
      ),
    };
  });
  const series = [section.baseline, section.candidate, ...section.referencePlayers].filter(
    (s): s is DragonSeries => s !== null,
  );
  const row = (label: string, f: (s: DragonSeries) => string) => [label, ...series.map(f)];
  const pct = (v: number) => percent(v);
  return {
    check: 'dragon',
    protocol: section.protocol,
    walls: section.walls,
    hints: section.hints,
    // Columns: each series (models, then reference players); rows: the calibration numbers.
    overview: {
      columns: ['', ...series.map((s) => (s.player ? `${s.player} (reference)` : s.model))],
      rows: [
        row('ECE (95% interval over games)', (s) => withInterval(s.ece, (v) => num(v))),
        row('Brier score', (s) => num(s.brier)),
        row('mean stated confidence', (s) => percent(s.meanConfidence)),
        row('moves that advanced', (s) => withInterval(s.success, pct)),
        row('moves into a known wall', (s) => percent(s.knownWallRepeatRate)),
        row('games won', (s) => `${s.wins.count} of ${s.wins.games}`),
        row('invalid answers', (s) => percent(s.invalidRate)),
      ],
    },
    games,
    notes: [
      ...section.notices,
      'The maze is drawn whole: the model saw only the walls it had bumped into (drawn in red as it finds them).',
    ],
  };
}
