/**
 * Gate rules of the churn check, each a sentence a reader understands and the numbers behind
 * it. Defaults (configurable under churn.gate): fail above 5% reliable deteriorations, fail on
 * a domain that got reliably worse (≥ 3 items) while the aggregate rose, warn when the whole
 * Δ interval is below 0, inconclusive when too many requests timed out or were invalid.
 * With the logprobs estimator the same rules count items whose |Δp| reaches churn.min-effect
 * (effect-size counts: there is no sampling noise to test against), and the sentences say so.
 */
import { exceeds } from '../exceeds.js';
import type { GateFinding } from '../types.js';
import type {
  ChurnSection,
  ExactChurnSection,
  MethodSection,
  SampledChurnSection,
} from './section.js';
import type { ChurnSettings } from './settings.js';

const fmt = (value: number, digits = 1): string => {
  const fixed = value.toFixed(digits);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
};
const pts = (delta: number): string => `${fmt(Math.abs(delta) * 100)} points`;
const items = (n: number): string => `${n} item${n === 1 ? '' : 's'}`;

/** The limit on deteriorations as a count of items. */
export function deteriorationLimit(
  setting: ChurnSettings['gate']['maxDeteriorated'],
  total: number,
): { limit: number; label: string } {
  if (typeof setting === 'number') return { limit: setting, label: String(setting) };
  // Percent × total first, then / 100: 29 × 100 / 100 is exactly 29, 0.29 × 100 is not.
  const limit = (Number.parseFloat(setting) * total) / 100;
  return { limit, label: `${setting} of ${total} = ${fmt(limit)}` };
}

export function expectationSentence(method: MethodSection): string {
  const expected = method.expected.deteriorated;
  return `two identical models give ${fmt(expected.mean)} on average (95th percentile ${fmt(expected.p95, 0)})`;
}

export function churnGate(section: ChurnSection, settings: ChurnSettings): GateFinding[] {
  const findings: GateFinding[] = [];
  const rules = settings.gate;
  for (const model of [section.baseline, section.candidate]) {
    if (!model) continue;
    if (model.timeoutShare !== null && model.timeoutShare > rules.maxTimeoutShare) {
      findings.push({
        check: 'churn',
        rule: 'timeouts',
        severity: 'inconclusive',
        message: `${model.model}: ${fmt(model.timeoutShare * 100)}% of churn requests timed out (limit ${fmt(rules.maxTimeoutShare * 100)}%); the comparison is not trusted`,
        values: {
          model: model.model,
          timeoutShare: model.timeoutShare,
          limit: rules.maxTimeoutShare,
        },
      });
    }
    if (model.invalidShare !== null && model.invalidShare > rules.maxInvalidShare) {
      findings.push({
        check: 'churn',
        rule: 'invalid-answers',
        severity: 'inconclusive',
        message: `${model.model}: ${fmt(model.invalidShare * 100)}% of churn answers were invalid (limit ${fmt(rules.maxInvalidShare * 100)}%); ${section.estimator === 'logprobs' ? 'no answer letter could be read: check think and churn.top-logprobs' : 'check num-predict and think'}`,
        values: {
          model: model.model,
          invalidShare: model.invalidShare,
          limit: rules.maxInvalidShare,
        },
      });
    }
  }
  if (section.estimator === 'logprobs') findings.push(...effectFindings(section, settings));
  else findings.push(...sampledFindings(section, settings));
  return findings;
}

function sampledFindings(section: SampledChurnSection, settings: ChurnSettings): GateFinding[] {
  const findings: GateFinding[] = [];
  const rules = settings.gate;
  const comparison = section.comparison;
  if (!comparison) return findings;

  const method = section.method === 'fisher-bh' ? comparison.fisherBh : comparison.rci;
  const rule = section.method === 'fisher-bh' ? `q ≤ ${section.alpha}` : `|RCI| > 1.96`;
  const { limit, label } = deteriorationLimit(rules.maxDeteriorated, section.itemCounts.total);
  const over = exceeds(method.deteriorated, limit);
  findings.push({
    check: 'churn',
    rule: 'max-deteriorated',
    severity: over ? 'fail' : 'info',
    message: `${items(method.deteriorated)} reliably worse (${rule}), ${over ? 'above' : 'within'} the limit (${label}); ${expectationSentence(method)}`,
    values: {
      method: section.method,
      deteriorated: method.deteriorated,
      improved: method.improved,
      limit,
      expectedMean: method.expected.deteriorated.mean,
      expectedP95: method.expected.deteriorated.p95,
    },
  });

  findings.push(
    ...reversalFindings(
      comparison,
      rules.minDomainItems,
      (domain, direction, aggregate) =>
        `${domain.domain}: ${items(domain.deteriorated)} reliably worse, ${domain.improved} better, while overall accuracy ${direction} ${pts(aggregate)}`,
    ),
  );

  findings.push(...aggregateFinding(comparison.delta));
  return findings;
}

interface ReversalDomain {
  domain: string;
  reversal: boolean;
  net: number;
  improved: number;
  deteriorated: number;
}

/**
 * A domain whose net change opposes the aggregate: a failure when it lost at least
 * `minDomainItems` items, a warning when it lost fewer, information when it gained while the
 * aggregate fell. Both estimators share the rule; only the sentence differs.
 */
function reversalFindings(
  comparison: { delta: { mean: number | null }; domains: readonly ReversalDomain[] },
  minDomainItems: number,
  sentence: (domain: ReversalDomain, direction: 'rose' | 'fell', aggregate: number) => string,
  extra: Record<string, number> = {},
): GateFinding[] {
  const aggregate = comparison.delta.mean;
  if (aggregate === null) return [];
  const direction = aggregate >= 0 ? 'rose' : 'fell';
  return comparison.domains
    .filter((domain) => domain.reversal)
    .map((domain) => {
      const worse = domain.net < 0;
      return {
        check: 'churn',
        rule: 'domain-reversal',
        severity: worse && domain.deteriorated >= minDomainItems ? 'fail' : worse ? 'warn' : 'info',
        message: sentence(domain, direction, aggregate),
        values: {
          domain: domain.domain,
          deteriorated: domain.deteriorated,
          improved: domain.improved,
          aggregateDelta: aggregate,
          minDomainItems,
          ...extra,
        },
      };
    });
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
      message: `overall accuracy fell ${pts(mean)} (95% CI ${fmt(low * 100)} to ${fmt(high * 100)} points)`,
      values: { delta: mean, low, high },
    },
  ];
}

/** The logprobs estimator's rules: the sampled ones, on items beyond min-effect. */
function effectFindings(section: ExactChurnSection, settings: ChurnSettings): GateFinding[] {
  const findings: GateFinding[] = [];
  const rules = settings.gate;
  const comparison = section.comparison;
  if (!comparison) return findings;
  const effect = comparison.effect;
  const size = pts(effect.minEffect);
  const { limit, label } = deteriorationLimit(rules.maxDeteriorated, section.itemCounts.total);
  const over = exceeds(effect.deteriorated, limit);
  findings.push({
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
  });

  findings.push(
    ...reversalFindings(
      comparison,
      rules.minDomainItems,
      (domain, direction, aggregate) =>
        `${domain.domain}: ${items(domain.deteriorated)} lost and ${domain.improved} gained at least ${size} of p(correct) (effect-size counts), while overall accuracy ${direction} ${pts(aggregate)}`,
      { minEffect: effect.minEffect },
    ),
  );
  findings.push(...aggregateFinding(comparison.delta));
  return findings;
}
