/**
 * The speed check's part of report.html: per item (a check's unit of work), each model's
 * median decode rate and answer length, read from the records of every check as they arrive.
 * Pure; the table and the chart's points are bounded whatever the run's size.
 */
import { quantile } from '../../stats/quantile.js';
import { trimmed } from '../../text/format.js';
import type { CheckFold, CheckPageInput } from '../types.js';
import { measure } from './measure.js';
import type { SpeedPage } from './page/types.js';
import type { SpeedSection } from './section.js';
import type { SpeedConfig } from './settings.js';

/** Items in the table; the rest are counted. */
export const ITEM_ROWS = 50;
/** Items drawn in the chart: enough to see the spread, few enough for any page. */
export const CHART_POINTS = 2_000;

interface ItemSamples {
  /** Decode tokens/s of each timed answer. */
  rates: number[];
  /** Output tokens of each answer, timed or not. */
  tokens: number[];
}

/** Per item (check and unit key), per model: its answers' figures. */
export type SpeedCollected = Map<string, Map<string, ItemSamples>>;

export const speedCollect: CheckFold<unknown, SpeedCollected, SpeedCollected, SpeedConfig> = {
  start: () => new Map(),
  add: (items, record) => {
    if (record.kind !== 'call') return;
    const measured = measure(record);
    if (measured.kind !== 'timed' && measured.kind !== 'untimed') return;
    const item = `${record.check} · ${record.key}`;
    let models = items.get(item);
    if (!models) {
      models = new Map();
      items.set(item, models);
    }
    let samples = models.get(record.model);
    if (!samples) {
      samples = { rates: [], tokens: [] };
      models.set(record.model, samples);
    }
    const tokens =
      measured.kind === 'timed' ? measured.figures.outputTokens : measured.outputTokens;
    if (tokens !== null) samples.tokens.push(tokens);
    if (measured.kind === 'timed' && measured.figures.decodeNs !== null) {
      samples.rates.push(1e9 / measured.figures.decodeNs);
    }
  },
  finish: (items) => items,
};

const median = (values: readonly number[]): number | null =>
  values.length === 0 ? null : quantile(values, 0.5);

/** A tenth of a token per second is finer than any chart shows, and keeps the page small. */
const tenth = (v: number) => Math.round(v * 10) / 10;

const shown = (v: number | null, digits: number) => (v === null ? '–' : trimmed(v, digits));

interface ItemRow {
  item: string;
  rates: (number | null)[];
  tokens: (number | null)[];
  /** Candidate ÷ baseline decode time per token; null without both rates. */
  ratio: number | null;
}

export function speedPage(
  input: CheckPageInput<unknown, SpeedSection, SpeedConfig, SpeedCollected>,
): SpeedPage {
  const models = input.section.models.map((m) => m.model);
  const rows: ItemRow[] = [...input.collected].map(([item, byModel]) => {
    const rates = models.map((m) => median(byModel.get(m)?.rates ?? []));
    const tokens = models.map((m) => median(byModel.get(m)?.tokens ?? []));
    const [base, cand] = rates;
    const ratio = models.length === 2 && base && cand ? base / cand : null;
    return { item, rates, tokens, ratio };
  });
  // The most slowed items first; items without a ratio after them, in log order.
  rows.sort((a, b) => (b.ratio ?? -1) - (a.ratio ?? -1));
  const paired = rows.filter((r) => r.ratio !== null);
  const columns = [
    'item',
    ...models.map((m) => `${m} decode tokens/s`),
    ...(models.length === 2 ? ['decode time per token, candidate ÷ baseline'] : []),
    ...models.map((m) => `${m} output tokens`),
  ];
  const notes: string[] = [];
  if (models.length === 2 && paired.length < rows.length) {
    notes.push(
      `${rows.length - paired.length} items without a decode rate under both models are listed after the others.`,
    );
  }
  if (paired.length > CHART_POINTS) {
    notes.push(`The chart draws the ${CHART_POINTS} most slowed of ${paired.length} items.`);
  }
  return {
    check: 'speed',
    models,
    items: {
      columns,
      rows: rows
        .slice(0, ITEM_ROWS)
        .map((r) => [
          r.item,
          ...r.rates.map((v) => shown(v, 1)),
          ...(models.length === 2 ? [r.ratio === null ? '–' : `×${trimmed(r.ratio, 2)}`] : []),
          ...r.tokens.map((v) => shown(v, 0)),
        ]),
    },
    moreItems: Math.max(0, rows.length - ITEM_ROWS),
    points: paired
      .slice(0, CHART_POINTS)
      .map((r) => [tenth(r.rates[0] as number), tenth(r.rates[1] as number)]),
    notes,
  };
}
