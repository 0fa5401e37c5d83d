/**
 * report.html's script: reads the page's data (JSON in a script element the browser never
 * runs), builds every part of the page with DOM calls, and follows deep links. It fetches
 * nothing and writes no markup.
 */
import { pageLinkKinds, pagePartOf } from '../../../checks/pageParts.js';
import { badge } from '../../../render/page/blocks.js';
import { el } from '../../../render/page/dom.js';
import { startRouting } from '../../../render/page/route.js';
import type { PageCheck, PageData, PageOtherCheck } from '../pageTypes.js';
import { historyPart, otherCheckPart, provenancePart, runnerPart } from './runner.js';
import { verdictPart } from './verdict.js';

function readData(): PageData {
  const holder = document.getElementById('model-gate-data');
  return JSON.parse(holder?.textContent ?? 'null') as PageData;
}

function hasMarkdown(part: PageCheck): part is PageOtherCheck {
  return 'markdown' in part;
}

/**
 * A check's own part; a check without one shows its summary section as text (an empty one for
 * a part of a check this script has no part for).
 */
function checkPart(part: PageCheck, data: PageData): HTMLElement {
  if (hasMarkdown(part)) return otherCheckPart(part, data.charts);
  const own = pagePartOf(part.check);
  if (own) return own.render(part, data.charts);
  return otherCheckPart({ check: String(part.check), markdown: '' }, data.charts);
}

function header(data: PageData, parts: readonly HTMLElement[]): HTMLElement {
  const { baseline, candidate } = data.models;
  const models = candidate ? `${baseline} → ${candidate}` : `${baseline ?? '?'} (single model)`;
  const links = parts.map((p) =>
    el('a', { href: `#${p.id}` }, p.querySelector('h2')?.textContent?.split(':')[0] ?? p.id),
  );
  return el(
    'header',
    { class: 'top' },
    el('h1', {}, 'model-gate ', badge(data.verdict.status)),
    el('span', {}, models),
    el('span', { class: 'muted' }, `${data.tool} · ${data.createdAt}`),
    el('nav', { 'aria-label': 'parts of the report' }, ...links),
  );
}

function main(): void {
  const data = readData();
  const root = document.getElementById('page');
  if (!root || !data) return;
  const parts = [
    verdictPart(data),
    ...data.checks.map((part) => checkPart(part, data)),
    runnerPart(data),
    historyPart(data),
    provenancePart(data),
  ].filter((p): p is HTMLElement => p !== null);
  const simulated = data.simulated
    ? el(
        'p',
        { class: 'note' },
        'Simulated models: these numbers come from the built-in simulator, not from a real model.',
      )
    : null;
  root.replaceChildren(
    header(data, parts),
    startRouting(pageLinkKinds()),
    ...(simulated ? [simulated] : []),
    ...parts,
  );
  document.body.setAttribute('data-ready', String(Math.round(performance.now())));
}

main();
