/**
 * Gate rules of the churn check, each a sentence a reader understands and the numbers behind
 * it. Two rules can fail, each a test holding half the check's false-alarm share:
 * max-deteriorated (more reliably worse items than the limit and than the method's null
 * calibration allows) and domain-loss (a domain's exact net-change test, Holm across domains,
 * failing from max-domain-loss points, warning below). The aggregate Δ interval below 0 warns;
 * too many timed-out or invalid requests make the check inconclusive.
 * With the logprobs estimator (no sampling noise) the rules are effect sizes: items whose |Δp|
 * reaches churn.min-effect, domains whose mean Δp reaches max-domain-loss; the sentences say so.
 */

import { plural, pValueFigures, trimmed } from '../../text/format.js';
import { exceeds } from '../exceeds.js';
import type { GateFinding } from '../types.js';
import { RCI_CRITICAL } from './methods.js';
import type {
  ChurnComparison,
  ChurnSection,
  DomainRow,
  DomainTestSummary,
  LogprobsComparison,
  MethodSection,
  SampledChurnSection,
} from './section.js';
import type { ChurnSettings } from './settings.js';

/** A change in points without its sign: the sentence says "fell" or "rose". */
const pts = (delta: number): string => `${trimmed(Math.abs(delta) * 100)} points`;
const items = (n: number): string => plural(n, 'item');

/** The limit on deteriorations as a count of items. */
export function deteriorationLimit(
  setting: ChurnSettings['gate']['maxDeteriorated'],
  total: number,
): { limit: number; label: string } {
  if (typeof setting === 'number') return { limit: setting, label: String(setting) };
  // Percent × total first, then / 100: 29 × 100 / 100 is exactly 29, 0.29 × 100 is not.
  const limit = (Number.parseFloat(setting) * total) / 100;
  return { limit, label: `${setting} of ${total} = ${trimmed(limit)}` };
}

export function expectationSentence(method: MethodSection): string {
  const expected = method.expected.deteriorated;
  return `two identical models give ${trimmed(expected.mean)} on average (95th percentile ${trimmed(expected.p95, 0)})`;
}

/**
 * The rules on a model's requests as plain objects: the share each reads, its configured limit,
 * the sentence. Above the limit the check is inconclusive: the comparison is not trusted.
 */
export const REQUEST_RULES: readonly {
  id: 'timeouts' | 'invalid-answers';
  /** The model's share the rule reads (its key in `values` too). */
  value: 'timeoutShare' | 'invalidShare';
  limit: (gate: ChurnSettings['gate']) => number;
  /** What that share of the requests did, and what it means or what to check. */
  what: string;
  advice: (section: ChurnSection) => string;
  /** The rule card's words for the same. */
  tests: string;
}[] = [
  {
    id: 'timeouts',
    value: 'timeoutShare',
    limit: (gate) => gate.maxTimeoutShare,
    what: 'of churn requests timed out',
    advice: () => 'the comparison is not trusted',
    tests: 'of requests timed out',
  },
  {
    id: 'invalid-answers',
    value: 'invalidShare',
    limit: (gate) => gate.maxInvalidShare,
    what: 'of churn answers were invalid',
    advice: (section) =>
      section.estimator === 'logprobs'
        ? 'no answer letter could be read: check think and churn.top-logprobs'
        : 'check num-predict and think',
    tests: 'of answers invalid',
  },
];

export function gateChurn(section: ChurnSection, settings: ChurnSettings): GateFinding[] {
  const findings: GateFinding[] = [];
  for (const model of [section.baseline, section.candidate]) {
    if (!model) continue;
    for (const rule of REQUEST_RULES) {
      const share = model[rule.value];
      const limit = rule.limit(settings.gate);
      if (share === null || share <= limit) continue;
      findings.push({
        check: 'churn',
        rule: rule.id,
        severity: 'inconclusive',
        message: `${model.model}: ${trimmed(share * 100)}% ${rule.what} (limit ${trimmed(limit * 100)}%); ${rule.advice(section)}`,
        values: { model: model.model, [rule.value]: share, limit },
      });
    }
  }
  const gate = settings.gate;
  const { limit, label } = deteriorationLimit(gate.maxDeteriorated, section.itemCounts.total);
  if (section.estimator === 'logprobs') {
    if (section.comparison)
      findings.push(...effectFindings(section.comparison, gate, limit, label));
  } else if (section.comparison) {
    findings.push(...sampledFindings(section, section.comparison, gate, limit, label));
  }
  if (section.comparison) findings.push(...aggregateFinding(section.comparison.delta));
  return findings;
}

function sampledFindings(
  section: SampledChurnSection,
  comparison: ChurnComparison,
  gate: ChurnSettings['gate'],
  limit: number,
  label: string,
): GateFinding[] {
  const method = section.method === 'fisher-bh' ? comparison.fisherBh : comparison.rci;
  const rule = section.method === 'fisher-bh' ? `q ≤ ${section.alpha}` : `|RCI| > ${RCI_CRITICAL}`;
  // Two conditions: more than the user's limit, and more than two identical models give in
  // all but the rule's share of runs (the method's own null calibration). The second keeps
  // the RCI, which flags ~6% of items on identical models, from failing them.
  const upper = method.expected.deteriorated.upper;
  const overNull = upper === undefined || method.deteriorated > upper;
  const over = exceeds(method.deteriorated, limit) && overNull;
  const nullPart =
    upper === undefined
      ? ''
      : `, ${overNull ? 'above' : 'within'} what two identical models reach (${trimmed(upper)}, the null's upper quantile)`;
  const finding: GateFinding = {
    check: 'churn',
    rule: 'max-deteriorated',
    severity: over ? 'fail' : 'info',
    message: `${items(method.deteriorated)} reliably worse (${rule}), ${exceeds(method.deteriorated, limit) ? 'above' : 'within'} the limit (${label})${nullPart}; ${expectationSentence(method)}`,
    values: {
      method: section.method,
      deteriorated: method.deteriorated,
      improved: method.improved,
      limit,
      nullUpper: upper ?? null,
      expectedMean: method.expected.deteriorated.mean,
      expectedP95: method.expected.deteriorated.p95,
    },
  };
  return [finding, ...domainLossFindings(comparison, gate.maxDomainLoss, comparison.domainTest)];
}

const pValue = (p: number): string => pValueFigures(p, 2);

/** The test that says whether the overall change is significant, named wherever it is used. */
const OVERALL_TEST = 'by the exact test on all items';

function overallSentence(direction: 'up' | 'down' | null, aggregate: number | null): string {
  if (aggregate === null) return '';
  if (direction === null)
    return `; overall change ${pts(aggregate)} ${aggregate >= 0 ? 'up' : 'down'}, not significant ${OVERALL_TEST}`;
  return `; a reversal: overall accuracy ${direction === 'up' ? 'rose' : 'fell'} ${pts(aggregate)} (significant ${OVERALL_TEST})`;
}

/**
 * A domain that lost accuracy: a failure when the loss reaches max-domain-loss points, a
 * warning below. A domain that gained while the overall change is significantly down is
 * reported for information.
 */
function domainLossFindings(
  comparison: {
    delta: { mean: number | null };
    domains: readonly DomainRow[];
  },
  maxDomainLoss: number,
  test: DomainTestSummary,
  sentence?: (domain: DomainRow) => string,
): GateFinding[] {
  const aggregate = comparison.delta.mean;
  const direction = test.overall.direction;
  const findings: GateFinding[] = [];
  for (const domain of comparison.domains) {
    const loss = -(domain.delta ?? 0) * 100;
    if (domain.loss) {
      const big = loss >= maxDomainLoss - 1e-9;
      const evidence = domain.test
        ? `net loss over ${items(domain.test.items)}, exact test p = ${pValue(domain.test.pLoss)}, Holm-adjusted ${pValue(domain.test.adjustedLoss)} ≤ ${pValue(test.level)}`
        : (sentence?.(domain) ?? '');
      findings.push({
        check: 'churn',
        rule: 'domain-loss',
        severity: big ? 'fail' : 'warn',
        message: `${domain.domain}: accuracy fell ${pts(domain.delta ?? 0)} (${evidence}), ${big ? 'at or above' : 'below'} the limit of ${trimmed(maxDomainLoss)} points${domain.reversal ? overallSentence(direction, aggregate) : domain.test ? overallSentence(direction, aggregate) : ''}`,
        values: {
          domain: domain.domain,
          delta: domain.delta,
          pLoss: domain.test?.pLoss ?? null,
          adjustedP: domain.test?.adjustedLoss ?? null,
          level: test.level,
          maxDomainLoss,
          reversal: domain.reversal,
          aggregateDelta: aggregate,
        },
      });
    } else if (domain.gain && domain.reversal) {
      findings.push({
        check: 'churn',
        rule: 'domain-loss',
        severity: 'info',
        message: `${domain.domain}: accuracy rose ${pts(domain.delta ?? 0)} while overall accuracy fell significantly ${OVERALL_TEST} (${pts(aggregate ?? 0)}); a gain never fails the gate`,
        values: {
          domain: domain.domain,
          delta: domain.delta,
          reversal: true,
          aggregateDelta: aggregate,
        },
      });
    }
  }
  return findings;
}

function aggregateFinding(delta: {
  mean: number | null;
  low: number | null;
  high: number | null;
}): GateFinding[] {
  const { mean, low, high } = delta;
  if (high === null || low === null || high >= 0 || mean === null) return [];
  return [
    {
      check: 'churn',
      rule: 'aggregate-delta',
      severity: 'warn',
      message: `overall accuracy fell ${pts(mean)} (95% CI ${trimmed(low * 100)} to ${trimmed(high * 100)} points)`,
      values: { delta: mean, low, high },
    },
  ];
}

/** The logprobs estimator's rules: the sampled ones, on items beyond min-effect. */
function effectFindings(
  comparison: LogprobsComparison,
  gate: ChurnSettings['gate'],
  limit: number,
  label: string,
): GateFinding[] {
  const effect = comparison.effect;
  const size = pts(effect.minEffect);
  const over = exceeds(effect.deteriorated, limit);
  const finding: GateFinding = {
    check: 'churn',
    rule: 'max-deteriorated',
    severity: over ? 'fail' : 'info',
    message: `${over ? 'too many items got worse' : 'items that got worse within the limit'}: ${items(effect.deteriorated)} lost at least ${size} of p(correct) (effect-size count, logprobs estimator: no sampling noise to test against; limit ${label})`,
    values: {
      method: 'effect',
      deteriorated: effect.deteriorated,
      improved: effect.improved,
      limit,
      minEffect: effect.minEffect,
    },
  };
  const overall = { pLoss: Number.NaN, pGain: Number.NaN, direction: comparison.overallDirection };
  const domains = domainLossFindings(
    comparison,
    gate.maxDomainLoss,
    { level: 0, minItems: gate.minDomainItems, overall },
    (domain) =>
      `mean of p(correct) over ${items(domain.items)}, no sampling noise; ${items(domain.deteriorated)} lost and ${domain.improved} gained at least ${size}`,
  );
  return [finding, ...domains];
}
