/**
 * `label`: the answer, normalised (trimmed, lower-cased, a final full stop and wrapping quotes,
 * backticks, asterisks or brackets removed, inner spaces collapsed), is one of `labels` and
 * equals `expected`. An answer that is none of the labels is wrong, and counted apart as
 * off-label: a model that stops answering with a label is another failure than a wrong label.
 * Grading is linear in the answer's length (the normalisation scans it a fixed number of times).
 */
import { texts } from './options.js';
import { capitalised, normaliseLabel, quoted } from './text.js';
import type { GraderKind, GraderSpec } from './types.js';

export interface LabelSpec extends GraderSpec {
  type: 'label';
  labels: string[];
  expected: string;
}

const OPTIONS = { labels: texts('labels') };

export const label: GraderKind<LabelSpec, typeof OPTIONS> = {
  type: 'label',
  options: OPTIONS,
  countsOffLabel: true,
  build(options, expected) {
    const raw = options.texts('labels');
    if (raw === null) {
      if (options.ok) options.problem('needs `labels`, the list of allowed answers');
      return null;
    }
    const labels = raw.map(normaliseLabel);
    const seen = new Set<string>();
    const repeated = labels.find((one) => seen.size === seen.add(one).size);
    if (labels.length < 2) options.problem('labels must list at least 2 answers');
    if (repeated !== undefined) options.problem(`label ${quoted(repeated)} is listed twice`);
    const wanted =
      typeof expected === 'string' || typeof expected === 'number' ? String(expected) : null;
    if (wanted === null) {
      options.problem('needs `expected`, one of the labels');
    } else if (!labels.includes(normaliseLabel(wanted))) {
      options.problem(`expected ${quoted(wanted)} is not one of the labels (${raw.join(', ')})`);
    }
    if (!options.ok || wanted === null) return null;
    return { type: 'label', labels, expected: normaliseLabel(wanted) };
  },
  grade(spec, answer) {
    const read = normaliseLabel(answer);
    if (!spec.labels.includes(read)) {
      return { correct: false, reading: `off-label ${quoted(read)}`, offLabel: true };
    }
    return { correct: read === spec.expected, reading: read };
  },
  describe(spec) {
    return `label (${spec.labels.length} labels)`;
  },
  explain(spec) {
    return [
      `the answer is the label ${JSON.stringify(spec.expected)}, of ${spec.labels.map((l) => JSON.stringify(l)).join(', ')}`,
      'normalised: case, spaces, wrapping quotes or brackets and a final full stop ignored',
      'an answer none of the labels is wrong and counted off-label',
    ];
  },
  simulate: {
    right: (spec, _expected, rng) => capitalised(spec.expected, rng),
    wrong(spec, rng) {
      const others = spec.labels.filter((one) => one !== spec.expected);
      return others.length === 0 ? null : (others[rng.int(others.length)] as string);
    },
    malformed: () => 'It is hard to say without more context.',
  },
};
