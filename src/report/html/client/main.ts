/**
 * report.html's script: reads the page's data (JSON in a script element the browser never
 * runs), builds every part of the page with DOM calls, and follows deep links. It fetches
 * nothing and writes no markup.
 */
import type { ChurnPage } from '../../../checks/churn/report/pageTypes.js';
import type { DragonPage } from '../../../checks/dragon/report/pageTypes.js';
import type { PersonasPage } from '../../../checks/personas/report/pageTypes.js';
import type { PageCheck, PageData } from '../pageTypes.js';
import { churnPart } from './churn.js';
import { el } from './dom.js';
import { dragonPart } from './dragon.js';
import { badge } from './parts.js';
import { personasPart } from './personas.js';
import { startRouting } from './route.js';
import { historyPart, otherCheckPart, provenancePart, runnerPart } from './runner.js';
import { verdictPart } from './verdict.js';

function readData(): PageData {
  const holder = document.getElementById('model-gate-data');
  return JSON.parse(holder?.textContent ?? 'null') as PageData;
}

function checkPart(part: PageCheck, data: PageData): HTMLElement {
  if ('markdown' in part) return otherCheckPart(part, data.charts);
  switch (part.check) {
    case 'churn':
      return churnPart(part as ChurnPage, data.charts);
    case 'dragon':
      return dragonPart(part as DragonPage, data.charts);
    case 'personas':
      return personasPart(part as PersonasPage, data.charts);
  }
  return otherCheckPart(
    { check: String((part as { check: string }).check), markdown: '' },
    data.charts,
  );
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
    startRouting(),
    ...(simulated ? [simulated] : []),
    ...parts,
  );
  document.body.setAttribute('data-ready', String(Math.round(performance.now())));
}

main();
