/**
 * What `model-gate init` writes for a check: its block of the starter model-gate.yml and the
 * files that block points at (items, a catalogue), taken from the package's fixtures.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../packageRoot.js';

export interface StarterFile {
  /** Relative to the folder, with "/" separators. */
  file: string;
  text: string;
}

export interface CheckStarter {
  /** Settings of the check's block the starter config sets, by kebab-case key ("items"). */
  settings: Record<string, unknown>;
  /** Files the block points at. */
  files: StarterFile[];
}

/** A file of the package (`parts` from its root) as a starter: `header` lines, then its body. */
export function starterFile(
  file: string,
  header: readonly string[],
  ...parts: string[]
): StarterFile {
  const text = readFileSync(path.join(packageRoot(), ...parts), 'utf8');
  return {
    file,
    text: `${header.map((line) => `# ${line}\n`).join('')}${withoutLeadingComments(text)}`,
  };
}

/** The text without its leading comment and blank lines. */
function withoutLeadingComments(text: string): string {
  return text.replace(/^(?:[^\S\n]*(?:#.*)?\n)*/, '');
}
