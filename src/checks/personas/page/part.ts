/**
 * The personas part: per model, the confusion matrix whose cells open the answers behind them
 * (answers of the row's assistant attributed to the column's), recognition and distances; and
 * per assistant (#assistant=<name>) its system prompt and answers under every model.
 */
import type { PersonasPage, PersonasPageAnswer, PersonasPageModel } from './types.js';
import { chartStrip, notes, section } from '../../../render/page/blocks.js';
import { type Child, el, fill, on, textTable } from '../../../render/page/dom.js';
import { num, pct } from '../../../render/page/format.js';
import type { PagePart } from '../../../render/page/part.js';
import { onRoute } from '../../../render/page/route.js';
import type { PageChart } from '../../../render/page/types.js';

function answerList(part: PersonasPage, answers: readonly PersonasPageAnswer[]): HTMLElement {
  if (answers.length === 0) return el('p', { class: 'muted' }, 'No answers.');
  const name = (i: number) => (i < 0 ? 'nobody (a tie)' : (part.assistants[i]?.name ?? '?'));
  return el(
    'ol',
    { class: 'examples' },
    ...answers.map(([a, probe, sample, attributed, text]) =>
      el(
        'li',
        { 'data-assistant': name(a), 'data-attributed': name(attributed) },
        el(
          'div',
          { class: 'muted' },
          `probe ${probe + 1}${part.samples > 1 ? `, sample ${sample + 1}` : ''}: `,
          part.probes[probe] ?? '',
          ` · written by ${name(a)}, attributed to ${name(attributed)}`,
        ),
        el('div', { class: 'text answer-text' }, text),
      ),
    ),
  );
}

function cellDetail(
  part: PersonasPage,
  model: PersonasPageModel,
  row: number,
  col: number,
): HTMLElement {
  const answers = model.answers.filter((a) => a[0] === row && a[3] === col);
  const who = part.assistants[row]?.name ?? '?';
  const as = part.assistants[col]?.name ?? '?';
  return el(
    'div',
    {
      class: 'detail',
      id: 'personas-cell',
      'data-cell': `${model.model}/${who}/${as}`,
      tabindex: -1,
    },
    el('h3', {}, `${model.model}: answers of ${who} attributed to ${as} (${answers.length})`),
    answerList(part, answers),
  );
}

function matrix(
  part: PersonasPage,
  model: PersonasPageModel,
  detail: HTMLElement,
): HTMLTableElement {
  const names = part.assistants.map((a) => a.name);
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col' }, 'written by ↓ · attributed to →'),
    ...names.map((n) => el('th', { scope: 'col' }, n)),
  );
  const rows = model.confusion.map((counts, r) => {
    const total = counts.reduce((s, c) => s + c, 0) || 1;
    const cells = counts.map((count, c) => {
      const button = on(
        el(
          'button',
          { type: 'button', 'aria-label': `${names[r]} attributed to ${names[c]}: ${count}` },
          count,
        ),
        'click',
        () => {
          fill(detail, cellDetail(part, model, r, c));
          detail.scrollIntoView({ block: 'nearest' });
        },
      );
      const td = el(
        'td',
        { class: `cell${r === c ? ' diag' : ''}`, 'data-row': names[r], 'data-col': names[c] },
        button,
      );
      const share = count / total;
      td.style.backgroundColor =
        r === c
          ? `rgba(26,127,55,${(share * 0.5).toFixed(2)})`
          : `rgba(179,38,30,${(share * 0.6).toFixed(2)})`;
      return td;
    });
    const name = el('a', { href: `#assistant=${encodeURIComponent(names[r] ?? '')}` }, names[r]);
    return el('tr', {}, el('th', { scope: 'row' }, name), ...cells);
  });
  return el(
    'table',
    {
      class: 'matrix',
      'aria-label': `confusion matrix of ${model.model}`,
      'data-model': model.model,
    },
    el('thead', {}, head),
    el('tbody', {}, ...rows),
  );
}

function distanceTable(model: PersonasPageModel): HTMLTableElement {
  return textTable(
    ['pair', 'prompt distance', 'rank', 'answer distance', 'rank'],
    model.distances.map((d) => [
      `${d.a} ↔ ${d.b}`,
      num(d.prompt, 3),
      num(d.promptRank, 1),
      num(d.answer, 3),
      num(d.answerRank, 1),
    ]),
  );
}

function modelBlock(part: PersonasPage, model: PersonasPageModel): HTMLElement {
  const detail = el('div', { 'aria-live': 'polite' });
  return el(
    'div',
    { class: 'personas-model', 'data-model': model.model },
    el('h3', {}, `${model.model} (${model.role})`),
    el(
      'p',
      {},
      `attribution accuracy ${pct(model.accuracy)}; interchangeable assistants would reach ${pct(model.reference)} (1/m = ${pct(model.chance)}).`,
    ),
    el('p', { class: 'muted' }, 'Click a cell to read the answers behind it.'),
    matrix(part, model, detail),
    detail,
    el('h4', {}, 'Prompt distance against answer distance'),
    el(
      'p',
      { class: 'muted' },
      `Spearman ρ ${num(model.spearman, 2)}${model.converging.length > 0 ? `; prompts differ but answers converge: ${model.converging.join(', ')}` : ''}.`,
    ),
    distanceTable(model),
  );
}

function assistantDetail(part: PersonasPage, index: number): HTMLElement {
  const assistant = part.assistants[index];
  const rows: Child[][] = part.models.map((m) => {
    const r = m.recognition[index];
    return [
      m.model,
      r
        ? `${r.recognised} of ${r.answers} (${pct(r.answers ? r.recognised / r.answers : null)})`
        : '–',
    ];
  });
  return el(
    'div',
    {
      class: 'detail',
      id: 'personas-assistant',
      'data-assistant': assistant?.name ?? '',
      tabindex: -1,
    },
    el(
      'h3',
      {},
      `Assistant ${assistant?.name ?? '?'}`,
      assistant?.control ? ` (control: ${assistant.control.kind} of ${assistant.control.of})` : '',
    ),
    el('h4', {}, 'System prompt'),
    el('div', { class: 'text' }, assistant?.prompt ?? 'not in this report'),
    el('h4', {}, 'Recognised'),
    textTable(['model', 'answers attributed to it'], rows),
    el(
      'div',
      { class: 'cols' },
      ...part.models.map((m) =>
        el(
          'div',
          { 'data-model': m.model },
          el('h4', {}, `Answers under ${m.model}`),
          answerList(
            part,
            m.answers.filter((a) => a[0] === index),
          ),
        ),
      ),
    ),
  );
}

function personasPart(part: PersonasPage, charts: readonly PageChart[]): HTMLElement {
  const detail = el('div', { id: 'personas-detail', 'aria-live': 'polite' });
  onRoute('assistant', (name) => {
    const index = part.assistants.findIndex((a) => a.name === name);
    if (index < 0) return false;
    fill(detail, assistantDetail(part, index));
    detail.scrollIntoView({ block: 'start' });
    return true;
  });
  const links = part.assistants.map((a) =>
    el(
      'li',
      {},
      el('a', { href: `#assistant=${encodeURIComponent(a.name)}` }, a.name),
      a.control ? ` (control: ${a.control.kind} of ${a.control.of})` : '',
    ),
  );
  return section(
    'personas',
    'Personas: can the assistants be told apart?',
    el(
      'p',
      {},
      `${part.assistants.length} assistants, ${part.probes.length} probes, ${part.samples} answer(s) each.`,
    ),
    el('ul', { class: 'assistants' }, ...links),
    detail,
    ...part.models.map((m) => modelBlock(part, m)),
    chartStrip(charts, 'personas'),
    notes(part.notes),
  );
}

export const personasPagePart: PagePart<PersonasPage> = {
  name: 'personas',
  links: ['assistant'],
  render: personasPart,
};
