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

/**
 * The A/A scenario for a run on the built-in defaults (no config): its two identical models
 * know the built-in items (fixtures/items/general.yml) and each item is one they nearly always
 * or nearly never get right, so the adaptive default settles most items at its first look.
 * What such a run shows is the whole default plan and its outputs, not the sampling of
 * uncertain items (the adaptive tests and benchmarks measure that). `replace` edits it further.
 */
export function builtInItemsScenario(replace: (text: string) => string = (text) => text): string {
  return instantScenario('fixtures/simulator/aa.yml', (text) => {
    const known = text
      .replace('items: fixtures/items/demo.yml', 'items: fixtures/items/general.yml')
      .replace('spread: 1\n', 'spread: 20\n');
    if (!known.includes('spread: 20')) throw new Error('aa.yml: its churn block changed');
    return replace(known);
  });
}
