/** The dragon part: calibration per series, the reliability diagrams, and every game replayed. */
import { chartStrip, notes, rowsTable, section } from '../../../render/page/blocks.js';
import { el, fill } from '../../../render/page/dom.js';
import { pct } from '../../../render/page/format.js';
import type { PagePart } from '../../../render/page/part.js';
import { go, onRoute } from '../../../render/page/route.js';
import { PagedTable } from '../../../render/page/table.js';
import type { PageChart } from '../../../render/page/types.js';
import { replayView } from './replay.js';
import type { DragonPage, DragonPageGame } from './types.js';

function gameDetail(game: DragonPageGame): HTMLElement {
  return el(
    'div',
    { class: 'detail', id: 'dragon-game', 'data-game': game.seed, tabindex: -1 },
    el('h3', {}, `Game of seed ${game.seed}`),
    el(
      'p',
      { class: 'muted' },
      'C camp · T treasure · D dragon (once awake) · ! where it woke · red: walls the player bumped into; grey: walls it never found.',
    ),
    el('div', { class: 'cols' }, ...game.plays.map((play) => replayView(game, play))),
  );
}

function gamesTable(part: DragonPage, detail: HTMLElement): HTMLElement {
  const models = part.games[0]?.plays.map((p) => p.model) ?? [];
  const table = new PagedTable<DragonPageGame>(
    [
      {
        label: 'seed',
        cell: (g) => el('a', { href: `#game=${g.seed}` }, g.seed),
        key: (g) => g.seed,
        numeric: true,
      },
      ...models.map((model, i) => ({
        label: model,
        cell: (g: DragonPageGame) => {
          const play = g.plays[i];
          return play
            ? `${play.result ?? 'unfinished'} · ${play.steps.length} decisions · ${pct(play.success, 0)} advanced · confidence ${pct(play.meanConfidence, 0)}`
            : '–';
        },
      })),
    ],
    {
      pageSize: 25,
      rowKey: (g) => String(g.seed),
      onSelect: (g) => go('game', g.seed),
      label: 'dragon games',
    },
  );
  table.setRows(part.games);
  onRoute('game', (value) => {
    const game = part.games.find((g) => String(g.seed) === value.trim());
    if (!game) return false;
    fill(detail, gameDetail(game));
    table.showRow(String(game.seed));
    detail.scrollIntoView({ block: 'start' });
    return true;
  });
  return el('div', {}, detail, table.element);
}

function dragonPart(part: DragonPage, charts: readonly PageChart[]): HTMLElement {
  return section(
    'dragon',
    'Dragon: is stated confidence calibrated?',
    el(
      'p',
      {},
      `Protocol ${part.protocol}, ${part.walls} walls, hints: ${part.hints}. Calibration is measured on moves: the stated confidence that a move advances against whether it did.`,
    ),
    rowsTable(part.overview),
    chartStrip(charts, 'dragon'),
    el('h3', {}, 'Games'),
    el(
      'p',
      { class: 'muted' },
      'Click a game (or link to #game=<seed>) to replay that seed’s game of each model side by side.',
    ),
    gamesTable(part, el('div', { id: 'dragon-detail', 'aria-live': 'polite' })),
    notes(part.notes),
  );
}

export const dragonPagePart: PagePart<DragonPage> = {
  name: 'dragon',
  links: ['game'],
  render: dragonPart,
};
