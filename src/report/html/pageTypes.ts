/**
 * report.html's data: one JSON document embedded in the page, which the page's script renders.
 * Built by data.ts from report.json and the checks' parts. Types only: the browser code reads
 * them too. Every text from outside (answers, item text, names) has been neutralised (control
 * and bidi characters shown as \uXXXX) and is inserted by the script as text, never as markup.
 */
import type { PageChart, PageTable } from '../../render/page/types.js';

export const PAGE_FORMAT = 'model-gate.page/1';

export interface PageFinding {
  check: string;
  rule: string;
  severity: string;
  message: string;
}

export interface PageRule {
  check: string;
  rule: string;
  outcome: string;
  tests: string;
  falseAlarmRate: number;
  falseAlarmBasis: string;
  detects: string;
}

/** A check with no part of its own in the page: its summary.md section, shown as text. */
export interface PageOtherCheck {
  check: string;
  markdown: string;
}

/**
 * A check's own part of the page: plain JSON that the check builds (`Check.page`) and its part
 * of the page's script renders (checks/pageParts.ts), read by its `check` field.
 */
export interface PageCheckPart {
  check: string;
  markdown?: never;
}

export type PageCheck = PageCheckPart | PageOtherCheck;

export interface PageData {
  format: typeof PAGE_FORMAT;
  tool: string;
  createdAt: string;
  models: { baseline: string | null; candidate: string | null };
  simulated: boolean;
  verdict: {
    status: string;
    reasons: PageFinding[];
    suppressed: PageFinding[];
    rules: PageRule[];
  };
  /** Why the measurement is incomplete, when it is. */
  missing: string | null;
  charts: PageChart[];
  checks: PageCheck[];
  /** Runs only: the runner's series and the GPU over time. */
  runner: { series: PageTable; notes: string[] } | null;
  /** Nightly runs with a history: its nights. */
  history: { model: string; nights: PageTable; drift: string } | null;
  provenance: { rows: string[][]; warnings: string[] };
}
