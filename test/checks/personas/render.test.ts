import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readCatalogue } from '../../../src/checks/personas/catalogue.js';
import type { PersonasSection } from '../../../src/checks/personas/section.js';
import { personasCharts } from '../../../src/checks/personas/report/charts.js';
import { renderPersonasSection } from '../../../src/checks/personas/report/markdown.js';
import { analyse, catalogueFrom, recordsFor } from './records.js';
import { simulatedRecords } from './simulated.js';

const file = path.resolve('fixtures/personas/catalogue.yml');
const settings = { vectors: 'tfidf' as const, permutations: 200, seed: 7 };

describe('renderPersonasSection', () => {
  let section: PersonasSection;
  beforeAll(async () => {
    const catalogue = await readCatalogue(file, 'fixtures/personas/catalogue.yml');
    const records = [
      ...simulatedRecords(catalogue, 'sim-base:1b', {
        catalogue: file,
        'same-voice': [['flavour', 'taste']],
      }),
      ...simulatedRecords(catalogue, 'sim-next:2b', {
        catalogue: file,
        'same-voice': [
          ['flavour', 'taste'],
          ['technique', 'sourcing'],
        ],
      }),
    ];
    section = analyse(records, catalogue, settings, 'sim-base:1b', 'sim-next:2b');
  });

  it('shows accuracy against the permutation reference, recognition side by side and the merged pair', () => {
    const md = renderPersonasSection(section);
    expect(md).toContain('### personas — can each assistant be told apart from its answers?');
    const base = section.models[0];
    const accuracy = `${((base?.accuracy ?? 0) * 100).toFixed(1)}%`;
    const reference = `${((base?.permutation.meanAccuracy ?? 0) * 100).toFixed(1)}%`;
    expect(md).toMatch(
      new RegExp(
        `\\| baseline \`sim-base:1b\` +\\| +${base?.correct}/48 \\| +${accuracy} \\| +${escapeRegExp(reference)} \\|`,
      ),
    );
    expect(md).not.toContain('binomial p');
    // The candidate's merged assistant falls below min-recognition (the exact count depends on
    // the simulator's draws): at most 3 of 8.
    expect(md).toMatch(/\| sourcing +\| +\| +8\/8 \(100%\) \| +[0-3]\/8 \(\d+%\) \| −\d+ pts \|/);
    expect(md).toContain('**Merged by the candidate**: technique ↔ sourcing.');
    expect(md).toMatch(
      /<summary>What a pass rules out<\/summary>\n\nAt 80% power \(binomial approximation\): at 8 probes × 1 sample \(16 answers per pair\)/,
    );
    expect(md).toContain('planted paraphrase: confusion expected');
    expect(md).toContain('taste (paraphrase of flavour) confused with its twin, as planted');
    expect(md).toContain('Spearman ρ =');
    // A <summary> line is raw HTML: GitHub would show a markdown escape as a backslash. The
    // model tag is <code> there, and a code span elsewhere: no invisible character inside it.
    expect(md).toContain('<details><summary>baseline <code>sim-base:1b</code>: confusion matrix');
    expect(md).not.toContain('\u200b');
  });

  it('draws one confusion heat map per model, a cell per pair', () => {
    const charts = personasCharts(section);
    expect(charts.map((c) => c.file)).toEqual([
      'personas-confusion-baseline.svg',
      'personas-confusion-candidate.svg',
    ]);
    const svg = charts[1]?.svg ?? '';
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<rect /g)).toHaveLength(36);
    expect(svg).toContain('Persona confusion matrix, candidate sim-next:2b');
  });

  it('marks recognised answers blue and outlined, confusions orange, never red and green', async () => {
    const svg = personasCharts(section)[1]?.svg ?? '';
    const cells = svg.match(/<rect [^>]*\/>/g) ?? [];
    const diagonal = cells.filter((c) => c.includes('stroke="#000000"'));
    expect(diagonal).toHaveLength(6);
    for (const cell of diagonal) expect(cell).toContain('fill="#0072B2"');
    expect(cells.filter((c) => c.includes('fill="#E69F00"'))).toHaveLength(30);
    expect(svg).toContain('blue, outlined: recognised');
    expect(svg).toContain('orange: taken for another');
    expect(svg).not.toMatch(/#(2b7a3d|b03a2e)/i);
    await expect(svg).toMatchFileSnapshot('golden/personas-confusion-candidate.svg');
  });

  it('uses its canvas: the matrix and each row’s recognised answers fill the width', () => {
    const svg = personasCharts(section)[1]?.svg ?? '';
    const width = Number(/^<svg [^>]*width="(\d+)"/.exec(svg)?.[1]);
    const cells = [...svg.matchAll(/<rect x="([\d.]+)"/g)].map((m) => Number(m[1]));
    const matrixRight = Math.max(...cells) + 44;
    // The recognised column sits right of the matrix and ends inside the canvas.
    const recognised = [
      ...svg.matchAll(/<text x="([\d.]+)" y="[\d.]+">(\d+)\/(\d+) \((\d+)%\)<\/text>/g),
    ];
    expect(recognised).toHaveLength(6);
    for (const [, x, own, total, share] of recognised) {
      expect(Number(x)).toBeGreaterThan(matrixRight);
      expect(Number(share)).toBe(Math.round((100 * Number(own)) / Number(total)));
    }
    expect(matrixRight + 90).toBeGreaterThanOrEqual(0.9 * width);
  });

  it('titles the one matrix of a single-model run by the model', () => {
    const single = { ...section, models: section.models.slice(0, 1) };
    expect(personasCharts(single)[0]?.title).toBe('Persona confusion matrix, model sim-base:1b');
    expect(personasCharts(single).map((c) => c.file)).toEqual(['personas-confusion-model.svg']);
  });
});

describe('untrusted text in the personas section', () => {
  it('escapes assistant names, probes and model tags in markdown and SVG', () => {
    const catalogue = catalogueFrom(`
language: en
assistants:
  evil_one: "Prompt one."
  other: "Prompt two."
probes:
  - "<script>alert(1)</script> | @octocat [link](http://x)"
  - "second"
`);
    const records = recordsFor(catalogue, 'm<b>', {
      evil_one: ['chapter twist', 'chapter arc'],
      other: ['rhythm melody', 'rhythm cadence'],
    });
    const section = analyse(records, catalogue, settings, 'm<b>');
    const md = renderPersonasSection(section);
    expect(md).not.toContain('<script>');
    // The tag shows as code (`m<b>` in a code span, m&lt;b&gt; in a <code> element), never as HTML.
    expect(md.replace(/`m<b>`/g, '')).not.toContain('<b>');
    expect(md).toContain('<code>m&lt;b&gt;</code>');
    // A single-model run calls its one model "model".
    expect(md).toContain('model `m<b>`');
    expect(md).not.toMatch(/\bbaseline `/);
    expect(md).not.toMatch(/@octocat/);
    expect(md).not.toContain('[link](');
    expect(md).toContain('evil\\_one');
    const svg = personasCharts(section)[0]?.svg ?? '';
    expect(svg).not.toContain('m<b>');
    expect(svg).toContain('m&lt;b&gt;');
  });

  it('says so when a section is incomplete instead of failing', () => {
    // as an older or foreign report.json would hold it
    const partial: PersonasSection = JSON.parse(
      '{"check": "personas", "models": [{"role": "baseline", "accuracy": 0.9}]}',
    );
    const md = renderPersonasSection(partial);
    expect(md).toContain('incomplete personas section');
    expect(personasCharts(partial)).toEqual([]);
  });

  it('renders an empty section without failing', () => {
    const md = renderPersonasSection({ ...emptySection() });
    expect(md).toContain('No model was measured.');
    expect(personasCharts(emptySection())).toEqual([]);
  });
});

function emptySection(): PersonasSection {
  return {
    check: 'personas',
    catalogue: {
      file: 'c.yml',
      language: 'en',
      languages: ['en'],
      assistants: [],
      probes: [],
      sha256: '',
    },
    vectors: 'tfidf',
    samples: 1,
    models: [],
    comparison: null,
    notes: [],
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
