/** docs/personas-catalogue.md: its example loads as documented and its error is the real one. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCatalogue, readCatalogue } from '../../src/checks/personas/catalogue.js';
import { formatGateError, InputError } from '../../src/errors.js';

const page = readFileSync('docs/personas-catalogue.md', 'utf8');

function fenced(markdown: string, lang: string): string[] {
  const fence = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  return [...markdown.matchAll(fence)].map((m) => m[1] as string);
}

describe('docs/personas-catalogue.md', () => {
  it('shows docs/examples/catalogue.yml as it is', () => {
    expect(fenced(page, 'yaml')).toContain(readFileSync('docs/examples/catalogue.yml', 'utf8'));
  });

  it('the example loads: two assistants, one paraphrase control, three probes', async () => {
    const catalogue = await readCatalogue('docs/examples/catalogue.yml', 'catalogue.yml');
    expect(catalogue.language).toBe('en');
    expect(catalogue.extraStopWords).toEqual(['bike', 'bikes']);
    expect(catalogue.assistants.map((a) => [a.name, a.control])).toEqual([
      ['repair', null],
      ['routes', null],
      ['fixing', { kind: 'paraphrase', of: 'repair' }],
    ]);
    expect(catalogue.probes).toHaveLength(3);
    // Folded block scalars: one line of text, no trailing newline.
    expect(catalogue.assistants[0]?.prompt).toMatch(/^You answer .* in which order\.$/);
  });

  it('the error shown is the one such a catalogue gives', () => {
    const bad = ['language: en', 'assistants:', '  repair: You fix bikes.', ''].join('\n');
    let error: unknown;
    try {
      parseCatalogue(bad, 'catalogue.yml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    const shown = fenced(page, '').find((b) => b.includes('problems in the persona')) ?? '';
    expect(`${formatGateError(error as InputError)}\n`).toBe(shown);
  });
});
