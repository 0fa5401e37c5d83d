/**
 * A copy of a simulator scenario whose models answer without their scripted latency. For
 * end-to-end tests whose subject is not timing: a run at the default concurrency of 1 waits
 * out every request's latency in turn, which is most of its time against a 2 ms scenario.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Writes the copy (with `replace` applied to its text) in a fresh folder; returns its path. */
export function instantScenario(
  file: string,
  replace: (text: string) => string = (text) => text,
): string {
  const text = replace(readFileSync(file, 'utf8')).replace(/latency-ms: \d+/g, 'latency-ms: 0');
  if (text.includes('latency-ms: 0') === false) throw new Error(`${file} sets no latency`);
  const copy = path.join(mkdtempSync(path.join(tmpdir(), 'model-gate-scenario-')), 'scenario.yml');
  writeFileSync(copy, text);
  return copy;
}
