/** The personas confusion matrices (SVG), drawn from the report section alone. */
import { type Chart, element, svgDocument, text } from '../../../render/svg.js';
import { BETTER, WORSE } from '../../../render/palette.js';
import type { PersonasAssistant, PersonasModelResult, PersonasSection } from '../section.js';
import { isComplete } from './markdown.js';

const CELL = 44;
const LEGEND =
  'rows: true author · columns: attributed · blue, outlined: recognised · orange: taken for another · shade: share of the row';
const LEFT = 130;
const TOP = 120;

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

/** One cell per (true, attributed) pair, shaded by the share of the true author's answers. */
export function confusionHeatMap(
  assistants: readonly PersonasAssistant[],
  model: PersonasModelResult,
  title: string,
): string {
  const n = assistants.length;
  // Room on the right for the slanted column labels, and for the legend line under a small
  // matrix: it starts at the left edge, like the title, and is about 6 px per character.
  const width = Math.max(LEFT + n * CELL + 90, 10 + LEGEND.length * 6 + 10);
  const height = TOP + n * CELL + 40;
  const body: string[] = [
    text(10, 20, title, { 'font-weight': 'bold' }),
    text(10, height - 12, LEGEND, {
      'font-size': 10,
      fill: '#555',
    }),
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
      const share = total > 0 ? count / total : 0;
      const x = LEFT + j * CELL;
      const y = TOP + i * CELL;
      body.push(
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
      );
    });
  });
  return svgDocument(width, height, title, body);
}

function shorten(name: string): string {
  return name.length > 16 ? `${name.slice(0, 15)}…` : name;
}
