/**
 * The `personas` part of report.json: plain JSON, rendered by report/markdown.ts.
 * Assistants are referred to by name; matrices are indexed in catalogue order
 * (`assistants[i].name`), rows = true author, columns = attributed author.
 */
export type ControlKind = 'paraphrase' | 'inverse';

export interface PersonasAssistant {
  name: string;
  /** Set for a control: which assistant it shadows and how. */
  control: { kind: ControlKind; of: string } | null;
}

export interface AnswerTally {
  /** Answers expected: assistants × probes. */
  expected: number;
  /** Answers found in the sample log (the rest were never collected). */
  found: number;
  ok: number;
  invalid: number;
  timeout: number;
  error: number;
}

export interface Recognition {
  assistant: string;
  /** Answers attributed to their true author. */
  recognised: number;
  /** Valid answers of this assistant. */
  answers: number;
  /** recognised / answers; null without answers. */
  share: number | null;
  /**
   * For an assistant shadowed by controls: answers attributed to itself or to one of its
   * declared controls, over its answers. The gate reads this one, because controls never fail
   * the gate: a planted paraphrase is supposed to take the twin's answers, and whether an
   * inverse-posture control does is a question the report answers, not a regression.
   * Equal to `share` for everyone else.
   */
  shareUpToControls: number | null;
}

export interface ConfusedPair {
  a: string;
  b: string;
  /** Answers of a attributed to b. */
  aAsB: number;
  /** Answers of b attributed to a. */
  bAsA: number;
  total: number;
  /** Confused both ways in at least half of each one's answers: two labels, one assistant. */
  merged: boolean;
  /** The pair is a declared paraphrase control and its twin: confusion is expected. */
  expected: boolean;
  /** The pair is a declared control (either kind) and its twin: never a gate failure. */
  control: boolean;
}

export interface ProbeAccuracy {
  probe: number;
  text: string;
  correct: number;
  answers: number;
  accuracy: number | null;
}

export interface PairDistance {
  a: string;
  b: string;
  /** 1 − Jaccard of the two system prompts' word sets. */
  promptDistance: number;
  /** 1 − cosine of the two assistants' answer centroids; null when one has no answers. */
  answerDistance: number | null;
  /** 1 = most distant pair; ties share the mean rank. */
  promptRank: number;
  answerRank: number | null;
}

export interface DistanceComparison {
  pairs: PairDistance[];
  /** Pairs whose rank differs between the two rankings (a tie group counts as its rank range). */
  movedPairs: number;
  /** Spearman ρ between prompt distances and answer distances; null when undefined. */
  spearman: number | null;
  /**
   * Prompts differ (not among the closest third) but answers among the closest third, and on
   * both lists scaled to 0 … 1 the answers sit at least a third closer than the prompts.
   */
  converging: { a: string; b: string }[];
  /** Prompts among the closest third but answers not, by the same margin the other way. */
  diverging: { a: string; b: string }[];
}

export interface ControlOutcome {
  control: string;
  twin: string;
  kind: ControlKind;
  /** Answers crossing between the two (control as twin + twin as control). */
  crossings: number;
  /** Valid answers of the two together. */
  answers: number;
  /** At least half of the pair's answers cross. */
  confused: boolean;
  /**
   * paraphrase: 'as-expected' when confused, 'instrument-problem' when not (the measure
   * missed a redundancy planted on purpose). inverse: 'separated' or 'confused', which is
   * the measure's arbitration of a doubt, not a defect either way.
   */
  verdict: 'as-expected' | 'instrument-problem' | 'separated' | 'confused';
}

export interface Attribution {
  assistant: string;
  probe: number;
  /** Repeat index of the answer (personas.samples). */
  sample: number;
  /** Nearest centroid without this answer; null when every centroid was equally near. */
  attributed: string | null;
  similarity: number | null;
}

export interface PersonasModelResult {
  role: 'baseline' | 'candidate';
  model: string;
  /** Vectors actually used (embed falls back to tfidf when vectors are missing; see notes). */
  vectors: 'tfidf' | 'embed';
  answers: AnswerTally;
  /** Valid answers attributed (denominator of accuracy). */
  attributed: number;
  correct: number;
  accuracy: number | null;
  /** 1 / number of assistants: shown for orientation, not a reference (see permutation). */
  chance: number;
  /**
   * Relabelling within each probe: the accuracies interchangeable assistants reach. Its mean
   * is the reference level (leave-one-out puts interchangeable assistants below chance).
   */
  permutation: {
    runs: number;
    seed: number;
    /** (1 + relabellings scoring ≥ observed) / (1 + runs). */
    p: number | null;
    meanAccuracy: number | null;
  };
  /** confusion[true][attributed], catalogue order. */
  confusion: number[][];
  /** Per true author: answers no centroid was nearer for. */
  unattributed: number[];
  recognition: Recognition[];
  /** Pairs with at least one confusion, most confused first. */
  confusedPairs: ConfusedPair[];
  /** The most confused pair counting both directions, null when nothing is confused. */
  mostConfusedPair: ConfusedPair | null;
  probes: ProbeAccuracy[];
  /** Naive measure for contrast: Jaccard overlap of the assistants' answer vocabularies. */
  vocabularyOverlap: number[][];
  distances: DistanceComparison;
  controls: ControlOutcome[];
  attributions: Attribution[];
  notes: string[];
}

export interface RecognitionChange {
  assistant: string;
  baseline: number | null;
  candidate: number | null;
  /** Gate reading (an assistant shadowed by controls counted up to them). */
  baselineGated: number | null;
  candidateGated: number | null;
  /** Counts behind the gate reading: answers recognised (up to controls) of answers given. */
  baselineCounts: { recognised: number; answers: number };
  candidateCounts: { recognised: number; answers: number };
  /**
   * One-sided Fisher p of a drop (shrunk by the probes' dispersion in the swap test); null for
   * a control or without answers.
   */
  p: number | null;
  /** p adjusted over the assistants tested (see PersonasComparison.test); null when untested. */
  adjusted: number | null;
  /**
   * The baseline told this assistant apart from every other one (each pair separated, see
   * PairChange.separated); when false it is not tested. Absent in reports written before.
   */
  separated?: boolean;
  /** The probes' dispersion φ ≥ 1 the p was shrunk by (swap test); absent otherwise. */
  dispersion?: number;
  /** Significant drop (adjusted p ≤ the rule's level) that crosses min-recognition: fails. */
  dropped: boolean;
  control: boolean;
}

/** One pair of (non-control) assistants, baseline vs candidate: do their answers cross more? */
export interface PairChange {
  a: string;
  b: string;
  /** Answers of a taken for b plus answers of b taken for a, of the two's answers. */
  baseline: { crossings: number; answers: number };
  candidate: { crossings: number; answers: number };
  /** Candidate's a taken for b and b taken for a, for the sentence. */
  aAsB: number;
  bAsA: number;
  /** One-sided Fisher p of a rise in the crossing share (shrunk by the probes' dispersion in the swap test). */
  p: number | null;
  /** p adjusted over the pairs tested (see PersonasComparison.test); null when untested. */
  adjusted: number | null;
  /**
   * The baseline told the pair apart: fewer crossings than answers attributed to their own
   * author. A pair it did not separate is not tested (it has no separation to lose). Absent in
   * reports written before.
   */
  separated?: boolean;
  /** The probes' dispersion φ ≥ 1 the p was shrunk by (swap test); absent otherwise. */
  dispersion?: number;
  /** Significant rise of at least min-crossing-rise: the candidate merges the pair. */
  merged: boolean;
}

export interface PersonasComparison {
  baseline: string;
  candidate: string;
  accuracy: { baseline: number | null; candidate: number | null; delta: number | null };
  /** The levels the tests were run at (the check's share of the false-alarm budget, split). */
  levels: PersonasLevels;
  /**
   * How the p-values of a rule were adjusted over its assistants or pairs. swap-permutation:
   * both models' answers in one vector space, cells swapped between the models (min-p over
   * `swaps` swaps, never below the test's own p; `pairedCells` cells answered by both).
   * fisher-bonferroni: the baseline comes from a previous report (no answers to swap): each p
   * times the number of tests, from each model's own confusion matrix.
   */
  test: { method: 'swap-permutation' | 'fisher-bonferroni'; swaps: number; pairedCells: number };
  recognition: RecognitionChange[];
  /** Every pair of non-control assistants, tested. */
  pairs: PairChange[];
  /** Pairs whose crossings rose significantly, by at least min-crossing-rise. */
  newlyMerged: PairChange[];
  /** Pairs the baseline merged and the candidate separates. */
  newlySeparated: ConfusedPair[];
  /** Controls whose outcome differs between the two models. */
  controlChanges: {
    control: string;
    twin: string;
    kind: ControlKind;
    baseline: ControlOutcome['verdict'];
    candidate: ControlOutcome['verdict'];
  }[];
}

export interface PersonasSection {
  check: 'personas';
  catalogue: {
    file: string;
    /** The first language listed; `languages` holds them all. */
    language: 'en' | 'fr';
    languages: ('en' | 'fr')[];
    assistants: PersonasAssistant[];
    probes: string[];
    /** SHA-256 of the catalogue as loaded (assistants, prompts, probes, stop words). */
    sha256: string;
  };
  /** Vectors asked for in the config. */
  vectors: 'tfidf' | 'embed';
  /** Answers per assistant and probe (personas.samples). */
  samples: number;
  /** Baseline first, then the candidate when there is one. */
  models: PersonasModelResult[];
  comparison: PersonasComparison | null;
  notes: string[];
}

/** Levels of the failing rules, from the check's share of the false-alarm budget. */
export interface PersonasLevels {
  /** The check's share of the run's false-alarm budget. */
  budget: number;
  /** Assistants the recognition rule tests, and the family-wise level of the rule. */
  recognitionTests: number;
  recognitionAlpha: number;
  /** Pairs the merge rule tests, and the family-wise level of the rule. */
  pairTests: number;
  mergeAlpha: number;
  minRecognition: number;
  minCrossingRise: number;
}
