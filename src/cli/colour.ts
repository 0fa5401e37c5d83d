/**
 * Colour for a terminal: the verdict and severities stand out, in colours that also differ
 * in brightness (bold red, yellow, cyan, green), and never in a pipe, a file, a CI log that
 * is not a terminal, or when NO_COLOR is set (https://no-color.org: any non-empty value).
 */
import type { Severity, VerdictStatus } from '../checks/types.js';

export type Paint = (text: string, tone: Tone) => string;
export type Tone = VerdictStatus | Severity;

const CODES: Record<Tone, string> = {
  fail: '1;31',
  warn: '33',
  inconclusive: '1;35',
  pass: '1;32',
  info: '36',
};

export const plain: Paint = (text) => text;

export const ansi: Paint = (text, tone) => `\x1b[${CODES[tone]}m${text}\x1b[0m`;

/**
 * The escape sequences `ansi` writes, and only those: the terminal filter lets them through
 * and shows every other control character escaped (a clear screen, a cursor move, a concealed
 * line or a window title from a server never acts).
 */
export const OWN_SEQUENCES = new RegExp(
  `(${String.fromCharCode(27)}\\[(?:0|${Object.values(CODES).join('|')})m)`,
);

/** Whether to colour a stream: a terminal, and NO_COLOR unset or empty. */
export function wantsColour(
  stream: { isTTY?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true;
}
