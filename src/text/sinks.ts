/**
 * The one sanitiser for values written where a reader acts on text: a log (the terminal, the
 * action's log, which the runner scans for workflow commands), a workflow command, a CSV cell
 * (which a spreadsheet evaluates). Each sink masks the registered secrets first — before any
 * transformation, so that an escape or a cut cannot hide one — then makes the text inert for
 * that reader. Model tags, item ids, server messages and answers all pass through here.
 */
import { neutralise, neutraliseLines } from './neutralise.js';
import { scrubSecrets } from './secrets.js';

/**
 * The runner takes a line as a workflow command when it starts with `::` (after white space),
 * and the older `##[command]` form anywhere in a line. A zero-width space (which the markdown
 * escapes use already, and neutralise keeps) breaks both without changing what is read.
 */
const COMMAND_START = /^([ \t]*):(?=:)/gm;
const OLD_COMMAND = /#(?=#\[)/g;

function defused(text: string): string {
  return text.replace(COMMAND_START, '$1:\u200b').replace(OLD_COMMAND, '#\u200b');
}

/** Lines of text for a log or a terminal: masked, nothing a terminal or the runner acts on. */
export function forLog(text: string): string {
  return defused(neutraliseLines(scrubSecrets(text)));
}

/**
 * What a run streams as it goes (progress, notes) to the terminal or the action's log: masked
 * and no workflow command. The progress line's own carriage return and erase sequence are
 * kept: the outside text it shows (a model tag) is neutralised where it is put in.
 */
export function forStream(text: string): string {
  return defused(scrubSecrets(text));
}

/**
 * The line that tells the runner to mask `secret`, its data escaped as the runner reads it back
 * (`%`, CR and LF percent-encoded: the value stays on the command's line, whole). The runner
 * masks log lines one at a time, so a multi-line secret is masked by announcing each of its
 * lines (secrets.ts registers them, each one announced by its own command).
 */
export function maskCommand(secret: string): string {
  return `::add-mask::${secret.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}\n`;
}

/** A cell starting with one of these is a formula to a spreadsheet (and `'` is the guard). */
const FORMULA_START = /^[=+\-@\t\r']/;

/**
 * One CSV cell of outside text: masked, on one line, quoted, and guarded against formula
 * injection — a value a spreadsheet would evaluate (`=`, `+`, `-`, `@`, a tab or CR first) is
 * led by `'`, which spreadsheets read as "text". A value that starts with `'` itself gets one
 * more, so `csvText` gives back exactly what was written.
 */
export function csvCell(value: string): string {
  const line = neutralise(scrubSecrets(value), 1000);
  const guarded = FORMULA_START.test(line) ? `'${line}` : line;
  return `"${guarded.replace(/"/g, '""')}"`;
}

/** The value of a cell `csvCell` wrote, once the CSV quoting is undone: the guard removed. */
export function csvText(cell: string): string {
  return /^'[=+\-@\t\r']/.test(cell) ? cell.slice(1) : cell;
}
