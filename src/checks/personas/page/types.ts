/**
 * The personas check's part of report.html's data (plain JSON, built by ../report/page.ts,
 * rendered in the browser by ./part.ts). Types only, no imports: both sides read them.
 * Assistants are referred to by their index in `assistants` (catalogue order).
 */

export interface PersonasPageAssistant {
  name: string;
  /** Set for a control: which assistant it shadows, and how (paraphrase, inverse). */
  control: { kind: string; of: string } | null;
  /** The system prompt (shortened when long); null when the catalogue was not read. */
  prompt: string | null;
}

/** One answer: [assistant, probe, sample, attributed assistant (−1: none), text]. */
export type PersonasPageAnswer = [number, number, number, number, string];

export interface PersonasPageModel {
  role: string;
  model: string;
  accuracy: number | null;
  /** The level interchangeable assistants reach (within-probe relabelling), and 1/m. */
  reference: number | null;
  chance: number;
  /** confusion[true][attributed], catalogue order. */
  confusion: number[][];
  /** Per assistant: answers attributed to it of its answers. */
  recognition: { recognised: number; answers: number }[];
  /** Per pair: prompt distance and answer distance with their ranks (1 = most distant). */
  distances: {
    a: string;
    b: string;
    prompt: number;
    answer: number | null;
    promptRank: number;
    answerRank: number | null;
  }[];
  spearman: number | null;
  converging: string[];
  answers: PersonasPageAnswer[];
}

export interface PersonasPage {
  check: 'personas';
  assistants: PersonasPageAssistant[];
  probes: string[];
  samples: number;
  models: PersonasPageModel[];
  notes: string[];
}
