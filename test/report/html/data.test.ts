/**
 * report.html's data beside the checks' parts: the runner's series and its GPU over time, the
 * nightly history with its trend, a check without a part of its own shown by its summary
 * section, and every text neutralised.
 */
import { CHECKS } from '../../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import { csvLines, GPU_CSV_HEADER } from '../../../src/gpu/telemetry.js';
import { historySection } from '../../../src/history/section.js';
import { configSchema } from '../../../src/config/schema.js';
import type { HistoryEntry } from '../../../src/history/entry.js';
import type { RunOperations } from '../../../src/operations/types.js';
import { pageData } from '../../../src/report/html/data.js';
import { constructedReport } from '../fixtures.js';

const operations: RunOperations = {
  unloadOthers: false,
  concurrency: 4,
  series: [
    { model: 'sim-base:7b', othersLoaded: [], foreign: [], unloaded: [], contextLength: 4096 },
  ],
  gpu: {
    available: true,
    note: 'GPU 0 sampled every 5 s',
    devices: [],
    intervalS: 5,
    file: 'gpu.csv',
    failedSamples: 0,
    series: [
      {
        model: 'sim-base:7b',
        samples: 3,
        peakMemoryMiB: 2048,
        meanUtilization: 71.6,
        maxTemperatureC: 60,
        meanPowerW: 200,
        contendedSamples: 0,
        contendedShare: 0,
        foreign: [],
      },
    ],
  },
};

const gpuCsv = [
  GPU_CSV_HEADER,
  ...[0, 1, 2].flatMap((i) =>
    csvLines(
      {
        at: new Date(Date.UTC(2026, 0, 1, 0, 0, 5 * i)).toISOString(),
        series: 'sim-base:7b',
        gpus: [{ index: 0, memoryUsed: 2048, utilization: 70 + i, temperature: 60, power: 200 }],
        apps: [],
      },
      [],
    ),
  ),
].join('\n');

function night(day: number): HistoryEntry {
  return {
    v: 1,
    date: new Date(Date.UTC(2026, 9, day)).toISOString(),
    commit: null,
    model: 'sim-base:7b',
    digest: 'd'.repeat(64),
    verdict: 'pass',
    ece: { value: 0.02, low: 0.01, high: 0.04 },
    brier: 0.1,
    knownWallRate: 0,
    personaAccuracy: null,
    churnAccuracy: null,
  };
}

describe('pageData', () => {
  const base = constructedReport();
  const history = historySection({
    checks: CHECKS,
    prior: [night(1), night(2)],
    tonight: night(3),
    config: configSchema(CHECKS).parse({
      models: { baseline: 'sim-base:7b' },
      output: { history: 'history.jsonl' },
    }),
    file: 'history.jsonl',
    appended: true,
  }).section;
  const report = { ...base, run: { ...base.run, operations }, history };
  const data = pageData(report, { parts: [], gpuCsv });

  it('shows the runner’s series and draws its GPU over time', () => {
    expect(data.runner?.series.rows).toEqual([
      ['sim-base:7b', 'none', '4096', '3', '2.0 GiB', '72%', 'none'],
    ]);
    expect(data.charts.filter((c) => c.part === 'runner').map((c) => c.title)).toEqual([
      'GPU over the run (0.2 min)',
    ]);
  });

  it('shows the nights with their trend, drawn once, under the history', () => {
    expect(data.history?.nights.rows.map((r) => r[0])).toEqual([
      '2026-10-01',
      '2026-10-02',
      '2026-10-03',
    ]);
    const trend = data.charts.filter((c) => c.title.startsWith('ECE per night'));
    expect(trend.map((c) => c.part)).toEqual(['history']);
    expect(trend[0]?.uri).toMatch(/^data:image\/svg\+xml;base64,/);
  });

  it('shows a check without a part of its own by its summary section, neutralised', () => {
    expect(data.checks.map((c) => c.check)).toEqual(['churn', 'dragon', 'personas']);
    for (const check of data.checks) expect('markdown' in check).toBe(true);
    expect(JSON.stringify(data)).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
  });
});
