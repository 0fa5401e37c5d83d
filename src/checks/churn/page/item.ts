/** One churn item, drilled down: its question, each model's answers, p and q. */
import type { ChurnPage, ChurnPageAnswers, ChurnPageAsk, ChurnPageItem } from './types.js';
import { type Child, el, textTable } from '../../../render/page/dom.js';
import { num, pct, pValue, signed } from '../../../render/page/format.js';

function askPart(ask: ChurnPageAsk | null, systems: readonly string[]): Child[] {
  if (!ask)
    return [el('p', { class: 'muted' }, 'The items file of this run does not hold this item.')];
  if (ask.kind === 'choice') {
    const letters = 'ABCDEFGHIJ';
    return [
      el('h4', {}, 'Question'),
      el('div', { class: 'text question' }, ask.question),
      el('h4', {}, 'Choices'),
      el(
        'ol',
        { class: 'choices', type: 'A' },
        ...ask.choices.map((choice, i) =>
          el(
            'li',
            { class: letters[i] === ask.answer ? 'ok' : undefined },
            choice,
            letters[i] === ask.answer ? ' ✓ correct' : '',
          ),
        ),
      ),
    ];
  }
  return openAsk(ask, ask.system === null ? null : (systems[ask.system] ?? null));
}

function openAsk(ask: Extract<ChurnPageAsk, { kind: 'open' }>, system: string | null): Child[] {
  const grader = ask.grader;
  return [
    system === null ? null : el('h4', {}, 'System prompt'),
    system === null ? null : el('div', { class: 'text system' }, system),
    el('h4', {}, 'Prompt'),
    el('div', { class: 'text question' }, ask.prompt),
    el('h4', {}, 'Expected answer'),
    ask.expected === null
      ? el('p', { class: 'muted expected' }, 'none given: the grader’s options say what is right')
      : el('div', { class: 'text expected' }, ask.expected),
    el('h4', {}, 'Grader'),
    el(
      'div',
      { class: 'grader' },
      el(
        'p',
        {},
        el('code', {}, grader.name),
        ` · fingerprint `,
        el('code', {}, grader.fingerprint),
      ),
      el('ul', { class: 'grader-options' }, ...grader.options.map((line) => el('li', {}, line))),
    ),
  ];
}

function gradeCell(correct: boolean | null, offLabel: boolean): HTMLElement {
  if (correct === null) return el('span', { class: 'muted' }, '–');
  if (offLabel)
    return el('span', { class: 'bad' }, 'wrong', el('span', { class: 'pill' }, 'off-label'));
  return el('span', { class: correct ? 'ok' : 'bad' }, correct ? 'right' : 'wrong');
}

function distribution(answers: ChurnPageAnswers): HTMLElement {
  const others = answers.others;
  const total = answers.counts.reduce((s, c) => s + c[1], 0) + (others?.samples ?? 0) || 1;
  const rows = answers.counts.map(([answer, count, correct, offLabel]) => [
    el('code', { class: 'answer' }, answer),
    gradeCell(correct, offLabel === 1),
    el('span', { class: 'count' }, count),
    barOf(count / total, correct),
  ]);
  if (others) {
    rows.push([
      el('span', { class: 'muted' }, `${others.answers} other answers`),
      el('span', {}, `${others.right} right`),
      el('span', { class: 'count' }, others.samples),
      barOf(others.samples / total, null),
    ]);
  }
  return textTable(['answer', 'graded', 'samples', ''], rows);
}

function barOf(share: number, correct: boolean | null): HTMLElement {
  const bar = el('span', { class: `bar ${correct ? 'right' : correct === false ? 'wrong' : ''}` });
  bar.style.width = `${Math.round(share * 160)}px`;
  return bar;
}

function examplesPart(answers: ChurnPageAnswers): Child {
  const ex = answers.examples;
  if (!ex) return null;
  const list = (title: string, texts: readonly string[]) =>
    texts.length === 0
      ? null
      : el(
          'div',
          {},
          el('h4', {}, title),
          el(
            'ul',
            { class: 'examples' },
            ...texts.map((t) => el('li', {}, el('div', { class: 'text answer-text' }, t))),
          ),
        );
  const kind = ex.from === 'report' ? 'the report’s evidence' : 'examples';
  return el(
    'div',
    {},
    list(`${ex.right.length === 1 ? 'A right answer' : 'Right answers'} (${kind})`, ex.right),
    list(`${ex.wrong.length === 1 ? 'A wrong answer' : 'Wrong answers'} (${kind})`, ex.wrong),
  );
}

function modelPart(
  model: string,
  answers: ChurnPageAnswers | null,
  item: ChurnPageItem,
  i: number,
): HTMLElement {
  const n = item.n?.[i];
  const x = item.x?.[i];
  const head = el(
    'h4',
    {},
    model,
    ': ',
    x !== undefined && n !== undefined ? `${x} of ${n} right` : '',
    ` (p = ${num(item.p[i] ?? null, 2)})`,
  );
  if (!answers)
    return el(
      'div',
      { class: 'model-answers', 'data-model': model },
      head,
      el('p', { class: 'muted' }, 'No record of this item.'),
    );
  const greedy = answers.greedy;
  return el(
    'div',
    { class: 'model-answers', 'data-model': model },
    head,
    answers.counts.length > 0 ? distribution(answers) : null,
    answers.letters
      ? textTable(
          ['letter', 'probability'],
          Object.entries(answers.letters).map(([l, p]) => [l, pct(p)]),
        )
      : null,
    el(
      'p',
      {},
      answers.offLabel === undefined ? '' : `off-label (none of the labels): ${answers.offLabel}; `,
      `invalid: ${answers.invalid}, timed out or failed: ${answers.failed}`,
    ),
    greedy
      ? el(
          'p',
          {},
          'greedy answer: ',
          el('code', {}, greedy.answer ?? greedy.status),
          greedy.correct === null ? '' : greedy.correct ? ' (right)' : ' (wrong)',
        )
      : null,
    examplesPart(answers),
  );
}

export function itemDetail(part: ChurnPage, item: ChurnPageItem): HTMLElement {
  const facts = [
    ['class', item.cls + (item.excluded ? ` (${item.excluded})` : '')],
    ['Δp', signed(item.delta)],
    ['Fisher p', pValue(item.pValue)],
    ['q (Benjamini–Hochberg)', pValue(item.q)],
    ['RCI', num(item.rci, 2)],
  ];
  return el(
    'div',
    { class: 'detail', id: 'churn-item', 'data-item': item.id, tabindex: -1 },
    el('h3', {}, 'Item ', el('code', {}, item.id), ' · ', item.domain),
    textTable(['', ''], facts),
    ...askPart(item.ask, part.systems),
    el(
      'div',
      { class: 'cols' },
      ...part.models.map((m, i) => modelPart(m, item.answers[i] ?? null, item, i)),
    ),
  );
}
