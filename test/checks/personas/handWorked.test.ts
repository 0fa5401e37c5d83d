/**
 * Hand-written answers whose TF-IDF arithmetic can be done on paper. In both catalogues every
 * counted word appears in exactly two answers, so every word has the same idf and each row of
 * an answer with two counted words is 1/√2 on each of them: the cosine of two answers is
 * (shared words) / 2, and a centroid's cosine follows from the Gram matrix:
 *   cos(x, centroid of S) = Σ_{j∈S} x·x_j / √(Σ_{j,k∈S} x_j·x_k)
 */
import { describe, expect, it } from 'vitest';
import { tfidf } from '../../../src/stats/text/tfidf.js';
import { stopWords } from '../../../src/stats/text/stopWords.js';
import { tokenise } from '../../../src/stats/text/tokenise.js';
import { cosine, mean } from '../../../src/stats/text/vectors.js';
import { analyse, catalogueFrom, recordsFor } from './records.js';

const settings = { vectors: 'tfidf' as const, permutations: 200, seed: 7 };

describe('workshop of three: a plot assistant and a style assistant with its paraphrase', () => {
  const catalogue = catalogueFrom(`
language: en
assistants:
  plot: "Shape the story: chapters, turning points and arcs."
  style: "Work on the sentence: rhythm, sound and images."
  voice:
    prompt: "Care for the music of words and the story told."
    paraphrase-of: style
probes:
  - "I am stuck after three chapters."
  - "How do I know my writing is good?"
  - "My main character bores me."
`);
  // Counted words (stop words and ≤ 2 letters removed):
  //   plot:  {chapter, twist}  {twist, arc}      {arc, chapter}     — a triangle
  //   style: {image, rhythm}   {melody, cadence} {sentence, tone}
  //   voice: {rhythm, melody}  {cadence, sentence} {tone, image}    — a 6-cycle with style
  const answers = {
    plot: ['The chapter and the twist.', 'A twist, then the arc!', 'The arc of the chapter.'],
    style: ['The image and the rhythm.', 'A melody with cadence.', 'The sentence and its tone.'],
    voice: ['Rhythm is melody.', 'Cadence in the sentence.', 'Tone, then an image.'],
  };
  const section = analyse(recordsFor(catalogue, 'm', answers), catalogue, settings);
  const result = section.models[0];
  if (!result) throw new Error('no result');

  it('tokenises the answers into the words listed above', () => {
    const words = stopWords('en');
    expect(tokenise(answers.style[2] ?? '', words)).toEqual(['sentence', 'tone']);
    expect(tokenise(answers.voice[0] ?? '', words)).toEqual(['rhythm', 'melody']);
  });

  it('attributes each answer to the nearest centroid built without it', () => {
    // plot/0 = {chapter, twist}: plot without it = {twist, arc} + {arc, chapter}:
    //   Σ x·x_j = 1/2 + 1/2 = 1, |Σ x_j|² = 1 + 1 + 2·(1/2) = 3 → cos = 1/√3 = 0.5774;
    //   style and voice share no word with it → 0. Attributed: plot (same for plot/1, plot/2).
    // style/0 = {image, rhythm}: style without it shares nothing → 0;
    //   voice: x·v0 = 1/2 (rhythm), x·v1 = 0, x·v2 = 1/2 (image) → Σ = 1; the voice answers
    //   share nothing among themselves → |Σ|² = 3 → cos = 1/√3 = 0.5774. Attributed: voice.
    //   By the same arithmetic every style answer goes to voice and every voice answer to style.
    const byAnswer = result.attributions.map((a) => `${a.assistant}/${a.probe}→${a.attributed}`);
    expect(byAnswer).toEqual([
      'plot/0→plot',
      'plot/1→plot',
      'plot/2→plot',
      'style/0→voice',
      'style/1→voice',
      'style/2→voice',
      'voice/0→style',
      'voice/1→style',
      'voice/2→style',
    ]);
    for (const a of result.attributions) expect(a.similarity).toBeCloseTo(1 / Math.sqrt(3), 12);
  });

  it('gives the confusion matrix and accuracy worked out by hand, and no binomial p', () => {
    // rows = true author (plot, style, voice), columns = attributed
    expect(result.confusion).toEqual([
      [3, 0, 0],
      [0, 0, 3],
      [0, 3, 0],
    ]);
    expect(result.correct).toBe(3);
    expect(result.accuracy).toBeCloseTo(3 / 9, 15);
    expect(result.chance).toBeCloseTo(1 / 3, 15);
    // A binomial test against chance is not valid for leave-one-out attribution: not reported.
    expect(result).not.toHaveProperty('binomialP');
    // Accuracy at chance: relabelling the answers does as well about as often as not.
    expect(result.permutation.p).toBeGreaterThan(0.2);
  });

  it('reads recognition, the most confused pair both ways and accuracy per probe', () => {
    expect(result.recognition.map((r) => [r.assistant, r.recognised, r.answers])).toEqual([
      ['plot', 3, 3],
      ['style', 0, 3],
      ['voice', 0, 3],
    ]);
    // style's answers all went to its declared paraphrase: recognised up to it, 3/3.
    expect(result.recognition[1]?.shareUpToControls).toBe(1);
    expect(result.mostConfusedPair).toEqual({
      a: 'style',
      b: 'voice',
      aAsB: 3,
      bAsA: 3,
      total: 6,
      merged: true,
      expected: true,
      control: true,
    });
    // each probe: plot right, style and voice wrong → 1/3
    expect(result.probes.map((p) => [p.correct, p.answers])).toEqual([
      [1, 3],
      [1, 3],
      [1, 3],
    ]);
  });

  it('reports the paraphrase control as confused, as expected', () => {
    expect(result.controls).toEqual([
      {
        control: 'voice',
        twin: 'style',
        kind: 'paraphrase',
        crossings: 6,
        answers: 6,
        confused: true,
        verdict: 'as-expected',
      },
    ]);
  });

  it('contrasts with the naive overlap, which calls style and voice identical', () => {
    // style and voice use the same six words, plot shares none: Jaccard 1 and 0.
    expect(result.vocabularyOverlap).toEqual([
      [1, 0, 0],
      [0, 1, 1],
      [0, 1, 1],
    ]);
  });

  it('ranks prompt distance against answer distance', () => {
    // prompt words: plot {shape, story, chapters, turning, points, arcs},
    //   style {work, sentence, rhythm, sound, images}, voice {care, music, words, story, told}
    //   plot/style: 0 shared → 1; plot/voice: {story}, union 10 → 1 − 0.1 = 0.9; style/voice → 1.
    // answer centroids: plot uniform on 3 words, style and voice uniform on the same 6 words
    //   → distances plot/style 1, plot/voice 1, style/voice 0.
    // ranks (1 = most distant, ties averaged): prompts [1.5, 3, 1.5], answers [1.5, 1.5, 3]:
    //   two pairs move. Spearman on ranks x = [2.5, 1, 2.5], y = [2.5, 2.5, 1] (means 2):
    //   Σdxdy = 0.25 − 0.5 − 0.5 = −0.75, Σdx² = Σdy² = 1.5 → ρ = −0.5.
    const { pairs, movedPairs, spearman, converging, diverging } = result.distances;
    expect(pairs.map((p) => [p.a, p.b, p.promptRank, p.answerRank])).toEqual([
      ['plot', 'style', 1.5, 1.5],
      ['plot', 'voice', 3, 1.5],
      ['style', 'voice', 1.5, 3],
    ]);
    expect(pairs[1]?.promptDistance).toBeCloseTo(0.9, 12);
    expect(pairs[2]?.answerDistance).toBeCloseTo(0, 12);
    expect(movedPairs).toBe(2);
    expect(spearman).toBeCloseTo(-0.5, 12);
    // the closest third (1 pair of 3): style/voice answers converge although their prompts
    // share no word; plot/voice prompts are the closest but their answers are not.
    expect(converging).toEqual([{ a: 'style', b: 'voice' }]);
    expect(diverging).toEqual([{ a: 'plot', b: 'voice' }]);
  });
});

describe('leaving the answer out of its own centroid', () => {
  const catalogue = catalogueFrom(`
language: en
assistants:
  harbour-guide: "You know the harbour."
  archivist: "You know the archive."
probes:
  - "Where should I start?"
  - "What would you check first?"
`);
  // a0 = {harbour, lantern}, a1 = {archive, ledger}        (harbour-guide)
  // b0 = {harbour, archive, rope}, b1 = {lantern, ledger, rope}   (archivist)
  // Every word is in exactly two answers: equal idf, rows 1/√2 or 1/√3 on their words.
  const answers = {
    'harbour-guide': ['The harbour lantern.', 'An archive ledger.'],
    archivist: ['Harbour, archive, rope.', 'Lantern, ledger and rope.'],
  };
  const records = recordsFor(catalogue, 'm', answers);
  const result = analyse(records, catalogue, settings).models[0];

  it('attributes every answer to the other assistant once its own answer is left out', () => {
    // a0: own centroid without a0 = a1, no shared word → 0;
    //     archivist: a0·b0 = a0·b1 = 1/√6, b0·b1 = 1/3 → cos = (2/√6)/√(2 + 2/3) = 0.5 → archivist.
    // b0: own centroid without b0 = b1 → cos 1/3;
    //     harbour-guide: b0·a0 = b0·a1 = 1/√6, a0·a1 = 0 → cos = (2/√6)/√2 = 0.5774 → harbour-guide.
    // Symmetrically for a1 and b1: accuracy 0 of 4.
    expect(result?.confusion).toEqual([
      [0, 2],
      [2, 0],
    ]);
    expect(result?.accuracy).toBe(0);
    expect(result?.attributions.map((a) => a.similarity)).toEqual([
      expect.closeTo(0.5, 12),
      expect.closeTo(0.5, 12),
      expect.closeTo(1 / Math.sqrt(3), 12),
      expect.closeTo(1 / Math.sqrt(3), 12),
    ]);
  });

  it('would recognise every answer if it stayed in its own centroid (what the protocol avoids)', () => {
    // a0 with itself: centroid ∝ a0 + a1, cos = (1 + 0)/√2 = 0.7071 > 0.5 → harbour-guide.
    // b0 with itself: centroid ∝ b0 + b1, cos = (1 + 1/3)/√(2 + 2/3) = 0.8165 > 0.5774.
    // The in-sample score would be 4/4, measuring only that a text resembles itself.
    const words = stopWords('en');
    const texts = [...answers['harbour-guide'], ...answers.archivist];
    const rows = tfidf(texts.map((t) => tokenise(t, words))).rows;
    const inSample = [mean([rows[0] ?? [], rows[1] ?? []]), mean([rows[2] ?? [], rows[3] ?? []])];
    const nearest = rows.map((row) => {
      const cosines = inSample.map((c) => cosine(row, c));
      return cosines[0]! > cosines[1]! ? 0 : 1;
    });
    expect(nearest).toEqual([0, 0, 1, 1]);
    expect(cosine(rows[0] ?? [], inSample[0] ?? [])).toBeCloseTo(Math.SQRT1_2, 12);
    expect(cosine(rows[2] ?? [], inSample[1] ?? [])).toBeCloseTo(4 / 3 / Math.sqrt(8 / 3), 12);
  });
});
