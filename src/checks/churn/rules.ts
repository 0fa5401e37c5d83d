/**
 * The churn gate rules as tests: what each tests, how often it trips on two identical models,
 * and the smallest change it detects at this run's settings. The numbers measured by
 * simulation come from `npm run oc` (docs/gate-validity-churn.md).
 */
import type { CheckContext, GateRuleCard } from '../types.js';
import type { ChurnConfig } from './settings.js';
import { checkFalseAlarmBudget } from '../types.js';
import type { ChurnSection, SampledChurnSection } from './section.js';
import { num, percent, trimmed } from '../../text/format.js';
import { REQUEST_RULES } from './gate.js';

const pct = (x: number): string => percent(x, 2, { trim: true });
const pts = (x: number): string => `${trimmed(x * 100)} points`;

const DOMAIN_BASIS_FIXED =
  "design: exact conditional test (both models' sampling noise, any K), Holm family-wise level; measured by simulation in docs/gate-validity-churn.md";
const DOMAIN_BASIS_ADAPTIVE =
  'one stratum per item and stage, Holm family-wise level; stages after a futility look were chosen knowing the split, so the level is measured by simulation: at or below nominal in docs/adaptive-sampling.md';

/** The smallest changes the item and domain rules detect, as the rule cards say them. */
function detectionTexts(
  section: SampledChurnSection,
  maxLoss: number,
): { itemText: string; domainText: string } {
  const d = section.comparison?.detection;
  const item = section.method === 'fisher-bh' ? (d?.itemFisherBh ?? null) : (d?.itemRci ?? null);
  // With adaptive sampling the detection figures are computed at samples-max.
  const atK =
    section.sampling === undefined
      ? `at K = ${section.samples}`
      : `at K = ${section.samples} (samples-max; adaptive sampling)`;
  const itemText =
    item === null
      ? 'not measured (no comparison)'
      : item >= 1
        ? `no single item ${atK} (it would need |Δp| > 1); raise churn.samples`
        : `${atK} an item must move by ${num(item, 2)} to be flagged; the rule fails above max-deteriorated such items`;
  const domainText =
    d?.domain === null || d?.domain === undefined
      ? 'not measured (no tested domain)'
      : `${atK} a domain of ${d.domainItems} items losing ${pts(d.domain)}; it fails from ${maxLoss} points (a warning below)`;
  return { itemText, domainText };
}

export function churnRuleCards(
  section: ChurnSection,
  ctx: CheckContext<ChurnConfig>,
): GateRuleCard[] {
  const settings = ctx.config.churn;
  const budget = churnBudget(checkFalseAlarmBudget(ctx.config));
  const maxLoss = settings.gate.maxDomainLoss;
  const card = (rule: string, rest: Omit<GateRuleCard, 'check' | 'rule'>): GateRuleCard => ({
    check: 'churn',
    rule,
    ...rest,
  });
  const cards: GateRuleCard[] = [];
  if (section.estimator === 'logprobs') {
    cards.push(
      card('max-deteriorated', {
        tests: `more items than max-deteriorated whose p(correct) fell by at least ${settings.minEffect}`,
        falseAlarmRate: 0,
        falseAlarmBasis:
          'logprobs estimator: p(correct) is read, not sampled; identical models give Δp = 0 on every item',
        detects: `items whose p(correct) falls by ${settings.minEffect} or more`,
      }),
      card('domain-loss', {
        tests: `a domain whose mean p(correct) fell by at least ${maxLoss} points`,
        falseAlarmRate: 0,
        falseAlarmBasis: 'logprobs estimator: no sampling noise; identical models give Δp = 0',
        detects: `a domain losing ${maxLoss} points of mean p(correct)`,
      }),
    );
  } else {
    const method = section.method === 'fisher-bh' ? 'Fisher + BH' : 'RCI';
    const { itemText, domainText } = detectionTexts(section, maxLoss);
    cards.push(
      card('max-deteriorated', {
        tests: `items reliably worse (${method}) above max-deteriorated and above what two identical models reach`,
        falseAlarmRate: budget.maxDeteriorated,
        falseAlarmBasis: `design: the count must exceed the method's null calibration at its ${pct(1 - budget.maxDeteriorated)} quantile (parametric bootstrap, ${settings.nullReplicates} replicates); measured by simulation in docs/gate-validity-churn.md`,
        detects: itemText,
      }),
      card('domain-loss', {
        tests:
          "a domain's net loss: exact permutation test on its items' paired counts, Holm over domains",
        falseAlarmRate: budget.domainLoss,
        falseAlarmBasis:
          section.sampling === undefined ? DOMAIN_BASIS_FIXED : DOMAIN_BASIS_ADAPTIVE,
        detects: domainText,
      }),
    );
  }
  cards.push(
    card('aggregate-delta', {
      tests: 'the overall Δ interval entirely below 0 (a warning)',
      falseAlarmRate: 0,
      falseAlarmBasis: 'warns, never fails: not counted against the budget',
      detects: 'an overall loss whose 95% interval excludes 0',
    }),
    ...REQUEST_RULES.map((rule) =>
      card(rule.id, {
        tests: `more than ${pct(rule.limit(settings.gate))} ${rule.tests} (inconclusive)`,
        falseAlarmRate: 0,
        falseAlarmBasis: 'inconclusive, not a test of change: not counted against the budget',
        detects: 'an incomplete measurement',
      }),
    ),
  );
  return cards;
}

/**
 * The churn check's share of the run's false-alarm budget, split equally (Bonferroni) between
 * its two rules that can fail the gate: too many reliably worse items (max-deteriorated) and a
 * domain that lost accuracy (domain-loss). Timeouts and invalid answers make the check
 * inconclusive and the aggregate Δ only warns: neither is counted against the budget.
 */
export interface ChurnBudget {
  /** The check's share (false-alarm-rate ÷ selected checks). */
  check: number;
  maxDeteriorated: number;
  domainLoss: number;
}

export const CHURN_FAILING_RULES = 2;

export function churnBudget(checkShare: number): ChurnBudget {
  const each = checkShare / CHURN_FAILING_RULES;
  return { check: checkShare, maxDeteriorated: each, domainLoss: each };
}
