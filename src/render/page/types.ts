/**
 * Pieces of report.html's data that every part of the page shares. Types only, no DOM: the
 * code that builds the data reads them too.
 */

/** A chart of report.json's folder, as an image the page shows (an SVG data URI). */
export interface PageChart {
  /** The part of the page it belongs to: a check's name, "runner" or "history". */
  part: string;
  title: string;
  uri: string;
}

export interface PageTable {
  columns: string[];
  rows: string[][];
}
