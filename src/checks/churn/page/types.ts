/**
 * The churn check's part of report.html's data (plain JSON, built by ../report/page.ts,
 * rendered in the browser by ./part.ts). Types only, importing types only: both sides read them.
 *
 * Generic over the kind of item: a multiple-choice item shows its question, choices and
 * correct letter; an open item its prompt, system prompt, expected answer and grader. Answers
 * are counted per distinct answer: a letter for a multiple-choice item, the answer text for an
 * open one.
 */
import type { PageTable } from '../../../render/page/types.js';

/** The question as the model saw it. Texts may have been shortened to fit the page. */
export type ChurnPageAsk =
  | {
      kind: 'choice';
      question: string;
      choices: string[];
      /** Letter of the correct choice (A = first). */
      answer: string;
    }
  | {
      kind: 'open';
      prompt: string;
      /** Its system prompt: an index in ChurnPage.systems, null without one. */
      system: number | null;
      /** `expected` as the items file writes it: a text as it is, any other value as JSON. */
      expected: string | null;
      grader: ChurnPageGrader;
    };

/** The grader of an open item. */
export interface ChurnPageGrader {
  /** exact, contains, regex, number, json, label, module or all. */
  type: string;
  /** Its name in report.json (`grader` of the item's row): `label (4 labels)`. */
  name: string;
  /** What it checks, one line per option: `the answer contains at least one of: "am", "9:00"`. */
  options: string[];
  /** The graders' version and a hash of its definition (report.json's `graderFingerprint`). */
  fingerprint: string;
  /** Whether it reads labels: its answers none of them are counted off-label. */
  labels: boolean;
}

/**
 * One distinct answer: [the answer (a letter, or an answer text with its white space collapsed,
 * shortened), how many samples gave it, whether it was graded correct (null: not graded), and
 * 1 when it is none of a label grader's labels]. A tuple: a large run has tens of thousands.
 */
export type ChurnPageAnswerCount =
  | [answer: string, count: number, correct: boolean | null]
  | [answer: string, count: number, correct: false, offLabel: 1];

/** One model's answers to one item. */
export interface ChurnPageAnswers {
  /** Stochastic samples by distinct answer, most frequent first. */
  counts: ChurnPageAnswerCount[];
  /** Open items: the distinct answers beyond those in `counts`, with their samples and right ones. */
  others?: { answers: number; samples: number; right: number };
  /** Open items graded by labels: stochastic answers none of the labels (counted wrong). */
  offLabel?: number;
  /** Samples answered but not readable (invalid), and requests that failed (timeout, error). */
  invalid: number;
  failed: number;
  /** The greedy sample; absent without one. */
  greedy?: { answer: string | null; correct: boolean | null; status: string };
  /** Logprobs estimator: probability of each letter. */
  letters?: Record<string, number>;
  /**
   * Answer texts, when the log keeps them (churn.keep-text, open items): a few of each; for an
   * open item report.json carries evidence for, that evidence (`from: 'report'`).
   */
  examples?: { right: string[]; wrong: string[]; from: 'report' | 'log' };
}

export interface ChurnPageItem {
  id: string;
  domain: string;
  /** The gate method's class: improved, deteriorated, unchanged, excluded or unmeasured. */
  cls: string;
  /** Why the item was left out of the tests (low-valid, floor, ceiling), null when tested. */
  excluded: string | null;
  /** Accuracy p = x/n per model (the logprobs estimator: p(correct)). */
  p: [number | null, number | null];
  x: [number, number] | null;
  n: [number, number] | null;
  delta: number | null;
  /** Fisher exact p, its Benjamini–Hochberg q, and the RCI (null where not computed). */
  pValue: number | null;
  q: number | null;
  rci: number | null;
  ask: ChurnPageAsk | null;
  /** Per model, baseline first; null where the model has no record of the item. */
  answers: (ChurnPageAnswers | null)[];
}

export interface ChurnPageDomain {
  domain: string;
  items: number;
  accuracy: [number | null, number | null];
  delta: number | null;
  improved: number;
  deteriorated: number;
  net: number;
  /** The domain's loss test: one-sided p of a net loss, and after the multiplicity correction. */
  pLoss: number | null;
  adjustedLoss: number | null;
  loss: boolean;
  gain: boolean;
  reversal: boolean;
}

export interface ChurnPage {
  check: 'churn';
  estimator: string;
  /** The gate's method, in words. */
  method: string;
  models: string[];
  /** K stochastic samples per item and model; null for the logprobs estimator. */
  samples: number | null;
  /** Label → one value per model, numbers already written out. */
  overview: PageTable;
  /** How the domain losses are tested, in one sentence. */
  domainTest: string | null;
  domains: ChurnPageDomain[];
  items: ChurnPageItem[];
  /** The open items' system prompts, each once (items mostly share one). */
  systems: string[];
  /** What was shortened or left out to keep the page small, in sentences. */
  notes: string[];
}
