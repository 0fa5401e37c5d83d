/**
 * `label`: the answer, normalised (trimmed, lower-cased, a final full stop and wrapping quotes,
 * backticks, asterisks or brackets removed, inner spaces collapsed), is one of `labels` and
 * equals `expected`. An answer that is none of the labels is wrong, and counted apart as
 * off-label: a model that stops answering with a label is another failure than a wrong label.
 */
import { z } from 'zod';
import { type GraderOptions, texts } from './options.js';
import { normaliseLabel, quoted } from './text.js';
import type { Grade, LabelSpec } from './types.js';

export const LABEL_OPTIONS = { labels: texts('labels'), expected: z.unknown().optional() };

export function buildLabel(
  options: GraderOptions<typeof LABEL_OPTIONS>,
  expected: unknown,
): LabelSpec | null {
  const raw = options.texts('labels');
  if (raw === null) {
    if (options.ok) options.problem('needs `labels`, the list of allowed answers');
    return null;
  }
  const labels = raw.map(normaliseLabel);
  const repeated = labels.find((label, i) => labels.indexOf(label) !== i);
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
}

export function gradeLabel(spec: LabelSpec, answer: string): Grade {
  const read = normaliseLabel(answer);
  if (!spec.labels.includes(read)) {
    return { correct: false, reading: `off-label ${quoted(read)}`, offLabel: true };
  }
  return { correct: read === spec.expected, reading: read };
}

export function describeLabel(spec: LabelSpec): string {
  return `label (${spec.labels.length} labels)`;
}
