/** The personas confusion matrices (SVG), drawn from the report section alone. */
import { type Chart, element, svgDocument, text } from '../../../render/svg.js';
import { BETTER, WORSE } from '../../../render/palette.js';
import type { PersonasAssistant, PersonasModelResult, PersonasSection } from '../section.js';
import { isComplete } from './markdown.js';

const CELL = 44;
/** The legend, one entry per cue, wrapped to the chart's width. */
const LEGEND = [
  'rows: true author',
  'columns: attributed',
  'blue, outlined: recognised',
  'orange: taken for another',
  'shade: share of the row',
];
const LEFT = 130;
const TOP = 120;
/** The column right of the matrix: each assistant's answers recognised, and their share. */
const RECOGNISED = 110;

/** SVG charts of the personas check, written next to report.json. */
export function personasCharts(section: PersonasSection): Chart[] {
  if (!isComplete(section)) return [];
  // A single-model run has no baseline to speak of: its one matrix is "the model's".
  const single = section.models.length === 1;
  return section.models.map((model) => {
    const title = `Persona confusion matrix, ${single ? 'model' : model.role} ${model.model}`;
    return {
      file: `personas-confusion-${single ? 'model' : model.role}.svg`,
      title,
      svg: confusionHeatMap(section.catalogue.assistants, model, title),
    };
  });
}

/**
 * One cell per (true, attributed) pair, shaded by the share of the true author's answers, and
 * each row's recognised answers beside it. The canvas is as wide as the matrix, that column and
 * the title need; the legend wraps to it.
 */
export function confusionHeatMap(
  assistants: readonly PersonasAssistant[],
  model: PersonasModelResult,
  title: string,
): string {
  const n = assistants.length;
  const matrixRight = LEFT + n * CELL;
  // About 7 px a character of the bold 12 px title, 5.5 of the 10 px legend.
  const width = Math.max(matrixRight + RECOGNISED, 20 + title.length * 7, 300);
  const legend = wrap(LEGEND, Math.floor((width - 20) / 5.5));
  const height = TOP + n * CELL + 16 + legend.length * 14;
  const body: string[] = [
    text(10, 20, title, { 'font-weight': 'bold' }),
    ...legend.map((line, i) =>
      text(10, TOP + n * CELL + 20 + i * 14, line, { 'font-size': 10, fill: '#555' }),
    ),
    text(matrixRight + 12, TOP - 8, 'recognised', { 'font-weight': 'bold' }),
  ];
  assistants.forEach((assistant, i) => {
    const short = shorten(assistant.name);
    body.push(text(LEFT - 6, TOP + i * CELL + CELL / 2 + 4, short, { 'text-anchor': 'end' }));
    const x = LEFT + i * CELL + CELL / 2;
    body.push(
      text(x, TOP - 8, short, { transform: `rotate(-45 ${x} ${TOP - 8})`, 'text-anchor': 'start' }),
    );
  });
  model.confusion.forEach((row, i) => {
    const total = row.reduce((s, v) => s + v, 0) + (model.unattributed[i] ?? 0);
    row.forEach((count, j) => {
      body.push(...cell(count, total, i, j));
    });
    const own = row[i] ?? 0;
    body.push(
      text(
        matrixRight + 12,
        TOP + i * CELL + CELL / 2 + 4,
        total > 0 ? `${own}/${total} (${Math.round((100 * own) / total)}%)` : '–',
      ),
    );
  });
  return svgDocument(width, height, title, body);
}

function cell(count: number, total: number, i: number, j: number): string[] {
  const share = total > 0 ? count / total : 0;
  const x = LEFT + j * CELL;
  const y = TOP + i * CELL;
  return [
    element('rect', {
      x,
      y,
      width: CELL - 2,
      height: CELL - 2,
      fill: i === j ? BETTER.hex : WORSE.hex,
      'fill-opacity': count === 0 ? 0.04 : 0.15 + 0.85 * share,
      // The diagonal is outlined too: a cue that needs no colour vision.
      ...(i === j ? { stroke: '#000000', 'stroke-width': 2 } : {}),
    }),
    text(x + CELL / 2 - 1, y + CELL / 2 + 4, String(count), {
      'text-anchor': 'middle',
      fill: share > 0.55 ? '#fff' : '#222',
    }),
  ];
}

/** Entries joined with " · " into lines of at most `columns` characters. */
function wrap(entries: readonly string[], columns: number): string[] {
  const lines: string[] = [];
  for (const entry of entries) {
    const last = lines[lines.length - 1];
    if (last !== undefined && last.length + 3 + entry.length <= columns) {
      lines[lines.length - 1] = `${last} · ${entry}`;
    } else lines.push(entry);
  }
  return lines;
}

function shorten(name: string): string {
  return name.length > 16 ? `${name.slice(0, 15)}…` : name;
}
