/**
 * The personas part of summary.md, rendered from the
 * report section alone. Assistant names and probes come from the user's catalogue and model
 * tags from the config: all go through escapeText (SVG text through escapeXml).
 */

import { codeSpan, details, escapeText, table } from '../../../render/markdown.js';
import { pValue as formatPValue, num, percent, points, trimmed } from '../../../text/format.js';
import { detectableEffects } from '../rules.js';
import type {
  ConfusedPair,
  PersonasAssistant,
  PersonasComparison,
  PersonasModelResult,
  PersonasSection,
  ProbeAccuracy,
} from '../section.js';

/** Markdown for the personas part of summary.md, rendered from report.json alone. */
export function renderPersonasSection(section: PersonasSection): string {
  const out: string[] = ['### personas — can each assistant be told apart from its answers?'];
  if (!isComplete(section)) {
    out.push(
      'This report holds an incomplete personas section (written by another version?): re-run `model-gate analyze` on its sample log to rebuild it.',
    );
    return `${out.join('\n\n')}\n`;
  }
  const models = section.models;
  out.push(introduction(section));
  if (models.length === 0) {
    out.push('No model was measured.');
    return `${out.join('\n\n')}\n`;
  }
  out.push(accuracyTable(models));
  out.push('#### Recognition per assistant', recognitionTable(section, models));
  out.push('#### Confused pairs', confusedPairs(section, models));
  const effects = detectable(section);
  if (effects) out.push(effects);
  // The instrument's own checks, collapsed: the verdict does not rest on them.
  out.push(details('Accuracy per probe', probeTable(section, models)));
  const controls = controlNotes(models);
  if (controls.length > 0) out.push(details('Instrument controls', controls.join('\n')));
  const single = models.length === 1;
  out.push(
    details(
      'Prompt distance vs answer distance',
      models.map((m) => distanceBlock(m, single)).join('\n\n'),
    ),
  );
  for (const m of models) out.push(matricesBlock(section.catalogue.assistants, m, single));
  const notes = section.notes ?? [];
  if (notes.length > 0) out.push(notes.map((n) => `- ${escapeText(n)}`).join('\n'));
  return `${out.join('\n\n')}\n`;
}

/** report.json may come from elsewhere (a nightly's previous report): check before reading. */
export function isComplete(section: PersonasSection): boolean {
  const catalogue: unknown = section.catalogue;
  const models: unknown = section.models;
  return (
    typeof catalogue === 'object' &&
    catalogue !== null &&
    Array.isArray(section.catalogue.assistants) &&
    Array.isArray(section.catalogue.probes) &&
    Array.isArray(models) &&
    section.models.every(
      (m) =>
        Array.isArray(m.recognition) && Array.isArray(m.confusion) && m.distances !== undefined,
    )
  );
}

function introduction(section: PersonasSection): string {
  const { assistants, probes, file } = section.catalogue;
  const controls = assistants.filter((a) => a.control).length;
  const vectors = section.vectors === 'embed' ? 'embedding vectors' : 'TF-IDF vectors';
  const samples = section.samples ?? 1;
  const times = samples === 1 ? '' : `, ${samples} times each`;
  return (
    `Every assistant of ${codeSpan(file)} (${assistants.length} assistants, ${controls} of them controls) ` +
    `answered the same ${probes.length} probes${times}. Each answer is attributed to the assistant whose other ` +
    `answers it is nearest to (${vectors}, leave-one-out centroids). The reference level is the mean accuracy of ` +
    `answers relabelled within each probe, not chance (one in ${assistants.length}).\n\n` +
    details(
      'Why not chance',
      'Leaving an answer out of its own centroid puts interchangeable assistants below chance, so a binomial test against chance is not valid here.',
    )
  );
}

/**
 * A model's name in a sentence or a cell: its role and its tag as code; the one model of a
 * single-model run is "model", not "baseline".
 */
function label(model: PersonasModelResult, single: boolean): string {
  return `${single ? 'model' : model.role} ${codeSpan(model.model)}`;
}

/** For a `<summary>` line: plain, `details` escapes it and shows the tag as code. */
function plainLabel(model: PersonasModelResult, single: boolean): string {
  return `${single ? 'model' : model.role} ${model.model}`;
}

/** p-values span many decades: exponent notation below 0.001. */
export function pValue(p: number | null | undefined): string {
  return formatPValue(p, 3);
}

function accuracyTable(models: readonly PersonasModelResult[]): string {
  const rows = models.map((m) => [
    label(m, models.length === 1),
    `${m.correct}/${m.attributed}`,
    percent(m.accuracy),
    percent(m.permutation.meanAccuracy),
    `${pValue(m.permutation.p)} (${m.permutation.runs} relabellings within probes)`,
  ]);
  return table(
    [
      'model',
      'attributed to the right assistant',
      'accuracy',
      'reference (null mean)',
      'permutation p',
    ],
    rows,
    ['l', 'r', 'r', 'r', 'l'],
  );
}

function roleOf(assistant: PersonasAssistant): string {
  if (!assistant.control) return '';
  const kind = assistant.control.kind === 'paraphrase' ? 'paraphrase of' : 'inverse posture of';
  return `control: ${kind} ${escapeText(assistant.control.of)}`;
}

function recognitionTable(
  section: PersonasSection,
  models: readonly PersonasModelResult[],
): string {
  const header = ['assistant', 'declared as', ...models.map((m) => label(m, models.length === 1))];
  const both = models.length === 2;
  if (both) header.push('Δ', 'adjusted p of a drop');
  const rows = section.catalogue.assistants.map((assistant) => {
    const cells = [escapeText(assistant.name), roleOf(assistant)];
    const shares: (number | null)[] = [];
    for (const model of models) {
      const r = model.recognition.find((x) => x.assistant === assistant.name);
      shares.push(r?.share ?? null);
      cells.push(
        r && r.answers > 0 ? `${r.recognised}/${r.answers} (${percent(r.share, 0)})` : '–',
      );
    }
    if (both) {
      const [before, after] = shares;
      cells.push(before != null && after != null ? points(after - before, 0) : '–');
      const test = section.comparison?.recognition?.find((r) => r.assistant === assistant.name);
      cells.push(
        test?.dropped
          ? `**${pValue(test.adjusted)}: fails**`
          : test?.separated === false
            ? 'not tested: not told apart on the baseline'
            : pValue(test?.adjusted),
      );
    }
    return cells;
  });
  const rendered = table(header, rows, [
    'l',
    'l',
    ...models.map(() => 'r' as const),
    ...(both ? ['r' as const, 'r' as const] : []),
  ]);
  const comparison = section.comparison;
  if (!both || !comparison?.levels) return rendered;
  const { levels } = comparison;
  return `${rendered}\n\nThe rule fails an assistant recognised at or above ${percent(levels.minRecognition, 0)} (min-recognition) by the baseline and below it by the candidate, when the drop is significant by ${TEST_NAME}. An assistant shadowed by controls counts the answers given to them as recognised.\n\n${details('The recognition test in full', testSentence(comparison, 'assistants', levels.recognitionAlpha))}`;
}

/** What a pass rules out: the smallest change each rule catches at these settings. */
function detectable(section: PersonasSection): string | null {
  const comparison = section.comparison;
  if (!comparison?.levels) return null;
  const effects = detectableEffects(section, comparison.levels, section.samples ?? 1);
  // Collapsed: the gate rules' table says the same smallest changes, rule by rule.
  return details(
    'What a pass rules out',
    `At 80% power (binomial approximation): ${effects.merge}; ${effects.recognition}. More samples per probe (personas.samples) show smaller changes.`,
  );
}

function pairName(pair: { a: string; b: string }): string {
  return `${escapeText(pair.a)} ↔ ${escapeText(pair.b)}`;
}

function confusedPairs(section: PersonasSection, models: readonly PersonasModelResult[]): string {
  const parts: string[] = [];
  for (const model of models) {
    const pairs = model.confusedPairs.slice(0, 8);
    if (pairs.length === 0) {
      parts.push(
        `${label(model, models.length === 1)}: no answer was attributed to another assistant.`,
      );
      continue;
    }
    const most = model.mostConfusedPair;
    const lead = most
      ? `${label(model, models.length === 1)}: most confused pair ${pairName(most)} (${most.total} answers across, ${most.aAsB} one way and ${most.bAsA} the other).`
      : '';
    parts.push(
      lead,
      table(
        ['pair', 'a taken for b', 'b taken for a', 'reading'],
        pairs.map((p) => [pairName(p), String(p.aAsB), String(p.bAsA), pairReading(p)]),
        ['l', 'r', 'r', 'l'],
      ),
    );
  }
  const comparison = section.comparison;
  if (comparison?.pairs) parts.push(pairTests(comparison));
  return parts.join('\n\n');
}

/** The merge rule's tests: every pair's crossings, baseline vs candidate. */
function pairTests(comparison: PersonasComparison): string {
  const merged = comparison.newlyMerged;
  const { levels } = comparison;
  const lead =
    merged.length === 0
      ? `The candidate merges no pair: no pair crosses significantly more than on the baseline, by ${TEST_NAME}.`
      : `**Merged by the candidate**: ${merged.map(pairName).join(', ')}.`;
  const crossed = (c: { crossings: number; answers: number }) =>
    c.answers > 0 ? `${c.crossings}/${c.answers} (${percent(c.crossings / c.answers, 0)})` : '–';
  const rows = [...comparison.pairs]
    .sort((x, y) => (x.adjusted ?? 1) - (y.adjusted ?? 1))
    .map((p) => [
      pairName(p),
      crossed(p.baseline),
      crossed(p.candidate),
      pValue(p.adjusted),
      p.merged
        ? '**merged**'
        : p.separated === false
          ? 'not told apart on the baseline: not tested'
          : '',
    ]);
  const separated =
    comparison.newlySeparated.length > 0
      ? `\n\nSeparated by the candidate (merged on the baseline): ${comparison.newlySeparated.map(pairName).join(', ')}.`
      : '';
  return `${lead} A pair fails when its adjusted p (${TEST_NAME}) is at most ${pValue(levels.mergeAlpha)} and its crossing share rises by at least ${percent(levels.minCrossingRise, 0)} (min-crossing-rise).\n\n${details('The merge test in full', testSentence(comparison, 'pairs', levels.mergeAlpha))}\n\n${details(
    'every pair tested: answers taken for the other, baseline → candidate',
    table(['pair', 'baseline', 'candidate', 'adjusted p', ''], rows, ['l', 'r', 'r', 'r', 'l']),
  )}${separated}`;
}

/** The personas rules' test, named in a few words wherever a sentence says "significant". */
const TEST_NAME = 'the one-sided Fisher test, adjusted over the assistants or pairs';

function testSentence(comparison: PersonasComparison, what: string, alpha: number): string {
  const { test } = comparison;
  const method =
    test.method === 'swap-permutation'
      ? `one-sided Fisher p of each, shrunk when the probes disagree more than independent answers would, adjusted over the ${what} the baseline told apart by swapping the two models' answers to the same probe (${test.swaps} swaps, min-p), never below its own p`
      : `one-sided Fisher p of each, shrunk when the probes disagree more than independent answers would, times the number of ${what} (Bonferroni; the baseline is a previous report), for the ${what} it told apart`;
  return `Test: ${method}; the rule's share of the false-alarm budget is ${pValue(alpha)}.`;
}

function pairReading(pair: ConfusedPair): string {
  if (pair.expected) return 'planted paraphrase: confusion expected';
  if (pair.merged) return '**merged**: two labels, one assistant';
  return pair.aAsB > 0 && pair.bAsA > 0 ? 'confused both ways' : 'confused one way';
}

function probeTable(section: PersonasSection, models: readonly PersonasModelResult[]): string {
  const rows = section.catalogue.probes.map((probe, index) => [
    String(index + 1),
    escapeText(probe),
    ...models.map((m) => {
      const p = m.probes.find((x) => x.probe === index);
      return p && p.answers > 0 ? `${p.correct}/${p.answers} (${percent(p.accuracy, 0)})` : '–';
    }),
  ]);
  const last = models[models.length - 1];
  const weakest = last?.probes
    .filter((p) => p.accuracy !== null)
    .reduce<ProbeAccuracy | null>(
      (low, p) => (low && (low.accuracy ?? 0) <= (p.accuracy ?? 0) ? low : p),
      null,
    );
  const hint = weakest
    ? `\n\nA probe where few answers find their author draws every assistant to the same answer: rewrite it first (lowest for ${label(last as PersonasModelResult, models.length === 1)}: probe ${weakest.probe + 1}, ${percent(weakest.accuracy, 0)}).`
    : '';
  return `${table(['#', 'probe', ...models.map((m) => label(m, models.length === 1))], rows, ['r', 'l', ...models.map(() => 'r' as const)])}${hint}`;
}

function controlNotes(models: readonly PersonasModelResult[]): string[] {
  const lines: string[] = [];
  for (const model of models) {
    for (const c of model.controls) {
      const who = `${escapeText(c.control)} (${c.kind === 'paraphrase' ? 'paraphrase' : 'inverse posture'} of ${escapeText(c.twin)})`;
      const crossed = `${c.crossings} of ${c.answers} answers crossed`;
      const reading = {
        'as-expected': 'confused with its twin, as planted: the instrument sees redundancy',
        'instrument-problem':
          '**not confused with its twin: instrument problem** (the measure missed a redundancy planted on purpose; this questions the measurement, not the model)',
        confused: 'confused with its twin: its posture does not show in the answers',
        separated: 'told apart from its twin: its posture shows in the answers',
      }[c.verdict];
      lines.push(`- ${label(model, models.length === 1)}: ${who} ${reading}; ${crossed}.`);
    }
  }
  return lines;
}

function distanceBlock(model: PersonasModelResult, single: boolean): string {
  const d = model.distances;
  const named = (list: readonly { a: string; b: string }[]) =>
    list.length === 0 ? 'none' : list.map(pairName).join(', ');
  const summary =
    `${label(model, single)}: ${d.movedPairs} of ${d.pairs.length} pairs change rank between the two rankings, ` +
    `Spearman ρ = ${num(d.spearman, 2)}. Prompts differ but answers converge: ${named(d.converging)}. ` +
    `Prompts close but answers apart: ${named(d.diverging)}.`;
  const rows = [...d.pairs]
    .sort((x, y) => x.promptRank - y.promptRank)
    .map((p) => [
      pairName(p),
      num(p.promptDistance, 2),
      num(p.answerDistance, 2),
      `${trimmed(p.promptRank, 1)} → ${p.answerRank === null ? '–' : trimmed(p.answerRank, 1)}`,
    ]);
  return `${summary}\n\n${details(
    `${plainLabel(model, single)}: every pair (rank 1 = most distant)`,
    table(['pair', 'prompt distance', 'answer distance', 'rank prompts → answers'], rows, [
      'l',
      'r',
      'r',
      'c',
    ]),
    [model.model],
  )}`;
}

function matricesBlock(
  assistants: readonly PersonasAssistant[],
  model: PersonasModelResult,
  single: boolean,
): string {
  const names = assistants.map((a) => escapeText(a.name));
  const hasUnattributed = model.unattributed.some((n) => n > 0);
  const confusion = table(
    ['true ↓ / attributed →', ...names, ...(hasUnattributed ? ['none'] : [])],
    model.confusion.map((row, i) => [
      names[i] ?? '',
      ...row.map((n, j) => (i === j ? `**${n}**` : String(n))),
      ...(hasUnattributed ? [String(model.unattributed[i] ?? 0)] : []),
    ]),
    ['l', ...names.map(() => 'r' as const), ...(hasUnattributed ? ['r' as const] : [])],
  );
  const overlap = table(
    ['', ...names],
    model.vocabularyOverlap.map((row, i) => [names[i] ?? '', ...row.map((v) => num(v, 2))]),
    ['l', ...names.map(() => 'r' as const)],
  );
  return details(
    `${plainLabel(model, single)}: confusion matrix and vocabulary overlap`,
    `Confusion matrix (rows: true author, columns: attributed author):\n\n${confusion}\n\n` +
      `Naive measure, for contrast: Jaccard overlap of the assistants' vocabularies. It ranks pairs ` +
      `but has no reference value to decide from.\n\n${overlap}`,
    [model.model],
  );
}
