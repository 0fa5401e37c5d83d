/**
 * Gate rules of the personas check, as sentences a reader acts on:
 * - fail: an assistant's recognition drops significantly (one-sided Fisher test at its share
 *   of the budget) and crosses min-recognition: at or above on the baseline, below on the
 *   candidate;
 * - fail: the answers of a pair cross significantly more on the candidate than on the
 *   baseline, by at least min-crossing-rise (the candidate merges the pair);
 * - warn: overall accuracy drops by more than max-accuracy-drop;
 * - warn: a paraphrase control is not confused with its twin (the instrument, not the model);
 * - inconclusive: too many timeouts, too many empty or invalid answers (invalidAnswers.ts), or
 *   no answer to analyse.
 * Controls never fail the gate: a pair made of a control and its twin is never a merged pair,
 * a control's own recognition is not gated, and its twin counts answers given to its controls
 * as recognised. An inverse-posture control that changes sides is reported (info).
 */
import { exceeds } from '../exceeds.js';
import type { GateFinding } from '../types.js';
import { compareModels } from './comparison.js';
import { invalidAnswerFindings } from './invalidAnswers.js';
import type {
  PersonasComparison,
  PersonasLevels,
  PersonasModelResult,
  PersonasSection,
} from './section.js';
import type { PersonasSettings } from './settings.js';
import { personasLevels } from './tests.js';
import { num, percent, points, pValue } from '../../text/format.js';

type GateSettings = PersonasSettings['gate'];

export function gatePersonas(
  section: PersonasSection,
  settings: GateSettings,
  /** The check's share of the run's false-alarm budget. */
  budget: number,
  previous?: unknown,
): GateFinding[] {
  const findings: GateFinding[] = [];
  for (const result of section.models) findings.push(...measurementFindings(result, settings));
  findings.push(...invalidAnswerFindings(section, settings.maxInvalidShare));
  const levels = personasLevels(section.catalogue.assistants, settings, budget);
  const comparison = section.comparison ?? comparisonWithPrevious(section, previous, levels);
  if (!comparison) return findings;
  return [
    ...findings,
    ...swapFindings(comparison),
    ...recognitionFindings(comparison),
    ...mergeFindings(comparison),
    ...controlChangeFindings(comparison),
    ...accuracyFindings(comparison, settings),
  ];
}

function measurementFindings(result: PersonasModelResult, settings: GateSettings): GateFinding[] {
  const findings: GateFinding[] = [];
  const tally = result.answers;
  const share = tally.expected > 0 ? tally.timeout / tally.expected : 0;
  if (share > settings.maxTimeoutShare) {
    findings.push({
      check: 'personas',
      rule: 'timeouts',
      severity: 'inconclusive',
      message: `${result.model}: ${tally.timeout} of ${tally.expected} persona answers timed out (${percent(share)}, more than the ${percent(settings.maxTimeoutShare)} allowed); the attribution is not trusted.`,
      values: { model: result.model, timeouts: tally.timeout, expected: tally.expected },
    });
  }
  if (result.attributed === 0) {
    findings.push({
      check: 'personas',
      rule: 'no-answers',
      severity: 'inconclusive',
      message: `${result.model}: no valid persona answer to analyse (${tally.invalid} invalid, ${tally.timeout} timed out, ${tally.error} failed, ${tally.expected - tally.found} missing).`,
      values: { model: result.model },
    });
  }
  for (const control of result.controls) {
    if (control.verdict !== 'instrument-problem') continue;
    const { control: name, twin, crossings, answers } = control;
    findings.push({
      check: 'personas',
      rule: 'control-not-confused',
      severity: 'warn',
      message: `${result.model}: the paraphrase control ${name} was not confused with ${twin} (${crossings} of ${answers} answers crossed). The instrument missed a redundancy planted on purpose, so it may miss others; this questions the measurement, not the model.`,
      values: { model: result.model, control: name, twin, crossings, answers },
    });
  }
  return findings;
}

/** Too few swaps for the adjusted p-values to reach the rules' levels. */
function swapFindings({ levels, test }: PersonasComparison): GateFinding[] {
  const level = Math.min(levels.mergeAlpha, levels.recognitionAlpha);
  const smallestP = 1 / (1 + test.swaps);
  if (test.method !== 'swap-permutation' || smallestP <= level) return [];
  const needed = Math.ceil(1 / level);
  return [
    {
      check: 'personas',
      rule: 'too-few-swaps',
      severity: 'warn',
      message: `with ${test.swaps} swaps the smallest adjusted p is ${pValue(smallestP, 4)}, above the rules' level: min-recognition and merged-pair cannot fail. Raise personas.permutations to at least ${needed}.`,
      values: { swaps: test.swaps, needed },
    },
  ];
}

function recognitionFindings(comparison: PersonasComparison): GateFinding[] {
  const { baseline, candidate, levels } = comparison;
  const min = levels.minRecognition;
  return comparison.recognition
    .filter((change) => !change.control && change.dropped)
    .map((change) => {
      const before = change.baselineCounts;
      const after = change.candidateCounts;
      return {
        check: 'personas',
        rule: 'min-recognition',
        severity: 'fail',
        message: `${change.assistant} is recognised in ${after.recognised} of ${after.answers} answers by ${candidate} (${percent(change.candidateGated)}), below the ${percent(min)} required (min-recognition); ${baseline} recognised it in ${before.recognised} of ${before.answers} (${percent(change.baselineGated)}). One-sided Fisher p = ${pValue(change.p)} ≤ ${pValue(levels.recognitionAlpha)}, this assistant's share of the false-alarm budget.`,
        values: {
          assistant: change.assistant,
          baseline: change.baselineGated,
          candidate: change.candidateGated,
          min,
          p: change.p,
          alpha: levels.recognitionAlpha,
        },
      };
    });
}

function mergeFindings(comparison: PersonasComparison): GateFinding[] {
  const { baseline, candidate, levels } = comparison;
  const share = (c: { crossings: number; answers: number }) =>
    c.answers > 0 ? c.crossings / c.answers : null;
  return comparison.newlyMerged.map((pair) => ({
    check: 'personas',
    rule: 'merged-pair',
    severity: 'fail',
    message: `${candidate} merges ${pair.a} and ${pair.b}: ${pair.candidate.crossings} of their ${pair.candidate.answers} answers were taken for the other (${pair.aAsB} of ${pair.a}, ${pair.bAsA} of ${pair.b}; ${percent(share(pair.candidate))}) against ${pair.baseline.crossings} of ${pair.baseline.answers} on ${baseline} (${percent(share(pair.baseline))}). One-sided Fisher p = ${pValue(pair.p)} ≤ ${pValue(levels.mergeAlpha)}, this pair's share of the false-alarm budget; the rise is at least the ${percent(levels.minCrossingRise)} required (min-crossing-rise). Two labels, one assistant.`,
    values: {
      a: pair.a,
      b: pair.b,
      aAsB: pair.aAsB,
      bAsA: pair.bAsA,
      baselineCrossings: pair.baseline.crossings,
      candidateCrossings: pair.candidate.crossings,
      p: pair.p,
      alpha: levels.mergeAlpha,
    },
  }));
}

function controlChangeFindings(comparison: PersonasComparison): GateFinding[] {
  const { baseline, candidate } = comparison;
  return comparison.controlChanges
    .filter((change) => change.kind === 'inverse')
    .map((change) => ({
      check: 'personas',
      rule: 'inverse-control',
      severity: 'info',
      message: `the inverse-posture control ${change.control} is ${sides(change.candidate)} ${change.twin} on ${candidate} but was ${sides(change.baseline)} it on ${baseline}: the candidate ${change.candidate === 'confused' ? 'no longer shows' : 'now shows'} the difference between reacting to a text and explaining. A control never fails the gate.`,
      values: {
        control: change.control,
        twin: change.twin,
        baseline: change.baseline,
        candidate: change.candidate,
      },
    }));
}

function accuracyFindings(comparison: PersonasComparison, settings: GateSettings): GateFinding[] {
  const { baseline, candidate } = comparison;
  const { delta } = comparison.accuracy;
  if (delta === null || !exceeds(-delta, settings.maxAccuracyDrop)) return [];
  return [
    {
      check: 'personas',
      rule: 'accuracy-drop',
      severity: 'warn',
      message: `attribution accuracy drops from ${percent(comparison.accuracy.baseline)} (${baseline}) to ${percent(comparison.accuracy.candidate)} (${candidate}), ${points(delta)}, more than the ${num(settings.maxAccuracyDrop * 100, 1)} pts allowed.`,
      values: {
        baseline: comparison.accuracy.baseline,
        candidate: comparison.accuracy.candidate,
        delta,
        maxDrop: settings.maxAccuracyDrop,
      },
    },
  ];
}

function sides(verdict: string): string {
  return verdict === 'confused' ? 'confused with' : 'told apart from';
}

/**
 * Nightly mode measures one model; the previous report's result for the same catalogue
 * stands in for the baseline. Anything else in `previous` is ignored.
 */
export function comparisonWithPrevious(
  section: PersonasSection,
  previous: unknown,
  levels: PersonasLevels,
): PersonasComparison | null {
  const current = section.models[0];
  if (!current || !isPersonasSection(previous)) return null;
  if (previous.catalogue.sha256 !== section.catalogue.sha256) return null;
  const before = previous.models[previous.models.length - 1];
  if (!before) return null;
  if (!Array.isArray(before.confusion) || !Array.isArray(before.recognition)) return null;
  return compareModels(section.catalogue.assistants, before, current, levels, null);
}

function isPersonasSection(value: unknown): value is PersonasSection {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Partial<PersonasSection>;
  return (
    v.check === 'personas' &&
    Array.isArray(v.models) &&
    typeof v.catalogue === 'object' &&
    v.catalogue !== null &&
    typeof v.catalogue.sha256 === 'string'
  );
}
