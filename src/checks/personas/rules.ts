/**
 * The personas gate rules as test cards: how often each fails two identical models, and the
 * smallest change it catches at this run's settings (probes × samples, the baseline's own
 * recognition and crossing levels).
 */
import { quantile } from '../../stats/quantile.js';
import { wilsonInterval } from '../../stats/wilson.js';
import type { GateRuleCard } from '../types.js';
import { smallestMerge, smallestRecognitionDrop, TARGET_POWER } from './power.js';
import type { PersonasLevels, PersonasModelResult, PersonasSection } from './section.js';
import type { PersonasSettings } from './settings.js';
import { personasLevels, testedPairs } from './tests.js';
import { percent, plural } from '../../text/format.js';

/** Runs failed and runs simulated without change, per rule. */
type Measured = Record<'min-recognition' | 'merged-pair', [number, number]>;

/**
 * Measured with the harness (bench/oc/personas.ts, bench/oc/personasOnly.ts): answers generated
 * from known vocabularies, pushed through analyse and gate at default settings, over the
 * no-change configurations of docs/gate-validity-personas.md: five distinct assistants, with
 * and without probe words (40 runs each), and look-alike catalogues, four assistants of which
 * two answer from one voice (320 held-out runs, and 40 each at two other recognisability
 * levels, 2 samples, sentences, answers alike, no probe words). Rule → [runs failed, runs].
 */
export const SIMULATED_NO_CHANGE: Measured = {
  'min-recognition': [1, 640],
  'merged-pair': [4, 640],
};

/**
 * Nightly mode (Fisher and Bonferroni against the previous report's counts, shrunk by the
 * probes' dispersion), measured night against night the same way (bench/oc/personas.ts,
 * nightlyCharacteristics): five distinct assistants with and without probe words (240 runs
 * each), a look-alike catalogue in words and in sentences (100 each).
 */
export const SIMULATED_NIGHTLY_NO_CHANGE: Measured = {
  'min-recognition': [3, 680],
  'merged-pair': [5, 680],
};

export function personasRules(
  section: PersonasSection,
  settings: Pick<PersonasSettings, 'gate' | 'samples'>,
  budget: number,
): GateRuleCard[] {
  const levels = personasLevels(section.catalogue.assistants, settings.gate, budget);
  const samples = section.samples ?? settings.samples;
  // One model: nightly mode compares with the previous report's counts (Fisher, Bonferroni).
  const nightly =
    section.comparison?.test.method === 'fisher-bonferroni' ||
    (section.comparison === null && section.models.length === 1);
  const method = nightly
    ? "one-sided Fisher test shrunk by the probes' dispersion, Bonferroni over"
    : "one-sided Fisher statistic shrunk by the probes' dispersion, min-p over";
  const swaps = nightly ? '' : `, calibrated by swapping the two models' answers cell by cell`;
  const measured = nightly ? SIMULATED_NIGHTLY_NO_CHANGE : SIMULATED_NO_CHANGE;
  const basis = (rule: keyof Measured, tests: number, what: string) => {
    const [hits, runs] = measured[rule];
    const { low, high } = wilsonInterval(hits, runs);
    return `${method} ${tests} ${what}${swaps}, only those the baseline told apart can fail; simulated${nightly ? ' night against night' : ''}: ${percent(hits / runs, 1)} [${percent(low, 1)}, ${percent(high, 1)}] in ${runs} no-change runs`;
  };
  const effects = detectableEffects(section, levels, samples);
  return [
    {
      check: 'personas',
      rule: 'min-recognition',
      tests: `an assistant's recognition drops below min-recognition (${percent(levels.minRecognition, 0)}) from baseline to candidate`,
      falseAlarmRate: levels.recognitionAlpha,
      falseAlarmBasis: basis('min-recognition', levels.recognitionTests, 'assistants'),
      detects: effects.recognition,
    },
    {
      check: 'personas',
      rule: 'merged-pair',
      tests: `a pair's answers are taken for each other more often on the candidate (rise ≥ ${percent(levels.minCrossingRise, 0)})`,
      falseAlarmRate: levels.mergeAlpha,
      falseAlarmBasis: basis('merged-pair', levels.pairTests, 'pairs'),
      detects: effects.merge,
    },
  ];
}

/** The smallest change each rule catches at the section's settings, in the reader's words. */
export function detectableEffects(
  section: PersonasSection,
  levels: PersonasLevels,
  samples: number,
): { recognition: string; merge: string } {
  const probes = section.catalogue.probes.length;
  const run: DetectionRun = {
    section,
    baseline: section.models[0] ?? null,
    levels,
    n: probes * samples,
    probes,
    samples,
  };
  return { recognition: recognitionDetects(run), merge: mergeDetects(run) };
}

/** What both rules' detectable effects are computed from: the section at the run's settings. */
interface DetectionRun {
  section: PersonasSection;
  baseline: PersonasModelResult | null;
  levels: PersonasLevels;
  /** Answers per assistant: probes × samples. */
  n: number;
  probes: number;
  samples: number;
}

function settingsText(probes: number, samples: number): string {
  return `at ${probes} probes × ${plural(samples, 'sample')}`;
}

/** The baseline's typical (median) recognition among the tested assistants. */
function typicalRecognition(
  section: PersonasSection,
  baseline: PersonasModelResult,
): number | null {
  const tested = new Set(section.catalogue.assistants.filter((a) => !a.control).map((a) => a.name));
  const shares = baseline.recognition
    .filter((r) => tested.has(r.assistant) && r.shareUpToControls !== null)
    .map((r) => r.shareUpToControls as number);
  return shares.length > 0 ? quantile(shares, 0.5) : null;
}

/** The baseline's typical (median) crossing share among the tested pairs. */
function typicalCrossing(section: PersonasSection, baseline: PersonasModelResult): number | null {
  const index = new Map(section.catalogue.assistants.map((a, i) => [a.name, i]));
  const answersOf = (i: number) =>
    (baseline.confusion[i] ?? []).reduce((s, v) => s + v, 0) + (baseline.unattributed[i] ?? 0);
  const shares = testedPairs(section.catalogue.assistants).flatMap(([a, b]) => {
    const i = index.get(a.name) ?? 0;
    const j = index.get(b.name) ?? 0;
    const answers = answersOf(i) + answersOf(j);
    if (answers === 0) return [];
    return [((baseline.confusion[i]?.[j] ?? 0) + (baseline.confusion[j]?.[i] ?? 0)) / answers];
  });
  return shares.length > 0 ? quantile(shares, 0.5) : null;
}

function recognitionDetects(run: DetectionRun): string {
  const { section, baseline, levels, n, probes, samples } = run;
  const p0 = baseline ? typicalRecognition(section, baseline) : null;
  if (p0 === null || levels.recognitionTests === 0) return 'no baseline recognition measured';
  const alpha = levels.recognitionAlpha / levels.recognitionTests;
  const p1 = smallestRecognitionDrop(n, n, p0, alpha, levels.minRecognition);
  const lead = `${settingsText(probes, samples)} (${n} answers per assistant), an assistant recognised in ${percent(p0, 0)} by the baseline`;
  if (p1 === null) {
    return `${lead} is not caught in ${percent(TARGET_POWER, 0)} of runs even at 0%: its baseline is too near min-recognition; raise samples`;
  }
  return `${lead} is caught (${percent(TARGET_POWER, 0)} of runs) when the candidate recognises it in ≤ ${percent(p1, 0)}`;
}

function mergeDetects(run: DetectionRun): string {
  const { section, baseline, levels, n, probes, samples } = run;
  const p0 = baseline ? typicalCrossing(section, baseline) : null;
  if (p0 === null || levels.pairTests === 0) return 'no baseline crossing measured';
  const alpha = levels.mergeAlpha / levels.pairTests;
  const p1 = smallestMerge(2 * n, 2 * n, p0, alpha, levels.minCrossingRise);
  const lead = `${settingsText(probes, samples)} (${2 * n} answers per pair), a pair crossing in ${percent(p0, 0)} of its answers on the baseline`;
  if (p1 === null)
    return `${lead} is not caught in ${percent(TARGET_POWER, 0)} of runs: raise samples`;
  return `${lead} merges detectably (${percent(TARGET_POWER, 0)} of runs) when ≥ ${percent(p1, 0)} of its answers cross over on the candidate`;
}
