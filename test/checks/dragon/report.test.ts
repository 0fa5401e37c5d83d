import { describe, expect, it } from 'vitest';
import { analyseDragon } from '../../../src/checks/dragon/analysis.js';
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
    expect(markdown).toMatch(/\| metric +\| +baseline base\\\|1b \| +candidate cand:1b \| +Δ \|/);
    expect(markdown).toMatch(/\| ECE +\| +0\.\d{3} \[0\.\d{3}, 0\.\d{3}\] \| +0\.\d{3} \[/);
    expect(markdown).toContain('moves into a known wall');
    expect(markdown).toContain('Reliability bins (10 equal-width, lower-inclusive)');
    expect(markdown).toContain('#### Reference players (instrument controls)');
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

  it('warns when a series is perturbed', () => {
    const candidate = section.candidate;
    if (!candidate) throw new Error('no candidate');
    const perturbed = { ...section, candidate: { ...candidate, perturbed: true, timeouts: 9 } };
    expect(renderDragonSection(perturbed)).toContain('**Measurement perturbed**: 9 of');
  });
});

describe('reliability diagrams', () => {
  const charts = dragonCharts(section);

  it('one per model and reference player', () => {
    expect(charts.map((c) => c.file)).toEqual([
      'dragon-reliability-baseline.svg',
      'dragon-reliability-candidate.svg',
      'dragon-reliability-player-careful.svg',
      'dragon-reliability-player-overconfident.svg',
      'dragon-reliability-player-random.svg',
    ]);
  });

  it('draws one bar, one whisker and one tick per non-empty bin, pale under 5 moves', () => {
    const chart = charts[0];
    const baseline = section.baseline;
    if (!chart || !baseline) throw new Error('missing');
    const filled = baseline.bins.filter((b) => b.moves > 0);
    const bars = chart.svg.match(/<rect [^>]*fill="#4878a8"[^>]*>/g) ?? [];
    expect(bars).toHaveLength(filled.length);
    const pale = filled.filter((b) => b.moves < 5).length;
    expect(bars.filter((b) => b.includes('fill-opacity="0.3"'))).toHaveLength(pale);
    expect(chart.svg.match(/stroke="#e07b00"/g) ?? []).toHaveLength(filled.length);
    expect(chart.svg).toContain('stroke-dasharray="4 3"');
    expect(chart.svg).toContain('<title>Reliability, baseline: base|1b</title>');
  });
});
