import { describe, expect, it } from 'vitest';
import { analyseDragon } from '../../../src/checks/dragon/analyse.js';
import { dragonCharts } from '../../../src/checks/dragon/report/charts.js';
import { renderDragonSection } from '../../../src/checks/dragon/report/markdown.js';
import { definitionsFor, simulatedGames } from './simulated.js';

const SEEDS = [0, 1, 2, 3];
const definitions = definitionsFor({
  seeds: SEEDS,
  bootstrap: 100,
  referencePlayers: ['random', 'overconfident', 'careful'],
});
const section = analyseDragon(
  [
    ...simulatedGames('base|1b', { policy: 'careful' }, SEEDS),
    ...simulatedGames('cand:1b', { policy: 'wall-bumper' }, SEEDS),
  ],
  definitions,
  { baseline: 'base|1b', candidate: 'cand:1b' },
);

describe('the dragon summary', () => {
  const markdown = renderDragonSection(section);

  it('shows baseline, candidate and Δ side by side with the provenance', () => {
    expect(markdown).toContain('Protocol `dragon-calibration/1`');
    expect(markdown).toContain(section.promptSha256.slice(0, 16));
    expect(markdown).toMatch(
      /\| metric +\| +baseline `base\\\|1b` \| +candidate `cand:1b` \| +Δ \|/,
    );
    expect(markdown).toContain(
      '<summary>candidate <code>cand:1b</code>: bins, confidence levels, games',
    );
    expect(markdown).not.toContain('\u200b');
    expect(markdown).toMatch(/\| ECE +\| +0\.\d{3} \[0\.\d{3}, 0\.\d{3}\] \| +0\.\d{3} \[/);
    expect(markdown).toContain('moves into a known wall');
    expect(markdown).toContain('Reliability bins (10 equal-width, lower-inclusive)');
    expect(markdown).toContain('<summary>Reference players (instrument controls)</summary>');
    expect(markdown).toMatch(
      /overconfident is worse calibrated than the other players, paired 95% intervals above 0 \(ECE overconfident − careful \+0\.\d{3} \[\+0\.\d{3}, \+0\.\d{3}\]; overconfident − random \+0\.\d{3}/,
    );
    expect(markdown).toMatch(
      /over the 4 seeds both finished \(ECE 0\.\d{3} vs 0\.\d{3} on those games\), with a 95% paired bootstrap interval; the gate.s test is a one-sided paired permutation test \(p = 0\.\d{4}\)/,
    );
    expect(markdown).toMatch(
      /the ECE rule catches, with 80% power, a rise of 0\.\d{3} over 4 seeds/,
    );
    expect(markdown).not.toContain('Measurement perturbed');
  });

  it('names a single model, and the player of dragon play, by what it is, not "baseline"', () => {
    const single = renderDragonSection({ ...section, candidate: null, comparison: null });
    expect(single).toMatch(/\| metric +\| +model `base\\\|1b` \|/);
    expect(single).toContain('<summary>model <code>base|1b</code>: bins');
    const baseline = section.baseline;
    if (!baseline) throw new Error('no baseline');
    const play = renderDragonSection({
      ...section,
      candidate: null,
      comparison: null,
      baseline: { ...baseline, model: 'player:careful', player: 'careful' },
    });
    expect(play).toMatch(/\| metric +\| +player careful \|/);
    expect(play).not.toMatch(/baseline/);
  });

  it('lists seeds sorted and merged, whatever their order', () => {
    expect(renderDragonSection({ ...section, seeds: [3, 1, 2, 7] })).toContain('seeds 1–3, 7.');
  });

  it('warns when a series is perturbed', () => {
    const candidate = section.candidate;
    if (!candidate) throw new Error('no candidate');
    const perturbed = { ...section, candidate: { ...candidate, perturbed: true, timeouts: 9 } };
    expect(renderDragonSection(perturbed)).toContain('**Measurement perturbed**: 9 of');
  });
});

describe('reliability diagrams', () => {
  const charts = dragonCharts(section);

  it('one for the models overlaid, one per reference player', () => {
    expect(charts.map((c) => c.file)).toEqual([
      'dragon-reliability.svg',
      'dragon-reliability-player-careful.svg',
      'dragon-reliability-player-overconfident.svg',
      'dragon-reliability-player-random.svg',
    ]);
    expect(charts[0]?.title).toBe('Reliability: baseline base|1b vs candidate cand:1b');
  });

  it('draws baseline (blue) and candidate (hatched orange) bars side by side with their counts', async () => {
    const chart = charts[0];
    const { baseline, candidate } = section;
    if (!chart || !baseline || !candidate) throw new Error('missing');
    const blue = chart.svg.match(/<rect [^>]*fill="#0072B2"[^>]*\/>/g) ?? [];
    const hatched = chart.svg.match(/<rect [^>]*fill="url\(#candidate-hatch\)"[^>]*\/>/g) ?? [];
    // One bar per non-empty bin, plus the legend swatch.
    const filled = (bins: typeof baseline.bins) => bins.filter((b) => b.moves > 0);
    expect(blue).toHaveLength(filled(baseline.bins).length + 1);
    expect(hatched).toHaveLength(filled(candidate.bins).length + 1);
    const pale = filled(baseline.bins).filter((b) => b.moves < 5).length;
    expect(blue.filter((b) => b.includes('fill-opacity="0.3"'))).toHaveLength(pale);
    // Each non-empty bin's count is written above its bar; a bin one model left empty shows 0.
    const labels = [...chart.svg.matchAll(/<text [^>]*font-size="10"[^>]*>(\d+)<\/text>/g)].map(
      (m) => Number(m[1]),
    );
    const used = baseline.bins
      .map((b, i) => [b.moves, candidate.bins[i]?.moves ?? 0] as const)
      .filter(([a, c]) => a + c > 0);
    expect(labels).toEqual(used.flat());
    // No red or green anywhere.
    expect(chart.svg).not.toMatch(/#(d92d20|12b76a|b42318|067647|2b7a3d|b03a2e|c0392b)/i);
    expect(chart.svg).toContain(
      'Whiskers: Wilson 95% interval of the share that advanced in the bin.',
    );
    expect(chart.svg).toContain('stroke-dasharray="4 3"');
    await expect(chart.svg).toMatchFileSnapshot('golden/dragon-reliability.svg');
  });

  it('names the one series of a single-model run by the model, not as baseline', () => {
    const [single] = dragonCharts({ ...section, candidate: null, referencePlayers: [] });
    expect(single?.title).toBe('Reliability: model base|1b');
    expect(single?.svg).toContain('model base|1b: ');
    expect(single?.svg).not.toContain('baseline');
    expect(single?.svg).not.toContain('candidate-hatch');
  });
});
