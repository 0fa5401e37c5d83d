import { describe, expect, it } from 'vitest';
import { csvLines, GPU_CSV_HEADER } from '../../src/gpu/telemetry.js';
import { gpuChart, parseGpuCsv } from '../../src/operations/gpuChart.js';

/** gpu.csv as the sampler writes it: two series, one GPU, a tick every 5 s. */
function csv(): string {
  const lines = [GPU_CSV_HEADER];
  for (let i = 0; i < 12; i++) {
    lines.push(
      ...csvLines(
        {
          at: new Date(Date.UTC(2026, 0, 1, 0, 0, 5 * i)).toISOString(),
          series: i < 6 ? 'base:7b' : 'cand "q4":7b',
          gpus: [
            {
              index: 0,
              memoryUsed: 1000 + i * 100,
              utilization: i < 6 ? 50 : 90,
              temperature: 60,
              power: 200,
            },
          ],
          apps: [],
        },
        [],
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

describe('the GPU over time, from gpu.csv', () => {
  it('reads the samples back with their series and times', () => {
    const points = parseGpuCsv(csv());
    expect(points).toHaveLength(12);
    expect(points[0]).toEqual({
      t: 0,
      series: 'base:7b',
      gpu: 0,
      memoryMiB: 1000,
      utilization: 50,
    });
    expect(points[11]).toMatchObject({ t: 55_000, series: 'cand "q4":7b', memoryMiB: 2100 });
  });

  it('draws one line per panel and names each series under the time axis', () => {
    const chart = gpuChart(parseGpuCsv(csv()));
    expect(chart?.svg.match(/<polyline/g)).toHaveLength(2);
    expect(chart?.svg).toContain('>base:7b</text>');
    expect(chart?.svg).toContain('cand &quot;q4&quot;:7b');
    expect(chart?.title).toBe('GPU over the run (0.9 min)');
  });

  it('draws nothing without samples', () => {
    expect(gpuChart(parseGpuCsv(`${GPU_CSV_HEADER}\n`))).toBeNull();
  });
});
