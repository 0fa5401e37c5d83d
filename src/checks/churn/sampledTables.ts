/**
 * The sampled estimator's tables beside the item flags: the domain tests, what each rule can
 * detect at this K, flags by baseline-accuracy band against the null's expectation, and the
 * greedy answers against the stochastic ones. Pure.
 */
import { mcnemarTest } from '../../stats/mcnemar.js';
import { normalQuantile } from '../../stats/normal.js';
import { canVary, type Stratum } from '../../stats/stratifiedExact.js';
import { finite, ratio } from './analyseShared.js';
import {
  type DomainCounts,
  type DomainTestRow,
  DETECTION_POWER,
  detectableItemChange,
  samplesForDomainLoss,
  samplesForItemChange,
  testDomains,
  testOverall,
} from './domainTest.js';
import type { ChurnItem } from './items.js';
import { Exclusion, type MethodsOutcome } from './methods.js';
import { BAND_EDGES, bandOf, type MethodNull } from './nullCalibration.js';
import type {
  BandCounts,
  BandRow,
  ChurnComparison,
  GreedySection,
  GreedyVsStochastic,
} from './section.js';

export interface DomainTests {
  byDomain: Map<string, DomainTestRow>;
  overall: ReturnType<typeof testOverall>;
  /** Mean shrunk per-sample variance p̃(1 − p̃) over the tested items. */
  variance: number;
  analysable: number;
  /** The domain rule's level split over the tested domains (Bonferroni, Holm's first step). */
  levelPerDomain: number;
}

/**
 * Every item with enough valid samples from both models enters its domain's test: one stratum
 * per item, or with adaptive sampling the strata `strataOf` gives (one per stage).
 */
export function domainTests(
  items: readonly ChurnItem[],
  outcome: MethodsOutcome,
  minItems: number,
  level: number,
  strataOf?: (item: number) => Stratum[],
): DomainTests {
  const { x1, n1, x2, n2 } = outcome.counts;
  const byDomain = new Map<string, DomainCounts>();
  const all: Stratum[] = [];
  let variance = 0;
  items.forEach((item, i) => {
    if (outcome.exclusion[i] === Exclusion.lowValid) return;
    const stratum = {
      x1: x1[i] as number,
      n1: n1[i] as number,
      x2: x2[i] as number,
      n2: n2[i] as number,
    };
    const p = (stratum.x1 + stratum.x2 + 1) / (stratum.n1 + stratum.n2 + 2);
    variance += p * (1 - p);
    const strata = strataOf ? strataOf(i) : [stratum];
    all.push(...strata);
    const counts = byDomain.get(item.domain) ?? {
      domain: item.domain,
      strata: [],
      items: [],
      ...(strataOf ? { informativeItems: 0 } : {}),
    };
    counts.strata.push(...strata);
    counts.items?.push(stratum);
    if (counts.informativeItems !== undefined && strata.some(canVary)) counts.informativeItems++;
    byDomain.set(item.domain, counts);
  });
  const tested = [...byDomain.values()].filter((d) => (d.items ?? d.strata).length >= minItems);
  const rows = testDomains(tested, level);
  return {
    byDomain: new Map(rows.map((row) => [row.domain, row])),
    overall: testOverall(all),
    variance: all.length === 0 ? 0.25 : variance / all.length,
    analysable: outcome.analysable,
    levelPerDomain: level / Math.max(1, tested.length),
  };
}

const ITEM_EFFECTS = [0.3, 0.5, 0.7];
const DOMAIN_EFFECTS = [0.05, 0.1, 0.2];

/**
 * The smallest changes each rule sees with 80% power at this K, and the K a smaller one needs.
 * Fisher + BH on one changed item is taken at the Bonferroni level α/m (BH's threshold for a
 * single discovery); domains at the domain rule's level split over the tested domains.
 */
export function detection(
  tests: DomainTests,
  outcome: MethodsOutcome,
  samples: number,
  alpha: number,
): ChurnComparison['detection'] {
  const itemLevel = alpha / Math.max(1, tests.analysable);
  const rows = [...tests.byDomain.values()];
  const smallest = rows.reduce<DomainTestRow | null>(
    (min, row) => (min === null || row.items < min.items ? row : min),
    null,
  );
  const level = rows.length === 0 ? null : tests.levelPerDomain;
  const rciDelta = (normalQuantile(0.975) + normalQuantile(DETECTION_POWER)) * outcome.sDiff;
  return {
    power: DETECTION_POWER,
    itemFisherBh: finite(Math.min(1, detectableItemChange(samples, itemLevel))),
    itemRci: finite(rciDelta),
    domain: smallest?.detectable ?? null,
    domainItems: smallest?.items ?? null,
    samplesFor: [
      ...ITEM_EFFECTS.map((effect) => ({
        kind: 'item' as const,
        effect,
        samples: samplesForItemChange(effect, itemLevel),
      })),
      ...(smallest === null || level === null
        ? []
        : DOMAIN_EFFECTS.map((effect) => ({
            kind: 'domain' as const,
            effect,
            samples: samplesForDomainLoss(effect, smallest.items, tests.variance, level),
          }))),
    ],
  };
}

export function bandTable(
  outcome: MethodsOutcome,
  p1: Float64Array,
  fisherBhExpected: MethodNull['bands'],
  rciExpected: MethodNull['bands'],
): BandRow[] {
  const rows: BandRow[] = [];
  const band = (expected: MethodNull['bands'][number] | undefined): BandCounts => ({
    improved: 0,
    deteriorated: 0,
    expectedImproved: expected?.improved ?? 0,
    expectedDeteriorated: expected?.deteriorated ?? 0,
  });
  for (let b = 0; b < BAND_EDGES.length - 1; b++) {
    rows.push({
      low: BAND_EDGES[b] as number,
      high: BAND_EDGES[b + 1] as number,
      items: 0,
      fisherBh: band(fisherBhExpected[b]),
      rci: band(rciExpected[b]),
    });
  }
  for (let i = 0; i < p1.length; i++) {
    if (outcome.exclusion[i] !== Exclusion.none) continue;
    const row = rows[bandOf(p1[i] as number)] as BandRow;
    row.items++;
    const fisherBhFlag = outcome.fisherBhClass[i] as number;
    const rciFlag = outcome.rciClass[i] as number;
    if (fisherBhFlag > 0) row.fisherBh.improved++;
    if (fisherBhFlag < 0) row.fisherBh.deteriorated++;
    if (rciFlag > 0) row.rci.improved++;
    if (rciFlag < 0) row.rci.deteriorated++;
  }
  return rows;
}

export function greedySection(
  baseline: (boolean | null)[],
  candidate: (boolean | null)[],
): GreedySection | null {
  let items = 0;
  let right1 = 0;
  let right2 = 0;
  let worse = 0;
  let better = 0;
  baseline.forEach((g1, i) => {
    const g2 = candidate[i];
    if (g1 === null || g2 === null || g2 === undefined) return;
    items++;
    if (g1) right1++;
    if (g2) right2++;
    if (g1 && !g2) worse++;
    if (!g1 && g2) better++;
  });
  if (items === 0) return null;
  const test = mcnemarTest(worse, better);
  return {
    items,
    baselineAccuracy: right1 / items,
    candidateAccuracy: right2 / items,
    delta: (right2 - right1) / items,
    worse,
    better,
    midP: test.midP,
    exactP: test.exactP,
  };
}

export function greedyVsStochastic(
  outcome: MethodsOutcome,
  classes: Int8Array,
  baseline: (boolean | null)[],
  candidate: (boolean | null)[],
): GreedyVsStochastic | null {
  let changed = 0;
  let missed = 0;
  let unchanged = 0;
  let flipped = 0;
  for (let i = 0; i < classes.length; i++) {
    const g1 = baseline[i];
    const g2 = candidate[i];
    if (outcome.exclusion[i] !== Exclusion.none || g1 === null || g2 === null) continue;
    if (g1 === undefined || g2 === undefined) continue;
    const greedyMove = Number(g2) - Number(g1);
    const flag = classes[i] as number;
    if (flag !== 0) {
      changed++;
      if (greedyMove !== flag) missed++;
    } else {
      unchanged++;
      if (greedyMove !== 0) flipped++;
    }
  }
  if (changed + unchanged === 0) return null;
  return {
    changed,
    missed,
    missedShare: ratio(missed, changed),
    unchanged,
    flipped,
    flippedShare: ratio(flipped, unchanged),
  };
}
