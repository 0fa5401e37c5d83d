/** The top of the page: the verdict, its reasons, and every gate rule as the test it is. */
import { badge, section } from '../../../render/page/blocks.js';
import { el, textTable } from '../../../render/page/dom.js';
import { pct } from '../../../render/page/format.js';
import type { PageData, PageFinding, PageRule } from '../pageTypes.js';

function findingsTable(findings: readonly PageFinding[]): HTMLTableElement {
  return textTable(
    ['', 'check', 'rule', 'finding'],
    findings.map((f) => [badge(f.severity), f.check, el('code', {}, f.rule), f.message]),
  );
}

function ruleCard(rule: PageRule): HTMLElement {
  const rate = pct(rule.falseAlarmRate, rule.falseAlarmRate < 0.01 ? 2 : 1);
  return el(
    'article',
    {
      class: `card ${rule.outcome.replace(/[^a-z-]/g, '')}`,
      'data-rule': `${rule.check}/${rule.rule}`,
    },
    el('h4', {}, badge(rule.outcome), ' ', `${rule.check} · `, el('code', {}, rule.rule)),
    el('p', {}, rule.tests),
    el(
      'p',
      {},
      el('strong', {}, 'False alarm: '),
      `at most ${rate} of runs of two identical models (${rule.falseAlarmBasis})`,
    ),
    el('p', {}, el('strong', {}, 'Smallest change detected: '), rule.detects),
  );
}

export function verdictPart(data: PageData): HTMLElement {
  const { verdict } = data;
  return section(
    'verdict',
    'Verdict',
    el(
      'p',
      { class: 'verdict-line' },
      badge(verdict.status),
      ' ',
      verdict.reasons.length === 0
        ? 'Every gate rule passed.'
        : `${verdict.reasons.length} finding(s):`,
    ),
    data.missing ? el('p', { class: 'note' }, data.missing) : null,
    verdict.reasons.length > 0 ? findingsTable(verdict.reasons) : null,
    verdict.suppressed.length > 0
      ? el(
          'div',
          {},
          el('p', {}, 'Not counted, because the measurement of their check was inconclusive:'),
          findingsTable(verdict.suppressed),
        )
      : null,
    verdict.rules.length > 0 ? el('h3', {}, 'Gate rules as tests') : null,
    verdict.rules.length > 0 ? el('div', { class: 'cards' }, ...verdict.rules.map(ruleCard)) : null,
  );
}
