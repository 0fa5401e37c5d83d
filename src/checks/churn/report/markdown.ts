/**
 * The churn part of summary.md, rendered from the report section alone.
 * Item ids, domains and texts come from user files: they go through escapeText.
 */

import { type Align, codeSpan, details, escapeText, table } from '../../../render/markdown.js';
import { shorten } from '../../../text/budget.js';
import { interval, num, percent, points, pValueFigures, trimmed } from '../../../text/format.js';
import { MIN_VALID_SHARE, RCI_CONSERVATIVE, RCI_CRITICAL } from '../methods.js';
import type {
  BandRow,
  ChurnComparison,
  ChurnSection,
  CountShare,
  Detection,
  DomainRow,
  DomainTestSummary,
  FlagSet,
  ItemRow,
  LogprobsChurnSection,
  LogprobsComparison,
  LogprobsItemRow,
  LogprobsModelSummary,
  MethodSection,
  ModelSummary,
  SampledChurnSection,
} from '../section.js';
import { adaptiveSamplingLines } from './adaptive.js';
import { evidenceBlock, graderCell, openItemsLines } from './open.js';

const TOP_ITEMS = 10;

/** A column of a table: its header, alignment and cell; `false` leaves it out. */
type Column<R> = readonly [header: string, align: Align, cell: (row: R) => string];

function columnTable<R>(rows: readonly R[], columns: readonly (Column<R> | false)[]): string {
  const kept = columns.filter((c): c is Column<R> => c !== false);
  const cells = rows.map((row) => kept.map(([, , cell]) => cell(row)));
  return table(
    kept.map(([header]) => header),
    cells,
    kept.map(([, align]) => align),
  );
}

function shareCell(value: CountShare): string {
  return `${value.count} (${percent(value.share)}, ${interval(value.low, value.high, (v) => percent(v))})`;
}

function shareRow(label: string, set: FlagSet): string[] {
  return [
    label,
    String(set.base),
    shareCell(set.improved),
    shareCell(set.deteriorated),
    shareCell(set.unchanged),
  ];
}

function expectedCell(method: MethodSection, side: 'improved' | 'deteriorated'): string {
  const e = method.expected[side];
  return `${trimmed(e.mean)} (95th pct ${trimmed(e.p95, 0)})`;
}

/**
 * The models table: label, tag and accuracy, the estimator's own columns, invalid and timeout.
 */
function modelsTable<M extends ModelSummary | LogprobsModelSummary>(
  section: { baseline: M; candidate: M | null },
  accuracy: string,
  own: readonly Column<M>[],
): string {
  const models: [string, M][] = [['baseline', section.baseline]];
  if (section.candidate) models.push(['candidate', section.candidate]);
  return columnTable(models, [
    ['', 'l', ([label]) => label],
    ['model', 'l', ([, m]) => codeSpan(m.model)],
    [
      accuracy,
      'r',
      ([, m]) =>
        `${percent(m.accuracy.mean)} ${interval(m.accuracy.low, m.accuracy.high, (v) => percent(v))}`,
    ],
    ...own.map(([header, align, cell]): Column<[string, M]> => [header, align, ([, m]) => cell(m)]),
    ['invalid', 'r', ([, m]) => percent(m.invalidShare)],
    ['timeout', 'r', ([, m]) => percent(m.timeoutShare)],
  ]);
}

/**
 * Whether the Reliable Change Index is shown: it assumes one K for every item, which adaptive
 * sampling does not give (docs/adaptive-sampling.md).
 */
const showsRci = (section: SampledChurnSection): boolean => section.sampling === undefined;

/** The columns both estimators' item tables start with: which item, and how p moved. */
const CHANGE_COLUMNS: readonly Column<
  Pick<ItemRow | LogprobsItemRow, 'id' | 'domain' | 'p' | 'delta'>
>[] = [
  ['item', 'l', (r) => escapeText(r.id)],
  ['domain', 'l', (r) => escapeText(r.domain)],
  ['p before', 'r', (r) => num(r.p[0], 2)],
  ['p after', 'r', (r) => num(r.p[1], 2)],
  ['Δp', 'r', (r) => num(r.delta, 2)],
];

function itemTable(rows: readonly ItemRow[], withRci: boolean): string {
  // Open items name their grader; a table of multiple-choice items only stays as it was.
  const graders = rows.some((r) => r.grader !== undefined);
  return columnTable(rows, [
    ...CHANGE_COLUMNS,
    [
      'q (Fisher, BH)',
      'r',
      (r) => (r.q === null ? '–' : r.q < 0.001 ? r.q.toExponential(1) : num(r.q, 3)),
    ],
    withRci && ['RCI', 'r', (r) => num(r.rci, 2)],
    ['greedy', 'c', (r) => `${greedyMark(r.greedy[0])}→${greedyMark(r.greedy[1])}`],
    graders && ['grader', 'l', graderCell],
  ]);
}

function greedyMark(value: boolean | null): string {
  return value === null ? '–' : value ? '✓' : '✗';
}

/**
 * What one estimator adds to the shared layout of the churn section: the heading, intro and
 * models table, and around the Δ line, top deteriorations and domains table its own counts.
 */
interface EstimatorParts<C> {
  heading: string;
  intro: string;
  /** Lines between the intro and the models table, each block ending with ''. */
  notes: string[];
  models: string;
  /** The line after the Δ accuracy line: how many items improved and deteriorated. */
  counts(c: C): string;
  /** The deteriorated items, worst first, at most TOP_ITEMS, as a table; null when none. */
  worst(c: C): string | null;
  /** Blocks between the top deteriorations and the domains table, each ending with ''. */
  beforeDomains(c: C): string[];
  /** Blocks after the domains table. */
  afterDomains(c: C): string[];
}

/** What both estimators' comparisons share: the Δ accuracy and the domains. */
type SharedComparison = Pick<ChurnComparison, 'delta' | 'domains'>;

/** The churn section: one layout, the estimator's parts in it. */
function renderWith<C extends SharedComparison>(
  section: ChurnSection,
  comparison: C | null,
  parts: EstimatorParts<C>,
): string {
  const out: string[] = [parts.heading, '', parts.intro, '', ...parts.notes, parts.models, ''];
  if (!comparison) {
    out.push('Single-model run: no comparison.', '');
    return finish(out, section);
  }
  const c = comparison;
  out.push(overallLine(c), parts.counts(c), ...domainLossLines(c), '');
  const worst = parts.worst(c);
  if (worst) out.push('**Top deteriorations**', '', worst, '');
  out.push(...parts.beforeDomains(c), '**Domains**', '', domainTable(c.domains), '');
  out.push(...parts.afterDomains(c));
  return finish(out, section);
}

/**
 * The overall change in the gate's frame first (did the model change on these items: the exact
 * test of their sampling noise), then, labelled in words, the interval that generalises over
 * items (the t interval, or the domain bootstrap): the two answer different questions and can
 * disagree on whether 0 is plausible.
 */
function overallLine(c: SharedComparison & { domainTest?: DomainTestSummary }): string {
  const pool = `if these items were a sample of a larger pool, the change there would lie in ${interval(c.delta.low, c.delta.high, (v) => points(v))} (95% ${c.delta.interval === 'domains' ? 'domain bootstrap' : 't interval'} over ${c.delta.n} items)`;
  const overall = c.domainTest?.overall;
  if (!overall) return `**Δ accuracy ${points(c.delta.mean)}** on these items; ${pool}.`;
  const frame =
    overall.direction === null
      ? `not significant by the exact test of these items' sampling noise (one-sided p = ${pValueFigures(Math.min(overall.pLoss, overall.pGain))})`
      : `significantly ${overall.direction} by the exact test of these items' sampling noise (one-sided p = ${pValueFigures(overall.direction === 'up' ? overall.pGain : overall.pLoss)} ≤ 0.025)`;
  return `**Δ accuracy ${points(c.delta.mean)}** on these items, ${frame}; ${pool}.`;
}

/** The rows classified deteriorated, worst Δ first, at most TOP_ITEMS. */
function worstOf<R extends { delta: number | null }>(
  rows: readonly R[],
  deteriorated: (row: R) => boolean,
): R[] {
  return rows
    .filter(deteriorated)
    .sort((a, b) => (a.delta ?? 0) - (b.delta ?? 0))
    .slice(0, TOP_ITEMS);
}

export function renderChurnSection(section: ChurnSection): string {
  return section.estimator === 'logprobs'
    ? renderWith(section, section.comparison, logprobsParts(section))
    : renderWith(section, section.comparison, sampledParts(section));
}

function sampledParts(section: SampledChurnSection): EstimatorParts<ChurnComparison> {
  const gateName =
    section.method === 'fisher-bh'
      ? `Fisher exact + BH, q ≤ ${section.alpha}`
      : `RCI, |RCI| > ${RCI_CRITICAL}`;
  const gateOf = (c: ChurnComparison) => (section.method === 'fisher-bh' ? c.fisherBh : c.rci);
  return {
    heading: '### churn — item-level reliable change',
    intro: `${section.itemCounts.total} items, ${section.sampling ? 'up to ' : ''}K = ${section.samples} samples per item and model at temperature ${section.temperature}; gate method: ${gateName}.`,
    notes: [
      ...(section.sampling ? adaptiveSamplingLines(section.sampling) : []),
      ...openItemsLines(section.openItems),
    ],
    models: modelsTable(section, 'accuracy (95% CI)', [
      ['consistency between halves', 'r', (m) => num(m.reliability)],
      ['greedy accuracy', 'r', (m) => percent(m.greedyAccuracy)],
    ]),
    counts: (c) => {
      const gate = gateOf(c);
      return `Reliably improved **${gate.improved}**, deteriorated **${gate.deteriorated}**. Between two identical models (parametric bootstrap, ${c.null.replicates} replicates, seed ${c.null.seed}) the same method flags on average ${trimmed(gate.expected.improved.mean)} improved and ${trimmed(gate.expected.deteriorated.mean)} deteriorated (95th percentiles ${trimmed(gate.expected.improved.p95, 0)} and ${trimmed(gate.expected.deteriorated.p95, 0)}).`;
    },
    worst: (c) => {
      const worst = worstOf(
        c.items,
        (r) => (section.method === 'fisher-bh' ? r.fisherBh : r.rciClass) === 'deteriorated',
      );
      return worst.length > 0 ? itemTable(worst, showsRci(section)) : null;
    },
    beforeDomains: (c) => [...evidenceBlock(c.items), ...methodBlocks(section, c, gateOf(c))],
    afterDomains: (c) => [
      ...domainTestLines(c),
      ...poolingLines(c),
      ...(c.detection ? [...detectionLines(c.detection, section), ''] : []),
      bandsBlock(c, showsRci(section)),
      '',
      ...greedyLines(c),
      '',
      ...changedItemBlocks(c, showsRci(section)),
    ],
  };
}

/** Both methods side by side (B: Fisher + BH, A: RCI), the gate's over all and analysable items. */
function methodBlocks(
  section: SampledChurnSection,
  c: ChurnComparison,
  gate: MethodSection,
): string[] {
  const gateMark = (method: SampledChurnSection['method']) =>
    section.method === method ? ' — gate' : '';
  const methods: [string, MethodSection][] = [
    [`B: Fisher + BH (q ≤ ${c.fisherBh.alpha})${gateMark('fisher-bh')}`, c.fisherBh],
  ];
  if (showsRci(section)) methods.push([`A: RCI (±${RCI_CRITICAL})${gateMark('rci')}`, c.rci]);
  const counts = section.itemCounts;
  const lines = [
    `Of ${counts.total} items, ${counts.analysable} are analysable (excluded: ${counts.floor} at 0 in both, ${counts.ceiling} at 1 in both, ${counts.lowValid} with under ${(100 * MIN_VALID_SHARE.valid) / MIN_VALID_SHARE.of}% valid samples). Shares below are of analysable items, with Wilson 95% CIs.`,
    '',
    columnTable(methods, [
      ['method', 'l', ([label]) => label],
      ['improved', 'r', ([, m]) => shareCell(m.analysable.improved)],
      ['expected (null)', 'r', ([, m]) => expectedCell(m, 'improved')],
      ['deteriorated', 'r', ([, m]) => shareCell(m.analysable.deteriorated)],
      ['expected (null)', 'r', ([, m]) => expectedCell(m, 'deteriorated')],
      ['churn rate', 'r', ([, m]) => percent(m.churnRate)],
      ['net', 'r', ([, m]) => num(m.net, 0)],
      ['median |Δp|', 'r', ([, m]) => num(m.medianAbsDelta, 2)],
      ['breadth', 'r', ([, m]) => num(m.breadthRatio, 2)],
      ['false-flag rate (null)', 'r', ([, m]) => percent(m.expected.falseFlagRate)],
    ]),
    '',
    'Churn rate: changed items ÷ all items. Median |Δp|: over the changed items. Breadth: items reliably improved ÷ items whose accuracy rose at all. False-flag rate: share of analysable items the method flags between two identical models.',
    '',
    table(
      ['gate method over', 'items', 'improved', 'deteriorated', 'no change'],
      [shareRow('all items', gate.all), shareRow('analysable items', gate.analysable)],
      ['l', 'r', 'r', 'r', 'r'],
    ),
    '',
    `Raw Fisher p ≤ ${c.fisherBh.alpha} before FDR control: ${c.fisherBh.rawP.improved} improved, ${c.fisherBh.rawP.deteriorated} deteriorated.`,
    showsRci(section)
      ? rciLine(section, c)
      : 'Method A (the Reliable Change Index) is not shown: it assumes the same K for every item, and adaptive sampling gives each item its own.',
  ];
  return [
    details('Both item methods side by side, with their no-change expectations', lines.join('\n')),
    '',
  ];
}

function rciLine(section: SampledChurnSection, c: ChurnComparison): string {
  return `Method A (the Reliable Change Index of Cacioli 2026, *Beyond the Mean*): split-half r_xx ${num(c.rci.reliability.baseline)} / ${num(c.rci.reliability.candidate)} (median over ${c.rci.splits.count} ${c.rci.splits.exhaustive ? 'splits, all distinct ones' : 'random splits'}), S_diff ${num(c.rci.sDiff)}, smallest detectable Δp ${num(c.rci.minDetectableDelta, 2)} = ${c.rci.minDetectableSamples ?? '–'} of ${section.samples} samples; at ±${RCI_CONSERVATIVE}: ${c.rci.conservative.improved} improved, ${c.rci.conservative.deteriorated} deteriorated. Its error term is the spread between items, not each item's own sampling noise: between two identical models it flags ${percent(c.rci.expected.falseFlagRate)} of analysable items.`;
}

/**
 * A domain whose test finds a loss (or gain) while no item of it is reliably worse (or better)
 * reads as a contradiction: it is not one, and the page says why, with the K that would show
 * its items one by one.
 */
function poolingLines(c: ChurnComparison): string[] {
  const itemRows = (c.detection?.samplesFor ?? []).filter((r) => r.kind === 'item');
  const lines: string[] = [];
  for (const d of c.domains) {
    const lost = d.loss && d.deteriorated === 0;
    const gained = d.gain && d.improved === 0;
    if ((!lost && !gained) || d.delta === null) continue;
    const size = Math.abs(d.delta);
    const row = itemRows
      .filter((r) => r.effect <= size + 1e-9)
      .sort((a, b) => b.effect - a.effect)[0];
    const most = Math.max(0, ...itemRows.map((r) => r.samples));
    const k = row
      ? `; about K = ${row.samples} per item would show one item moving by ${trimmed(row.effect, 1)}`
      : most > 0
        ? `; one item moving by ${trimmed(size, 2)} needs more than K = ${most} per item`
        : '';
    lines.push(
      `- ${escapeText(d.domain)}: ${points(d.delta)} with 0 items reliably ${lost ? 'worse' : 'better'}${k}.`,
    );
  }
  if (lines.length === 0) return [];
  return [
    'Domains changed with no item reliably changed: the per-item test judges each item on its own samples and needs more of them; the domain test pools its items.',
    '',
    ...lines,
    '',
  ];
}

function domainTestLines(c: ChurnComparison): string[] {
  if (!c.domainTest) return [];
  return [
    `Domain test: exact permutation test of each domain's net change, Holm over the domains at ${percent(c.domainTest.level)}; overall: the same test on all items (${c.domainTest.overall.direction === null ? 'not significant here' : `significantly ${c.domainTest.overall.direction} here`}).`,
    '',
    details(
      'How the domain test works',
      `The net change of a domain's items against its exact permutation null (baseline and candidate labels swapped within each item, so both models' sampling noise counts and items settled at 0 or 1 add no certainty), one-sided for a loss, Holm-adjusted over the tested domains at ${percent(c.domainTest.level)} (the rule's share of the false-alarm budget). A loss is a reversal only when the overall change is significantly up by the same exact test on all items.`,
    ),
    '',
  ];
}

function bandsBlock(c: ChurnComparison, withRci: boolean): string {
  const counts = (m: BandRow['fisherBh'], side: 'improved' | 'deteriorated') =>
    `${m[side]} (${trimmed(side === 'improved' ? m.expectedImproved : m.expectedDeteriorated)})`;
  return details(
    'Difficulty bands (baseline accuracy) with the no-change expectation',
    columnTable(c.bands, [
      ['baseline p', 'l', (b) => `${trimmed(b.low)}–${trimmed(b.high)}`],
      ['items', 'r', (b) => String(b.items)],
      ['B improved (exp.)', 'r', (b) => counts(b.fisherBh, 'improved')],
      ['B deteriorated (exp.)', 'r', (b) => counts(b.fisherBh, 'deteriorated')],
      withRci && ['A improved (exp.)', 'r', (b) => counts(b.rci, 'improved')],
      withRci && ['A deteriorated (exp.)', 'r', (b) => counts(b.rci, 'deteriorated')],
    ]),
  );
}

function greedyLines(c: ChurnComparison): string[] {
  const lines: string[] = [];
  if (c.greedy) {
    const g = c.greedy;
    lines.push(
      `Greedy (one answer at temperature 0): ${percent(g.baselineAccuracy)} → ${percent(g.candidateAccuracy)} (${points(g.delta)}), ${g.worse} right→wrong and ${g.better} wrong→right, McNemar mid-p ${num(g.midP, 3)} (exact ${num(g.exactP, 3)}).`,
    );
  }
  if (c.greedyVsStochastic) {
    const v = c.greedyVsStochastic;
    lines.push(
      `Greedy vs stochastic: greedy missed ${v.missed} of ${v.changed} reliably changed items (${percent(v.missedShare)}) and flipped ${v.flipped} of ${v.unchanged} unchanged ones (${percent(v.flippedShare)}).`,
    );
  }
  return lines;
}

function changedItemBlocks(c: ChurnComparison, withRci: boolean): string[] {
  const methods: ['A' | 'B', 'fisherBh' | 'rciClass'][] = [['B', 'fisherBh']];
  if (withRci) methods.push(['A', 'rciClass']);
  return methods.flatMap(([name, key]) => {
    const changed = c.items.filter((r) => r[key] !== 'unchanged' && r[key] !== 'excluded');
    if (changed.length === 0) return [];
    const title = `Items changed by method ${name} (${changed.length})`;
    return [details(title, itemTable(changed, withRci)), ''];
  });
}

const SOURCE_NAMES: Record<LogprobsModelSummary['sources'][number], string> = {
  'embedded-logits': 'llama.cpp logits, in process',
  'ollama-logprobs': 'Ollama token logprobs',
};

function sourcesOf(m: LogprobsModelSummary): string {
  return m.sources.length === 0 ? '–' : m.sources.map((s) => SOURCE_NAMES[s]).join(' + ');
}

/**
 * The logprobs estimator has no sampling noise, hence no test, null calibration, reliability or
 * Fisher column: the report is about the size of Δp and counts items beyond min-effect.
 */
function logprobsParts(section: LogprobsChurnSection): EstimatorParts<LogprobsComparison> {
  const size = `${trimmed(section.minEffect * 100)} points`;
  const counts = section.itemCounts;
  return {
    heading: '### churn — item-level change, logprobs estimator',
    notes: [],
    intro:
      `${counts.total} items, one evaluation per item and model that reads the probability of each answer letter; p(correct) at temperature ${section.temperature}. ` +
      `There is no sampling noise, so the question is how large a change is, not whether it is significant: an item counts as improved or deteriorated when p(correct) moved by at least ${size} (|Δp| ≥ min-effect ${section.minEffect}).`,
    models: modelsTable(section, 'accuracy (mean p, 95% CI)', [
      ['top-letter accuracy', 'r', (m) => percent(m.topLetterAccuracy)],
      ['source', 'l', sourcesOf],
    ]),
    counts: (c) =>
      `Improved **${c.effect.improved}**, deteriorated **${c.effect.deteriorated}**: items whose p(correct) moved by at least ${size} (effect-size counts).`,
    worst: (c) => {
      const worst = worstOf(c.items, (r) => r.effect === 'deteriorated');
      return worst.length > 0 ? columnTable(worst, CHANGE_COLUMNS) : null;
    },
    beforeDomains: (c) => {
      const e = c.effect;
      return [
        `Of ${counts.total} items, ${counts.measured} were measured for both models (${counts.unmeasured} without a readable answer letter). Shares with Wilson 95% CIs.`,
        '',
        table(
          ['items over', 'items', 'improved', 'deteriorated', `below ${size}`],
          [shareRow('all items', e.all), shareRow('measured items', e.measured)],
          ['l', 'r', 'r', 'r', 'r'],
        ),
        '',
        `Churn rate ${percent(e.churnRate)}, net ${e.net}, median |Δp| of changed items ${num(e.medianAbsDelta, 2)}, breadth (improved / items with Δp > 0) ${num(e.breadthRatio, 2)}.`,
        `Items by size of change: ${e.beyond.map((b) => `|Δp| ≥ ${b.threshold}: ${b.items}`).join(', ')}.`,
        '',
      ];
    },
    afterDomains: (c) => {
      const changed = c.items.filter((r) => r.effect === 'improved' || r.effect === 'deteriorated');
      if (changed.length === 0) return [];
      return [
        details(
          `Items changed by at least ${size} (${changed.length})`,
          columnTable(changed, CHANGE_COLUMNS),
        ),
        '',
      ];
    },
  };
}

function finish(out: string[], section: ChurnSection): string {
  if (section.warnings.length > 0) {
    out.push(
      details(
        `Warnings (${section.warnings.length})`,
        section.warnings.map((w) => `- ${escapeText(w)}`).join('\n'),
      ),
      '',
    );
  }
  return `${out.join('\n').trimEnd()}\n`;
}

const DOMAIN_LABEL_LIMIT = 48;

export function domainLabel(domain: string, tag: string): string {
  return `${shorten(domain, DOMAIN_LABEL_LIMIT)}${tag}`;
}

/** Per domain: accuracy before and after, and the items that changed (either estimator). */
function domainTable(domains: readonly DomainRow[]): string {
  const tested = domains.some((d) => d.test);
  const mark = (d: DomainRow): string =>
    d.reversal ? ' ⚠ loss, reversal' : d.loss ? ' ⚠ loss' : d.gain ? ' (gain)' : '';
  return columnTable(domains, [
    ['domain', 'l', (d) => `${escapeText(d.domain)}${mark(d)}`],
    ['items', 'r', (d) => String(d.items)],
    ['baseline', 'r', (d) => percent(d.baselineAccuracy)],
    ['candidate', 'r', (d) => percent(d.candidateAccuracy)],
    ['Δ', 'r', (d) => points(d.delta)],
    ['improved', 'r', (d) => String(d.improved)],
    ['deteriorated', 'r', (d) => String(d.deteriorated)],
    ['net', 'r', (d) => num(d.net, 0)],
    tested && [
      'loss p (domain test, Holm)',
      'r',
      (d) => (d.test ? pValueFigures(d.test.adjustedLoss) : 'not tested'),
    ],
    tested && [
      'smallest loss it can see',
      'r',
      (d) => (d.test?.detectable ? `−${trimmed(d.test.detectable * 100)} pts` : '–'),
    ],
  ]);
}

/** The domains that lost accuracy, and which of them are reversals. */
function domainLossLines(c: SharedComparison & { domainTest?: DomainTestSummary }): string[] {
  const lost = c.domains.filter((d) => d.loss);
  const reversals = lost.filter((d) => d.reversal);
  const lines: string[] = [];
  if (lost.length > 0) {
    lines.push(
      `**Domains that lost accuracy:** ${lost.map((d) => `${escapeText(d.domain)} (${points(d.delta)})`).join(', ')}.`,
    );
  }
  if (reversals.length > 0) {
    // The same frame as the overall line: the sampled estimator's exact test, or (no sampling
    // noise to test) the interval over items.
    const by = c.domainTest
      ? 'by the exact test on all items'
      : 'its 95% interval over items above 0';
    lines.push(
      `**Domain reversals:** ${reversals.map((d) => escapeText(d.domain)).join(', ')} lost while the overall change is significantly up (${by}).`,
    );
  }
  return lines;
}

/** Smallest changes each rule detects at this K, and the K smaller ones would need. */
function detectionLines(d: Detection, section: SampledChurnSection): string[] {
  const atK = `K = ${section.samples}${section.sampling === undefined ? '' : ' (samples-max)'}`;
  const pct = (x: number) => `${trimmed(x * 100, 0)} pts`;
  const item = (x: number | null) =>
    x === null ? '–' : x >= 1 ? 'not detectable (> 1)' : trimmed(x, 2);
  const rci = showsRci(section)
    ? ` or ${item(d.itemRci)} (RCI, (${RCI_CRITICAL} + 0.84)·S_diff)`
    : '';
  const rows = d.samplesFor.map((r) => [
    r.kind === 'item'
      ? `one item moves by ${trimmed(r.effect, 1)}`
      : `a domain of ${d.domainItems} items loses ${pct(r.effect)}`,
    r.kind === 'item' ? 'Fisher + BH' : 'domain test',
    String(r.samples),
  ]);
  // Collapsed: the gate rules' table says the same smallest changes, rule by rule.
  return [
    details(
      'Smallest change detected, and the K smaller ones would need',
      [
        `**Smallest change detected with ${trimmed(d.power * 100, 0)}% power at ${atK}:** one item by ${item(d.itemFisherBh)} (Fisher + BH)${rci}; ${d.domain === null ? 'no domain tested' : `a domain of ${d.domainItems} items by ${trimmed(d.domain * 100)} points`}.`,
        table(['to detect', 'by', 'K needed'], rows, ['l', 'l', 'r']),
        `K needed: samples per item and model for 80% power (normal approximation; items near p = 0.5, domains at this run's item difficulties). Raise churn.${section.sampling === undefined ? 'samples' : 'samples-max'}, or add items to a domain, to see smaller changes.`,
      ].join('\n\n'),
    ),
  ];
}
