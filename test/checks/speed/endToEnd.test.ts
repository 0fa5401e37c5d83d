/**
 * The speed check in a run against the simulator: beside churn it sends no request of its own,
 * the runner alternates the models in blocks, its section reaches report.json and summary.md,
 * `analyze` gives the same section from the log with no request, and a log without timings
 * gives a notice rather than an error.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { SpeedSection } from '../../../src/checks/speed/section.js';
import { ExitCode } from '../../../src/errors.js';
import { type RunningSimulator, startSimulator } from '../../../src/simulator/server.js';
import { cli } from '../../support/smallRun.js';

const root = mkdtempSync(path.join(tmpdir(), 'model-gate-speed-'));
let sim: RunningSimulator;

beforeAll(async () => {
  const scenario = path.join(root, 'scenario.yml');
  const churn =
    '{ items: fixtures/items/general.yml, accuracy: 0.6, spread: 2, difficulty-seed: 1 }';
  writeFileSync(
    scenario,
    `seed: 7\nmodels:\n  - name: aa-one:1b\n    latency-ms: 3\n    churn: ${churn}\n  - name: aa-two:1b\n    latency-ms: 3\n    churn: ${churn}\n`,
  );
  sim = await startSimulator({ port: 0, scenario });
});
afterAll(() => sim.close());

function config(name: string, checks: string[]): { file: string; out: string } {
  const dir = path.join(root, name);
  const out = path.join(dir, 'out');
  const file = path.join(root, `${name}.yml`);
  writeFileSync(
    file,
    stringify({
      models: { baseline: 'aa-one:1b', candidate: 'aa-two:1b' },
      provider: { host: sim.url },
      runner: { concurrency: 2, 'timeout-s': 10, 'gpu-sample-s': 0, warmup: false },
      output: { dir: out },
      checks,
      churn: { items: path.resolve('fixtures/items/general.yml'), samples: 2 },
    }),
  );
  return { file, out };
}

const requests = () => Object.values(sim.stats().requests).reduce((a, b) => a + b, 0);
const speedOf = (out: string) =>
  (
    JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as {
      checks: { speed?: SpeedSection };
    }
  ).checks.speed;

describe('speed beside churn, end to end', () => {
  it('adds no request, alternates the models, reports, and re-analyses with no request', async () => {
    const churnOnly = config('churn', ['churn']);
    let before = requests();
    expect((await cli(['run', '--config', churnOnly.file, '--limit', '8'])).code).toBe(
      ExitCode.pass,
    );
    const churnRequests = requests() - before;

    const both = config('both', ['churn', 'speed']);
    before = requests();
    const ordered = sim.stats().order.length;
    const run = await cli(['run', '--config', both.file, '--limit', '8']);
    expect(run.code).toBe(ExitCode.pass);
    expect(requests() - before).toBe(churnRequests);
    // Four blocks per model: the models take turns, the baseline first.
    const order = sim.stats().order.slice(ordered);
    const turns = order.filter((m, i) => i === 0 || order[i - 1] !== m);
    expect(turns).toEqual([
      'aa-one:1b',
      'aa-two:1b',
      'aa-one:1b',
      'aa-two:1b',
      'aa-one:1b',
      'aa-two:1b',
      'aa-one:1b',
      'aa-two:1b',
    ]);

    const section = speedOf(both.out);
    expect(section?.notice).toBeNull();
    // Churn keys each sample (8 items × 2 samples and a greedy answer).
    expect(section?.comparison?.decode?.items).toBe(24);
    expect(section?.models.map((m) => m.timed)).toEqual([24, 24]);
    // The simulator's /api/ps: 1,000,000 bytes, all of them in GPU memory, the same each series.
    expect(section?.models.map((m) => m.residency)).toEqual([
      { vramMib: 1e6 / 2 ** 20, offloadedShare: 0, readings: 1 },
      { vramMib: 1e6 / 2 ** 20, offloadedShare: 0, readings: 1 },
    ]);
    expect(readFileSync(path.join(both.out, 'summary.md'), 'utf8')).toContain(
      'speed — is the candidate as fast and as brief as the baseline?',
    );
    expect(speedOf(churnOnly.out)).toBeUndefined();
    // report.html's speed part reads the churn answers it timed: one row per churn sample.
    const html = readFileSync(path.join(both.out, 'report.html'), 'utf8');
    const data = JSON.parse(
      html
        .split('<script type="application/json" id="model-gate-data">')[1]
        ?.split('</script>')[0] ?? '',
    ) as { checks: { check: string; items?: { rows: string[][] }; points?: unknown[] }[] };
    const part = data.checks.find((c) => c.check === 'speed');
    expect(part?.items?.rows).toHaveLength(24);
    expect(part?.items?.rows.every((row) => row[0]?.startsWith('churn · '))).toBe(true);
    expect(part?.points).toHaveLength(24);
    const headline = (dir: string) =>
      (JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as { headline: object })
        .headline;
    expect(headline(both.out)).toMatchObject({ decodeRatio: section?.comparison?.decode?.ratio });
    // A run without the check reads as before it existed: no speed number in its headline.
    expect(Object.keys(headline(churnOnly.out))).not.toContain('decodeRatio');

    const again = path.join(root, 'again');
    before = requests();
    const log = path.join(both.out, 'samples.jsonl');
    const analysed = await cli(['analyze', '--log', log, '--config', both.file, '--out', again]);
    expect(analysed.code).toBe(ExitCode.pass);
    expect(requests()).toBe(before);
    expect(speedOf(again)).toEqual(section);

    // The same log as written before timings were kept: a notice, no error, no failure.
    const untimed = path.join(root, 'untimed.jsonl');
    writeFileSync(
      untimed,
      readFileSync(log, 'utf8')
        .split('\n')
        .map((line) => line.replace(/,"timings":\{[^}]*\}/, ''))
        .join('\n'),
    );
    const old = path.join(root, 'old');
    const oldRun = await cli(['analyze', '--log', untimed, '--config', both.file, '--out', old]);
    expect(oldRun.code).toBe(ExitCode.pass);
    expect(speedOf(old)?.notice).toMatch(/^no timings in this log/);
    expect(readFileSync(path.join(old, 'summary.md'), 'utf8')).toContain('no timings in this log');
  });

  it('alone, asks its own short prompts of both models and compares them', async () => {
    const alone = config('alone', ['speed']);
    const before = requests();
    const run = await cli(['run', '--config', alone.file]);
    expect(run.code).toBe(ExitCode.pass);
    // Six prompts, fifteen answers each, per model.
    expect(requests() - before).toBe(180);
    const section = speedOf(alone.out);
    expect(section?.models.map((m) => m.timed)).toEqual([90, 90]);
    expect(section?.comparison?.decode?.items).toBe(90);
  });
});
