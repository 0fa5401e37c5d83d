/**
 * What the two churn estimators (sampled and logprobs) compute the same way: the aggregate Δ
 * and its interval, the per-domain table, count shares, how flagged items are summed up, and
 * the warnings about records the analysis leaves aside. Pure.
 */
import { mean } from 'simple-statistics';
import type { SampleRecord } from '../../sampleLog/index.js';
import { percentileBootstrap } from '../../stats/bootstrap.js';
import { createRng } from '../../stats/prng.js';
import { median } from '../../stats/quantile.js';
import { tInterval } from '../../stats/studentT.js';
import { wilsonInterval } from '../../stats/wilson.js';
import type { ChurnItem } from './items.js';
import type {
  ChurnComparison,
  CountShare,
  DomainRow,
  FlaggedSummary,
  FlagSet,
  ModelShares,
} from './section.js';
import type { ChurnSettings } from './settings.js';
import type { DomainTestRow } from './domainTest.js';
import type { RequestCounts } from './tally.js';

export const DOMAIN_BOOTSTRAP_SEED = 44;
const DOMAIN_BOOTSTRAP_REPLICATES = 2000;

export interface ChurnAnalysisInput {
  records: readonly SampleRecord[];
  items: readonly ChurnItem[];
  settings: ChurnSettings;
  baseline: string;
  candidate: string | null;
  /** Loader warnings carried into the section. */
  warnings?: readonly string[];
  /** The check's share of the false-alarm budget (default: 0.05 split between three checks). */
  falseAlarmShare?: number;
}

/** The default share: false-alarm-rate 0.05 over the three checks. */
export const DEFAULT_CHECK_SHARE = 0.05 / 3;

export const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);
export const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

export function countShare(count: number, base: number): CountShare {
  const ci = wilsonInterval(count, base);
  return {
    count,
    share: ratio(count, base),
    low: base === 0 ? null : ci.low,
    high: base === 0 ? null : ci.high,
  };
}

export function flagSet(improved: number, deteriorated: number, base: number): FlagSet {
  return {
    base,
    improved: countShare(improved, base),
    deteriorated: countShare(deteriorated, base),
    unchanged: countShare(base - improved - deteriorated, base),
  };
}

/** Mean accuracy over items with its t interval, and the shares of failed requests. */
export function accuracyAndRequests(
  accuracies: readonly number[],
  requests: RequestCounts,
): Omit<ModelShares, 'model'> {
  const accuracy = tInterval(accuracies as number[]);
  return {
    accuracy: {
      mean: finite(accuracy.mean),
      low: finite(accuracy.low),
      high: finite(accuracy.high),
    },
    requests: { ...requests },
    invalidShare: ratio(requests.invalid, requests.total),
    timeoutShare: ratio(requests.timeout, requests.total),
  };
}

/**
 * Sums the flags (+1 improved, −1 deteriorated, 0 unchanged) of the items `counted` keeps; the
 * breadth ratio is improved items over counted items whose Δ is positive. Flags lie only on
 * counted items; `counted` is the same counts over the counted items.
 */
export function summariseFlags(
  classes: Int8Array,
  deltas: Float64Array,
  counted: (index: number) => boolean,
): FlaggedSummary & { counted: FlagSet } {
  let improved = 0;
  let deteriorated = 0;
  let positive = 0;
  let total = 0;
  const changedDeltas: number[] = [];
  for (let i = 0; i < classes.length; i++) {
    if (!counted(i)) continue;
    total++;
    const delta = deltas[i] as number;
    if (delta > 0) positive++;
    const flag = classes[i] as number;
    if (flag === 0) continue;
    if (flag > 0) improved++;
    else deteriorated++;
    changedDeltas.push(Math.abs(delta));
  }
  return {
    improved,
    deteriorated,
    counted: flagSet(improved, deteriorated, total),
    all: flagSet(improved, deteriorated, classes.length),
    churnRate: ratio(improved + deteriorated, classes.length),
    net: improved - deteriorated,
    medianAbsDelta: changedDeltas.length === 0 ? null : median(changedDeltas),
    breadthRatio: ratio(improved, positive),
  };
}

/** Δ = p2 − p1 per item, and the items where both are measured with their domains. */
export function pairedDeltas(
  items: readonly ChurnItem[],
  p1: Float64Array,
  p2: Float64Array,
): { deltas: Float64Array; paired: number[]; pairedDomains: string[] } {
  const deltas = new Float64Array(items.length);
  const paired: number[] = [];
  const pairedDomains: string[] = [];
  items.forEach((item, i) => {
    deltas[i] = (p2[i] as number) - (p1[i] as number);
    if (Number.isFinite(deltas[i])) {
      paired.push(deltas[i] as number);
      pairedDomains.push(item.domain);
    }
  });
  return { deltas, paired, pairedDomains };
}

export function unknownItemsWarning(count: number): string {
  return `${count} records name items that are not in the item file (ignored)`;
}

/** Records of the estimator the config did not choose, left aside. */
export function otherEstimatorWarning(count: number, chosen: ChurnSettings['estimator']): string {
  const other = chosen === 'sampled' ? 'logprobs' : 'sampled';
  return `${count} records of the ${other} estimator are in the log; with churn.estimator: ${chosen} they are left aside`;
}

export function aggregateDelta(
  paired: number[],
  domains: string[],
  interval: 'items' | 'domains',
): ChurnComparison['delta'] {
  const t = tInterval(paired);
  if (interval === 'items') {
    return {
      mean: finite(t.mean),
      low: finite(t.low),
      high: finite(t.high),
      n: paired.length,
      interval,
    };
  }
  // Items of one domain may move together; resampling whole domains keeps that dependence.
  const units = [...groupBy(paired, (_, i) => domains[i] as string).values()];
  const meanOf = (resample: readonly number[][]): number => {
    let sum = 0;
    let count = 0;
    for (const group of resample) {
      for (const v of group) sum += v;
      count += group.length;
    }
    return count === 0 ? Number.NaN : sum / count;
  };
  const boot = percentileBootstrap(units, meanOf, {
    rng: createRng(DOMAIN_BOOTSTRAP_SEED),
    replicates: DOMAIN_BOOTSTRAP_REPLICATES,
  });
  return {
    mean: finite(t.mean),
    low: units.length < 2 ? null : finite(boot.low),
    high: units.length < 2 ? null : finite(boot.high),
    n: paired.length,
    interval,
  };
}

/** The values by key, in order of each key's first value. */
function groupBy<T>(
  values: readonly T[],
  key: (value: T, index: number) => string,
): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  values.forEach((value, i) => {
    const group = groups.get(key(value, i));
    if (group) group.push(value);
    else groups.set(key(value, i), [value]);
  });
  return groups;
}

export function meanOfFinite(values: number[]): number | null {
  const kept = values.filter(Number.isFinite);
  return kept.length === 0 ? null : mean(kept);
}

/** What a domain's rule concluded: its test (sampled estimator) and whether it lost or gained. */
export interface DomainJudgement {
  test: DomainTestRow | null;
  loss: boolean;
  gain: boolean;
}

/**
 * One row per domain: accuracies, the items each method flagged, and the domain rule's
 * conclusion. A loss is a reversal only when the overall change is significantly up (a gain
 * only when it is significantly down): the sign of an overall Δ whose interval holds 0 says
 * nothing about direction.
 */
export function domainTable(
  items: readonly ChurnItem[],
  p1: Float64Array,
  p2: Float64Array,
  deltas: Float64Array,
  classes: Int8Array,
  overall: 'up' | 'down' | null,
  judge: (domain: string, indices: readonly number[]) => DomainJudgement,
): DomainRow[] {
  const byDomain = groupBy(
    items.map((_, i) => i),
    (i) => (items[i] as ChurnItem).domain,
  );
  return [...byDomain.entries()]
    .map(([domain, indices]): DomainRow => {
      const improved = indices.filter((i) => (classes[i] as number) > 0).length;
      const deteriorated = indices.filter((i) => (classes[i] as number) < 0).length;
      const { test, loss, gain } = judge(domain, indices);
      const paired = indices.map((i) => deltas[i] as number).filter(Number.isFinite);
      const ci = tInterval(paired);
      return {
        domain,
        items: indices.length,
        baselineAccuracy: meanOfFinite(indices.map((i) => p1[i] as number)),
        candidateAccuracy: meanOfFinite(indices.map((i) => p2[i] as number)),
        delta: meanOfFinite(indices.map((i) => deltas[i] as number)),
        deltaCi: { low: finite(ci.low), high: finite(ci.high) },
        improved,
        deteriorated,
        net: improved - deteriorated,
        loss,
        gain,
        reversal: (loss && overall === 'up') || (gain && overall === 'down'),
        test,
      };
    })
    .sort(
      (a, b) =>
        (a.delta ?? 0) - (b.delta ?? 0) || a.net - b.net || a.domain.localeCompare(b.domain),
    );
}
