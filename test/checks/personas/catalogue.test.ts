import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stopWords } from '../../../src/stats/text/stopWords.js';
import { parseCatalogue, readCatalogue } from '../../../src/checks/personas/catalogue.js';
import { InputError } from '../../../src/errors.js';

function problems(yaml: string): string[] {
  try {
    parseCatalogue(yaml, 'personas.yml');
  } catch (error) {
    if (error instanceof InputError) return [error.message, ...error.details];
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('the shipped catalogue', () => {
  it('declares four complementary assistants, one paraphrase and one inverse control, ≥ 6 probes', async () => {
    const file = path.resolve('fixtures/personas/catalogue.yml');
    const catalogue = await readCatalogue(file, 'fixtures/personas/catalogue.yml');
    expect(catalogue.language).toBe('en');
    const plain = catalogue.assistants.filter((a) => a.control === null).map((a) => a.name);
    expect(plain).toEqual(['technique', 'flavour', 'sourcing', 'planning']);
    expect(catalogue.assistants.find((a) => a.name === 'taste')?.control).toEqual({
      kind: 'paraphrase',
      of: 'flavour',
    });
    expect(catalogue.assistants.find((a) => a.name === 'recipe-review')?.control).toEqual({
      kind: 'inverse',
      of: 'flavour',
    });
    expect(catalogue.probes.length).toBeGreaterThanOrEqual(6);
    expect(catalogue.extraStopWords).toContain('kitchen');
    expect(catalogue.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('names the missing file', async () => {
    await expect(readCatalogue('/nonexistent/personas.yml', 'personas.yml')).rejects.toThrow(
      /personas\.yml: persona catalogue not found/,
    );
  });
});

describe('parseCatalogue', () => {
  const valid = `language: fr
assistants:
  a: "Prompt A"
  b:
    prompt: "Prompt B"
    paraphrase-of: a
probes: ["one", "two"]
`;

  it('accepts a string prompt or a mapping with a control', () => {
    const catalogue = parseCatalogue(valid, 'personas.yml');
    expect(catalogue.assistants).toEqual([
      { name: 'a', prompt: 'Prompt A', control: null },
      { name: 'b', prompt: 'Prompt B', control: { kind: 'paraphrase', of: 'a' } },
    ]);
    expect(catalogue.language).toBe('fr');
    expect(catalogue.languages).toEqual(['fr']);
  });

  it('accepts several languages: their stop-word lists are joined', () => {
    const both = parseCatalogue(valid.replace('language: fr', 'language: [fr, en]'), 'p.yml');
    expect(both.languages).toEqual(['fr', 'en']);
    // A catalogue of French and English probes: English answers lose their function words
    // only with the English list in.
    const words = stopWords(both.languages);
    expect(['dans', 'pourquoi', 'the', 'would'].every((w) => words.has(w))).toBe(true);
    expect(stopWords('fr').has('would')).toBe(false);
    expect(both.sha256).not.toBe(parseCatalogue(valid, 'p.yml').sha256);
  });

  it('gives the same hash to the same content and another to a changed prompt', () => {
    const again = parseCatalogue(valid, 'other.yml');
    const changed = parseCatalogue(valid.replace('Prompt A', 'Prompt A2'), 'personas.yml');
    expect(again.sha256).toBe(parseCatalogue(valid, 'personas.yml').sha256);
    expect(changed.sha256).not.toBe(again.sha256);
  });

  it('reports every problem with its line and field', () => {
    const found = problems(`language: de
colour: blue
assistants:
  a: ""
  b:
    prompt: "B"
    paraphrase-of: nobody
    tone: dry
  c:
    prompt: "C"
    inverse-of: c
probes:
  - "one"
  - "one"
`);
    // In the order of the file, each at the line of its field.
    expect(found[0]).toBe('personas.yml: 7 problems in the persona catalogue');
    expect(found.slice(1)).toEqual([
      'line 1: language: expected "en" or "fr", or a list of them (selects the stop-word lists), got "de"',
      'line 2: colour: unknown field (known: language, stop-words, assistants, probes)',
      'line 4: assistants.a: expected a system prompt (non-empty text), got ""',
      'line 7: assistants.b.paraphrase-of: "nobody" is not an assistant of this catalogue (known: a, b, c)',
      'line 8: assistants.b.tone: unknown field (known: prompt, paraphrase-of, inverse-of)',
      'line 11: assistants.c.inverse-of: a control cannot shadow itself',
      'line 14: probes[1]: same text as probes[0]',
    ]);
  });

  it('names the line of a wrong type deep in an assistant, and of a wrong stop word', () => {
    expect(
      problems(`language: [en, fr]
stop-words: [kitchen, "two words"]
assistants:
  a: "A"
  b:
    prompt: "B"
    inverse-of: [a]
probes: [x, y]
`).slice(1),
    ).toEqual([
      'line 2: stop-words[1]: expected one word of letters, got "two words"',
      'line 5: assistants.b: expected a system prompt, or a mapping with prompt (non-empty text) and optionally paraphrase-of / inverse-of, got a mapping',
      'line 7: assistants.b.inverse-of: expected the name of the assistant it shadows, got a list',
    ]);
  });

  it('rejects a control pointing at an unknown assistant or at another control', () => {
    expect(
      problems(`language: en
assistants:
  a: "A"
  b: { prompt: "B", paraphrase-of: ghost }
  c: { prompt: "C", inverse-of: b }
probes: [x, y]
`).slice(1),
    ).toEqual([
      'line 4: assistants.b.paraphrase-of: "ghost" is not an assistant of this catalogue (known: a, b, c)',
      'line 5: assistants.c.inverse-of: "b" is itself a control; point at the assistant it shadows',
    ]);
  });

  it('requires the sections and at least two assistants', () => {
    expect(problems('language: en\n').slice(1)).toEqual([
      'assistants: required, expected a mapping of assistant name → system prompt',
      'probes: required, expected a list of questions every assistant could answer',
    ]);
    expect(problems('language: en\nassistants:\n  a: "A"\nprobes: [x, y]\n').slice(1)).toEqual([
      'line 2: assistants: expected at least 2 assistants, got 1 (attribution needs someone to confuse)',
    ]);
  });

  it('rejects names that cannot serve as keys and YAML that does not parse', () => {
    expect(problems('language: en\nassistants:\n  "a b": "A"\n  c: "C"\nprobes: [x, y]\n')[1]).toBe(
      'line 3: assistants."a b": not a usable assistant name: a name starts with a letter or digit, holds only letters, digits, "-" and "_", at most 64 characters (it appears in sample-log keys and tables); __proto__, constructor and prototype are reserved',
    );
    expect(problems('language: en\nassistants: [\n')[0]).toBe('personas.yml: not valid YAML');
    // A YAML error names its line too: a duplicated assistant on line 4.
    expect(problems('language: en\nassistants:\n  a: "A"\n  a: "B"\nprobes: [x, y]\n')).toEqual([
      'personas.yml: not valid YAML',
      'line 4, column 3: map keys must be unique: "a" is written again (first on line 3)',
    ]);
    expect(problems('- just\n- a list\n')[0]).toBe(
      'personas.yml: expected a mapping with language, assistants and probes',
    );
  });
});
