/**
 * One game replayed: the maze drawn (every wall, the camp, the treasure), the player's path up
 * to the chosen decision, the dragon once awake, and the list of decisions with the stated
 * confidence and outcome of each. A slider, the arrow buttons or a click on a decision moves
 * through the game.
 */
import type {
  DragonPageGame,
  DragonPagePlay,
  DragonPageStep,
  PageCell,
  PageWall,
} from './types.js';
import { el, fill, on, svg } from '../../../render/page/dom.js';
import { pct } from '../../../render/page/format.js';

const CELL = 34;
const PAD = 10;
const SIZE = 8;
const centre = (c: number) => PAD + c * CELL + CELL / 2;

function wallLine(wall: PageWall, colour: string, width: number): SVGElement {
  const [row, col, side] = wall;
  const x = PAD + (col + (side === 'r' ? 1 : 0)) * CELL;
  const y = PAD + (row + (side === 'd' ? 1 : 0)) * CELL;
  return side === 'r'
    ? svg('line', {
        x1: x,
        y1: y,
        x2: x,
        y2: y + CELL,
        stroke: colour,
        'stroke-width': width,
        'stroke-linecap': 'round',
      })
    : svg('line', {
        x1: x,
        y1: y,
        x2: x + CELL,
        y2: y,
        stroke: colour,
        'stroke-width': width,
        'stroke-linecap': 'round',
      });
}

function label(cell: PageCell, text: string, colour: string): SVGElement {
  return svg(
    'text',
    {
      x: centre(cell[1]),
      y: centre(cell[0]) + 5,
      'text-anchor': 'middle',
      'font-size': 14,
      'font-weight': 'bold',
      fill: colour,
    },
    text,
  );
}

function board(game: DragonPageGame): SVGElement[] {
  const side = PAD * 2 + SIZE * CELL;
  const grid: SVGElement[] = [
    svg('rect', {
      x: PAD,
      y: PAD,
      width: SIZE * CELL,
      height: SIZE * CELL,
      fill: '#fff',
      stroke: '#222',
      'stroke-width': 3,
    }),
  ];
  for (let i = 1; i < SIZE; i++) {
    grid.push(
      svg('line', {
        x1: PAD + i * CELL,
        y1: PAD,
        x2: PAD + i * CELL,
        y2: side - PAD,
        stroke: '#eee',
      }),
    );
    grid.push(
      svg('line', {
        x1: PAD,
        y1: PAD + i * CELL,
        x2: side - PAD,
        y2: PAD + i * CELL,
        stroke: '#eee',
      }),
    );
  }
  const camp = svg('rect', {
    x: PAD + game.camp[1] * CELL + 2,
    y: PAD + game.camp[0] * CELL + 2,
    width: CELL - 4,
    height: CELL - 4,
    fill: '#d6f5dd',
  });
  return [
    ...grid,
    camp,
    label(game.camp, 'C', '#1a7f37'),
    label(game.treasure, 'T', '#9a6700'),
    ...game.walls.map((w) => wallLine(w, '#bbb', 3)),
  ];
}

/** The path, found walls, dragon and player after `upto` decisions (0: at the camp). */
function position(game: DragonPageGame, play: DragonPagePlay, upto: number): SVGElement[] {
  const steps = play.steps.slice(0, upto);
  const cells: PageCell[] = [game.camp, ...steps.map((s) => s.at)];
  const path = cells.map((c) => `${centre(c[1])},${centre(c[0])}`).join(' ');
  const out: SVGElement[] = [
    svg('polyline', {
      points: path,
      fill: 'none',
      stroke: '#0072B2',
      'stroke-width': 2,
      opacity: 0.55,
    }),
  ];
  for (const step of steps) if (step.w) out.push(wallLine(step.w, '#b3261e', 4));
  const last = steps.at(-1);
  if (play.roar && play.roar.step < upto) out.push(label(play.roar.at, '!', '#b3261e'));
  if (last?.d)
    out.push(
      svg('circle', {
        cx: centre(last.d[1]),
        cy: centre(last.d[0]),
        r: 9,
        fill: '#b3261e',
        opacity: 0.8,
      }),
      label(last.d, 'D', '#fff'),
    );
  const at = last ? last.at : game.camp;
  out.push(
    svg('circle', { cx: centre(at[1]), cy: centre(at[0]), r: 8, fill: '#0072B2', class: 'player' }),
  );
  return out;
}

function stepText(step: DragonPageStep | undefined, index: number, total: number): string {
  if (!step) return `start: at the camp (${total} decisions in this game)`;
  const said =
    step.c === null ? `no valid answer (${step.s ?? 'invalid'})` : `confidence ${pct(step.c, 0)}`;
  return `decision ${index + 1} of ${total} · turn ${step.t} · ${step.m} · ${said} · ${step.o}${step.caught ? `, then caught (${step.caught})` : ''}`;
}

function movesTable(play: DragonPagePlay, select: (upto: number) => void): HTMLTableElement {
  const rows = play.steps.map((s, i) => {
    const tr = el(
      'tr',
      { class: 'clickable', 'data-step': i + 1 },
      el('td', { class: 'num' }, i + 1),
      el('td', { class: 'num' }, s.t),
      el('td', {}, s.m),
      el('td', { class: 'num' }, s.c === null ? '–' : pct(s.c, 0)),
      el(
        'td',
        { class: s.o === 'wall' || s.o === 'known_wall' ? 'bad' : undefined },
        s.o + (s.caught ? ` (${s.caught})` : ''),
      ),
    );
    return on(tr, 'click', () => select(i + 1));
  });
  return el(
    'table',
    { class: 'moves', 'aria-label': `decisions of ${play.model}` },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['#', 'turn', 'move', 'confidence', 'outcome'].map((h) => el('th', { scope: 'col' }, h)),
      ),
    ),
    el('tbody', {}, ...rows),
  );
}

export function replayView(game: DragonPageGame, play: DragonPagePlay): HTMLElement {
  const side = PAD * 2 + SIZE * CELL;
  const layer = svg('g');
  const picture = svg(
    'svg',
    {
      width: side,
      height: side,
      viewBox: `0 0 ${side} ${side}`,
      class: 'maze',
      role: 'img',
      'aria-label': `maze of seed ${game.seed}`,
    },
    ...board(game),
    layer,
  );
  const caption = el('p', { class: 'step-text' });
  const slider = el('input', {
    type: 'range',
    min: 0,
    max: play.steps.length,
    step: 1,
    value: play.steps.length,
    'aria-label': 'decision',
  });
  const moves = movesTable(play, (upto) => show(upto));
  const show = (upto: number) => {
    slider.value = String(upto);
    fill(layer, ...position(game, play, upto));
    fill(caption, stepText(play.steps[upto - 1], upto - 1, play.steps.length));
    for (const row of moves.querySelectorAll('tbody tr'))
      row.classList.toggle('current', row.getAttribute('data-step') === String(upto));
  };
  on(slider, 'input', () => show(Number(slider.value)));
  const button = (text: string, delta: number) =>
    on(el('button', { type: 'button' }, text), 'click', () =>
      show(Math.min(play.steps.length, Math.max(0, Number(slider.value) + delta))),
    );
  show(play.steps.length);
  const result = `${play.result ?? 'unfinished'}${play.turns !== null ? ` in ${play.turns} turns` : ''}, ${play.wounds ?? 0} wound(s), treasure ${play.treasureFound ? 'found' : 'not found'}; ${pct(play.success)} of moves advanced at a mean stated confidence of ${pct(play.meanConfidence)}`;
  return el(
    'div',
    { class: 'replay', 'data-model': play.model },
    el('h4', {}, `${play.model} (${play.role})`),
    el('p', {}, result),
    play.note ? el('p', { class: 'note' }, play.note) : null,
    picture,
    el('div', { class: 'controls' }, button('◀', -1), slider, button('▶', 1)),
    caption,
    moves,
  );
}
