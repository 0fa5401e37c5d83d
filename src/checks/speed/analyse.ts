/**
 * The speed analysis as a fold over every check's call records, in log order: per model the
 * spread of each figure, and per item (a check's unit key) the samples' per-token times and
 * output tokens with their position in the log, which stands for the time they were measured.
 * The paired comparison and the drift correction run once the log is read.
 */

import { isCall } from '../../sampleLog/schema.js';
import { quantile } from '../../stats/quantile.js';
import { type CheckContext, type CheckFold, checkFalseAlarmBudget } from '../types.js';
import { type AnswerFigures, measure } from './measure.js';
import { compareFigure, compareTokens, type Timed } from './paired.js';
import type { SpeedComparison, SpeedModelFigures, SpeedSection, Spread } from './section.js';
import type { SpeedConfig } from './settings.js';

/** The statistical rules the check's false-alarm share is split between. */
export const TESTED_RULES = 3;

interface ModelState {
  answers: AnswerFigures[];
  /** Distinct (size, size_vram) pairs its records carry: one per series, most often. */
  residencies: Map<string, { size: number; vram: number }>;
  /** Per item: its samples' figures with the position (record ordinal) each was measured at. */
  items: Map<string, { figures: AnswerFigures; position: number }[]>;
  /** Per item: output tokens of answers without timings (verbosity still compares). */
  untimedTokens: Map<string, number[]>;
}

interface SpeedState {
  ctx: CheckContext<SpeedConfig>;
  /** The log's length up to its last call: positions over it are shares of the run. */
  span: number;
  untimed: number;
  excluded: number;
  models: Map<string, ModelState>;
}

export const speedFold: CheckFold<unknown, SpeedSection, SpeedState, SpeedConfig> = {
  start: (_definitions, ctx) => {
    const { baseline, candidate } = ctx.models;
    const models = new Map<string, ModelState>();
    for (const model of candidate && candidate !== baseline ? [baseline, candidate] : [baseline]) {
      models.set(model, {
        answers: [],
        residencies: new Map(),
        items: new Map(),
        untimedTokens: new Map(),
      });
    }
    return { ctx, span: 0, untimed: 0, excluded: 0, models };
  },
  add: (state, record, position) => {
    if (!isCall(record)) return;
    state.span = Math.max(state.span, position + 1);
    const model = state.models.get(record.model);
    if (!model) return;
    const r = record.residency;
    // GPU memory larger than the whole model is not a residency; it is left out.
    if (r && r.size > 0 && r.size_vram <= r.size) {
      model.residencies.set(`${r.size}/${r.size_vram}`, { size: r.size, vram: r.size_vram });
    }
    const measured = measure(record);
    const item = `${record.check}\u0000${record.key}`;
    if (measured.kind === 'excluded') state.excluded++;
    if (measured.kind === 'untimed') {
      state.untimed++;
      if (measured.outputTokens !== null) push(model.untimedTokens, item, measured.outputTokens);
    }
    if (measured.kind !== 'timed') return;
    model.answers.push(measured.figures);
    push(model.items, item, { figures: measured.figures, position });
  },
  finish: (state) => finishSection(state),
};

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function spread(values: readonly (number | null)[]): Spread {
  const known = values.filter((v): v is number => v !== null);
  if (known.length === 0) return { n: 0, median: null, p90: null, p99: null };
  return {
    n: known.length,
    median: quantile(known, 0.5),
    p90: quantile(known, 0.9),
    p99: quantile(known, 0.99),
  };
}

function modelFigures(model: string, state: ModelState): SpeedModelFigures {
  const a = state.answers;
  return {
    model,
    timed: a.length,
    decodeTokensPerSecond: spread(a.map((f) => (f.decodeNs ? 1e9 / f.decodeNs : null))),
    promptTokensPerSecond: spread(a.map((f) => (f.promptNs ? 1e9 / f.promptNs : null))),
    firstTokenMs: spread(a.map((f) => f.firstTokenMs)),
    outputTokens: spread(a.map((f) => f.outputTokens)),
    wallMs: spread(a.map((f) => f.wallMs)),
    residency: residency([...state.residencies.values()]),
  };
}

const MIB = 2 ** 20;

function residency(
  seen: readonly { size: number; vram: number }[],
): SpeedModelFigures['residency'] {
  if (seen.length === 0) return null;
  return {
    vramMib: Math.max(...seen.map((s) => s.vram)) / MIB,
    offloadedShare: Math.max(...seen.map((s) => 1 - s.vram / s.size)),
    readings: seen.length,
  };
}

/** Per item, one figure's samples as (log value, share of the run) pairs. */
function timedItems(
  state: ModelState,
  total: number,
  pick: (f: AnswerFigures) => number | null,
): Map<string, Timed[]> {
  const items = new Map<string, Timed[]>();
  for (const [item, samples] of state.items) {
    const timed: Timed[] = [];
    for (const { figures, position } of samples) {
      const value = pick(figures);
      if (value !== null && value > 0) timed.push({ y: Math.log(value), t: position / total });
    }
    if (timed.length > 0) items.set(item, timed);
  }
  return items;
}

function tokenItems(state: ModelState): Map<string, number[]> {
  const items = new Map<string, number[]>();
  for (const [item, samples] of state.items) {
    for (const { figures } of samples) {
      if (figures.outputTokens !== null) push(items, item, figures.outputTokens);
    }
  }
  for (const [item, tokens] of state.untimedTokens) for (const n of tokens) push(items, item, n);
  return items;
}

function finishSection(state: SpeedState): SpeedSection {
  const models = [...state.models].map(([model, s]) => modelFigures(model, s));
  const timed = models.reduce((sum, m) => sum + m.timed, 0);
  const notice =
    timed === 0
      ? state.untimed > 0
        ? 'no timings in this log: its records carry no server timings (written before they were kept, or by a server that gives none); decode and prompt rates are not compared'
        : 'no timed answer in this log: nothing to compare'
      : null;
  const [baseline, candidate] = [...state.models.values()];
  let comparison: SpeedComparison | null = null;
  if (baseline && candidate) {
    const alpha = checkFalseAlarmBudget(state.ctx.config) / TESTED_RULES;
    const total = Math.max(1, state.span);
    const decode = compareFigure(
      timedItems(baseline, total, (f) => f.decodeNs),
      timedItems(candidate, total, (f) => f.decodeNs),
      alpha,
    );
    const prompt = compareFigure(
      timedItems(baseline, total, (f) => f.promptNs),
      timedItems(candidate, total, (f) => f.promptNs),
      alpha,
    );
    const verbosity = compareTokens(tokenItems(baseline), tokenItems(candidate), alpha);
    if (decode.ratio || prompt.ratio || verbosity) {
      comparison = {
        decode: decode.ratio,
        prompt: prompt.ratio,
        verbosity,
        decodeDrift: decode.drift,
        promptDrift: prompt.drift,
      };
    }
  }
  return {
    check: 'speed',
    notice,
    untimed: state.untimed,
    excluded: state.excluded,
    models,
    comparison,
  };
}
