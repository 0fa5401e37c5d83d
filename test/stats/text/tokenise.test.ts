import { describe, expect, it } from 'vitest';
import { stopWords } from '../../../src/stats/text/stopWords.js';
import { tokenise, vocabulary } from '../../../src/stats/text/tokenise.js';

describe('tokenise', () => {
  it('lower-cases, keeps accented letters and drops words of two letters or fewer', () => {
    expect(tokenise("L'Écriture d'un ROMAN: 3 chapitres, là où ça bloque.", new Set())).toEqual([
      'écriture',
      'roman',
      'chapitres',
      'bloque',
    ]);
  });

  it('drops the stop words of the chosen language', () => {
    const en = stopWords('en');
    expect(tokenise('The rhythm of the sentence and the image', en)).toEqual([
      'rhythm',
      'sentence',
      'image',
    ]);
    const fr = stopWords('fr');
    expect(tokenise('Pour tenir le rythme, écrivez chaque matin avec votre carnet', fr)).toEqual([
      'tenir',
      'rythme',
      'écrivez',
      'matin',
      'carnet',
    ]);
  });

  it('treats a decomposed accent as the same letter (NFC)', () => {
    const decomposed = 'cre\u0301ation';
    expect(tokenise(decomposed, new Set())).toEqual(['création']);
  });

  it('accepts extra stop words, case-insensitively', () => {
    const words = stopWords('en', ['Kitchen']);
    expect(tokenise('Kitchen knife kitchen', words)).toEqual(['knife']);
  });

  it('gives the distinct words as a vocabulary', () => {
    expect([...vocabulary('twist twist arc', new Set())].sort()).toEqual(['arc', 'twist']);
  });
});
