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

function wallLine([row, col, side]: PageWall, colour: string, width: number): SVGElement {
  const x = PAD + (col + (side === 'r' ? 1 : 0)) * CELL;
  const y = PAD + (row + (side === 'd' ? 1 : 0)) * CELL;
  const [x2, y2] = side === 'r' ? [x, y + CELL] : [x + CELL, y];
  const look = { stroke: colour, 'stroke-width': width, 'stroke-linecap': 'round' };
  return svg('line', { x1: x, y1: y, x2, y2, ...look });
}

function label(cell: PageCell, text: string, colour: string): SVGElement {
  const [x, y] = [centre(cell[1]), centre(cell[0]) + 5];
  const look = { 'text-anchor': 'middle', 'font-size': 14, 'font-weight': 'bold', fill: colour };
  return svg('text', { x, y, ...look }, text);
}

function board(game: DragonPageGame): SVGElement[] {
  const [start, end] = [PAD, PAD + SIZE * CELL];
  const frame = { fill: '#fff', stroke: '#222', 'stroke-width': 3 };
  const grid = [
    svg('rect', { x: start, y: start, width: end - start, height: end - start, ...frame }),
  ];
  for (let i = 1; i < SIZE; i++) {
    const at = PAD + i * CELL;
    grid.push(svg('line', { x1: at, y1: start, x2: at, y2: end, stroke: '#eee' }));
    grid.push(svg('line', { x1: start, y1: at, x2: end, y2: at, stroke: '#eee' }));
  }
  const [row, col] = game.camp;
  const camp = { width: CELL - 4, height: CELL - 4, fill: '#d6f5dd' };
  return [
    ...grid,
    svg('rect', { x: PAD + col * CELL + 2, y: PAD + row * CELL + 2, ...camp }),
    label(game.camp, 'C', '#1a7f37'),
    label(game.treasure, 'T', '#9a6700'),
    ...game.walls.map((w) => wallLine(w, '#bbb', 3)),
  ];
}

/** The path, found walls, dragon and player after `upto` decisions (0: at the camp). */
function position(game: DragonPageGame, play: DragonPagePlay, upto: number): SVGElement[] {
  const steps = play.steps.slice(0, upto);
  const cells: PageCell[] = [game.camp, ...steps.map((s) => s.at)];
  const points = cells.map((c) => `${centre(c[1])},${centre(c[0])}`).join(' ');
  const path = { fill: 'none', stroke: '#0072B2', 'stroke-width': 2, opacity: 0.55 };
  const out = [svg('polyline', { points, ...path })];
  for (const step of steps) if (step.w) out.push(wallLine(step.w, '#b3261e', 4));
  const last = steps.at(-1);
  if (play.roar && play.roar.step < upto) out.push(label(play.roar.at, '!', '#b3261e'));
  const dot = ([row, col]: PageCell, r: number, more: Record<string, string | number>) =>
    svg('circle', { cx: centre(col), cy: centre(row), r, ...more });
  if (last?.d)
    out.push(dot(last.d, 9, { fill: '#b3261e', opacity: 0.8 }), label(last.d, 'D', '#fff'));
  out.push(dot(last ? last.at : game.camp, 8, { fill: '#0072B2', class: 'player' }));
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
  const heads = ['#', 'turn', 'move', 'confidence', 'outcome'];
  const head = el('tr', {}, ...heads.map((h) => el('th', { scope: 'col' }, h)));
  return el(
    'table',
    { class: 'moves', 'aria-label': `decisions of ${play.model}` },
    el('thead', {}, head),
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
