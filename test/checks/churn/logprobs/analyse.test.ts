/**
 * Analysis, gate and summary of the logprobs estimator on hand-written records: nine items whose
 * p(correct) per model is given, so every count and mean is checked by hand.
 */
import { CHECKS } from '../../../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import { analyseChurnLogprobs } from '../../../../src/checks/churn/analyseLogprobs.js';
import { gateChurn } from '../../../../src/checks/churn/gate.js';
import type { ChoiceItem } from '../../../../src/checks/churn/items.js';
import type { ChurnSettings } from '../../../../src/checks/churn/settings.js';
import { headlineOf } from '../../../../src/checks/list.js';
import { churnCharts } from '../../../../src/checks/churn/report/charts.js';
import { renderChurnSection } from '../../../../src/checks/churn/report/markdown.js';
import { countedRecords, type SampleRecord } from '../../../../src/sampleLog/index.js';
import { record, settings, syntheticItems } from '../simulate.js';
import type { ChurnCallRecord } from '../../../../src/checks/churn/records.js';

function exactRecord(
  model: string,
  item: ChoiceItem,
  pCorrect: number | null,
  overrides: Partial<ChurnCallRecord> = {},
): ChurnCallRecord {
  const measured = pCorrect !== null;
  return {
    ...record(model, item, 'stochastic', 0, measured ? item.answer : null),
    key: `${item.id}#exact`,
    mode: 'exact',
    options: { temperature: 0, seed: 42, num_ctx: 4096, num_predict: 32, think: false },
    estimator: 'embedded-logits',
    estimate_temperature: 0.7,
    ...(measured ? { p_correct: pCorrect, correct: pCorrect > 0.5 } : {}),
    ...overrides,
  };
}

const items = syntheticItems({ law: 4, physics: 4, history: 1 });
// Δp: law −0.4, −0.25, −0.2, −0.05; physics +0.4, +0.4, +0.12, +0.3; history not measured
// for the candidate. 0.5 − 0.7 is −0.19999999999999996 in floating point: it must still
// count as reaching min-effect 0.2.
const before = [0.9, 0.8, 0.7, 0.5, 0.2, 0.3, 0.5, 0.6, 0.5];
const after = [0.5, 0.55, 0.5, 0.45, 0.6, 0.7, 0.62, 0.9, null];

function records(): SampleRecord[] {
  return items.flatMap((item, i) => [
    exactRecord('base', item, before[i] as number),
    exactRecord('cand', item, after[i] ?? null),
  ]);
}

const chosen: ChurnSettings = settings({ estimator: 'logprobs' });

/** The analysis of a log: the records that count, as the log reader hands them over. */
function analyse(list: readonly SampleRecord[], candidate: string | null = 'cand') {
  return analyseChurnLogprobs({
    records: countedRecords(list).records,
    items,
    settings: chosen,
    baseline: 'base',
    candidate,
  });
}

describe('logprobs estimator analysis', () => {
  const section = analyse(records());
  const c = section.comparison;

  it('takes accuracy as the mean p(correct) and Δp per item', () => {
    expect(section).toMatchObject({ estimator: 'logprobs', method: 'effect', minEffect: 0.2 });
    expect(section.itemCounts).toEqual({ total: 9, measured: 8, unmeasured: 1 });
    // (0.9 + 0.8 + 0.7 + 0.5 + 0.2 + 0.3 + 0.5 + 0.6 + 0.5) / 9 = 5 / 9.
    expect(section.baseline.accuracy.mean).toBeCloseTo(5 / 9, 12);
    // (0.5 + 0.55 + 0.5 + 0.45 + 0.6 + 0.7 + 0.62 + 0.9) / 8 = 4.82 / 8 = 0.6025.
    expect(section.candidate?.accuracy.mean).toBeCloseTo(0.6025, 12);
    expect(section.candidate?.requests).toEqual({
      total: 9,
      ok: 8,
      invalid: 1,
      timeout: 0,
      error: 0,
    });
    expect(section.candidate?.sources).toEqual(['embedded-logits']);
    // Paired over the 8 items measured twice: (−0.9 + 1.22) / 8 = 0.04.
    expect(c?.delta.mean).toBeCloseTo(0.04, 12);
    expect(c?.delta.n).toBe(8);
    expect(c?.items.map((r) => r.effect)).toEqual([
      'deteriorated',
      'deteriorated',
      'deteriorated',
      'unchanged',
      'improved',
      'improved',
      'unchanged',
      'improved',
      'unmeasured',
    ]);
    expect(c?.items[0]?.delta).toBeCloseTo(-0.4, 12);
  });

  it('counts items beyond min-effect like a method, with the distribution of |Δp|', () => {
    const e = c?.effect;
    expect(e).toMatchObject({ improved: 3, deteriorated: 3, net: 0 });
    expect(e?.all.base).toBe(9);
    expect(e?.measured.base).toBe(8);
    expect(e?.churnRate).toBeCloseTo(6 / 9, 12);
    // Changed |Δp|: 0.2, 0.25, 0.3, 0.4, 0.4, 0.4 → median (0.3 + 0.4) / 2.
    expect(e?.medianAbsDelta).toBeCloseTo(0.35, 12);
    // 3 improved of the 4 items with Δp > 0.
    expect(e?.breadthRatio).toBe(0.75);
    expect(e?.beyond).toEqual([
      { threshold: 0.05, items: 8 },
      { threshold: 0.1, items: 7 },
      { threshold: 0.2, items: 6 },
      { threshold: 0.3, items: 4 },
      { threshold: 0.5, items: 0 },
    ]);
  });

  it('names the domain that lost at least max-domain-loss, a reversal only against a significant rise', () => {
    // The overall +4 points has a t interval over 8 items that holds 0: no reversal.
    expect(c?.overallDirection).toBeNull();
    expect(c?.reversals).toEqual([]);
    const law = c?.domains.find((d) => d.domain === 'law');
    expect(law).toMatchObject({
      items: 4,
      improved: 0,
      deteriorated: 3,
      net: -3,
      loss: true,
      reversal: false,
      test: null,
    });
    // (0.5 + 0.55 + 0.5 + 0.45) / 4 − (0.9 + 0.8 + 0.7 + 0.5) / 4 = 0.5 − 0.725.
    expect(law?.delta).toBeCloseTo(-0.225, 12);
    expect(c?.domains.find((d) => d.domain === 'history')).toMatchObject({
      candidateAccuracy: null,
      delta: null,
      reversal: false,
    });
  });

  it('gates on the effect-size counts and says they are', () => {
    const findings = gateChurn(section, chosen);
    expect(findings.find((f) => f.rule === 'max-deteriorated')).toMatchObject({
      severity: 'fail',
      message:
        'too many items got worse: 3 items lost at least 20 points of p(correct) (effect-size count, logprobs estimator: no sampling noise to test against; limit 5% of 9 = 0.5)',
    });
    expect(findings.find((f) => f.rule === 'domain-loss')).toMatchObject({
      severity: 'fail',
      message:
        'law: accuracy fell 22.5 points (mean of p(correct) over 4 items, no sampling noise; 3 items lost and 0 gained at least 20 points), at or above the limit of 5 points',
    });
    // One invalid answer of 9 is 11.1%, above the 10% default.
    expect(findings.find((f) => f.rule === 'invalid-answers')?.message).toBe(
      'cand: 11.1% of churn answers were invalid (limit 10%); no answer letter could be read: check think and churn.top-logprobs',
    );
    // Items counted from 45 points and domains failing from 25: law's 22.5 points pass.
    const wider = settings({
      estimator: 'logprobs',
      minEffect: 0.45,
      gate: { ...chosen.gate, maxDomainLoss: 25 },
    });
    const relaxed = analyseChurnLogprobs({
      records: records(),
      items,
      settings: wider,
      baseline: 'base',
      candidate: 'cand',
    });
    expect(relaxed.comparison?.effect).toMatchObject({ improved: 0, deteriorated: 0 });
    expect(gateChurn(relaxed, wider).filter((f) => f.severity === 'fail')).toEqual([]);
  });

  it('gives the headline numbers of the action outputs', () => {
    const headline = headlineOf(CHECKS, { churn: section });
    expect(headline.churnRate).toBeCloseTo(6 / 9, 12);
    expect(headline.deteriorated).toBe(3);
    expect(headline.reversals).toEqual([]);
  });

  it('renders its own method: no Fisher, reliability or null-calibration columns', () => {
    const text = renderChurnSection(section);
    expect(text).toContain('### churn — item-level change, logprobs estimator');
    expect(text).toContain(
      'Improved **3**, deteriorated **3**: items whose p(correct) moved by at least 20 points (effect-size counts).',
    );
    expect(text).toContain('**Domains that lost accuracy:** law (−22.5 pts).');
    expect(text).toContain('|Δp| ≥ 0.05: 8, |Δp| ≥ 0.1: 7, |Δp| ≥ 0.2: 6');
    expect(text).toContain('llama.cpp logits, in process');
    for (const absent of ['Fisher', 'r_xx', 'Null calibration', 'expected (null)', 'RCI']) {
      expect(text).not.toContain(absent);
    }
    const [chart] = churnCharts(section);
    expect(chart?.title).toBe(
      'Change by domain: items changed by 20+ points of p(correct), and Δ accuracy',
    );
    expect(chart?.svg).toContain('law (loss)');
  });
});

describe('logprobs estimator records', () => {
  it('leaves aside records for another temperature and sampled records, and says so', () => {
    const law0 = items[0] as ChoiceItem;
    const list = [
      ...records(),
      exactRecord('cand', law0, 0.99, { estimate_temperature: 1 }),
      record('base', law0, 'stochastic', 3, 'A'),
    ];
    const section = analyse(list);
    expect(section.comparison?.items[0]?.p).toEqual([0.9, 0.5]);
    expect(section.warnings).toEqual([
      '1 logprobs records hold probabilities for another temperature than churn.temperature 0.7 and are left aside; run again to measure at 0.7',
      '1 records of the sampled estimator are in the log; with churn.estimator: logprobs they are left aside',
    ]);
  });

  it('keeps a measurement when a later attempt of the same item failed', () => {
    const law0 = items[0] as ChoiceItem;
    const failed = exactRecord('cand', law0, null, { status: 'error', reason: 'busy' });
    const section = analyse([...records(), failed]);
    expect(section.comparison?.items[0]?.p).toEqual([0.9, 0.5]);
  });

  it('compares a model with itself as no change, and one model alone without a comparison', () => {
    const same = analyse(records(), 'base');
    expect(same.comparison?.effect).toMatchObject({ improved: 0, deteriorated: 0 });
    expect(same.comparison?.delta.mean).toBe(0);
    const alone = analyse(records(), null);
    expect(alone.comparison).toBeNull();
    expect(alone.itemCounts).toEqual({ total: 9, measured: 9, unmeasured: 0 });
    expect(renderChurnSection(alone)).toContain('Single-model run: no comparison.');
  });
});
