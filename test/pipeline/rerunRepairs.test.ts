/**
 * A rerun repairs what a fault left: requests that failed or timed out are asked again, maze
 * games with a failed move are replayed up to that move and continued, and the final report is
 * the one an undisturbed run writes (timestamps and latencies aside).
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConfigOverride, loadConfig } from '../../src/config/load.js';
import { ExitCode } from '../../src/errors.js';
import { runJob } from '../../src/pipeline/run.js';
import { readSampleLogs, type SampleRecord } from '../../src/sampleLog/index.js';
import { parseScenario } from '../../src/simulator/scenario.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { comparableReport } from '../support/comparableReport.js';

const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
const demo = readFileSync('fixtures/simulator/demo.yml', 'utf8');

/** The demo's models, with `fault` added to each one's block. */
async function simulatorWith(fault: string | null): Promise<RunningSimulator> {
  const text = fault ? demo.replace(/^( {4}latency-ms: 2)$/gm, `$1\n    faults: [${fault}]`) : demo;
  const scenario = parseScenario(text, 'test scenario');
  return startSimulator({ port: 0, scenario });
}

let healthy: RunningSimulator;
let root: string;
let clean: Awaited<ReturnType<typeof run>>;
beforeAll(async () => {
  healthy = await simulatorWith(null);
  root = mkdtempSync(path.join(tmpdir(), 'model-gate-repair-'));
  clean = await run(healthy, 'clean', []);
}, 120_000);
afterAll(async () => {
  await healthy.close();
});

const at = (value: unknown, ...where: string[]): ConfigOverride => ({
  path: where,
  value,
  source: 'test',
});

function run(sim: RunningSimulator, dir: string, extra: ConfigOverride[], cacheDir?: string) {
  const loaded = loadConfig({
    checks: CHECKS,
    file: 'fixtures/demo/model-gate.yml',
    env: {},
    overrides: [
      at(sim.url, 'provider', 'host'),
      at(['dragon'], 'checks'),
      at([3, 5], 'dragon', 'seeds'),
      at([], 'dragon', 'referencePlayers'),
      at(100, 'dragon', 'bootstrap'),
      at(0, 'runner', 'retries'),
      at(path.join(root, dir), 'output', 'dir'),
      ...extra,
    ],
  });
  return runJob({ loaded, progress: quiet, ...(cacheDir ? { cacheDir } : {}) });
}

const failed = (records: readonly SampleRecord[]) =>
  records.filter((r) => r.kind === 'call' && (r.status === 'error' || r.status === 'timeout'));

describe('a rerun after a burst of HTTP 500 during the maze check', () => {
  for (const cached of [false, true]) {
    it(`replays each game up to its first failed move and ends as a clean run${cached ? ' (cache-dir)' : ''}`, async () => {
      const name = cached ? 'burst-cached' : 'burst';
      // Two seeds: the candidate's wall bumping warns; its calibration loss cannot fail on two
      // games (the paired permutation test at 0.83% needs at least 7 seeds).
      expect(clean.report.verdict.status).toBe('warn');

      const faulty = await simulatorWith('{kind: status, status: 500, rate: 0.1}');
      const cacheDir = cached ? path.join(root, `${name}-cache`) : undefined;
      let broken: Awaited<ReturnType<typeof run>>;
      try {
        broken = await run(faulty, name, [], cacheDir);
      } finally {
        await faulty.close();
      }
      const log = broken.files.logs[0] as string;
      const left = failed((await readSampleLogs([log])).records);
      expect(left.length).toBeGreaterThan(3);
      expect(broken.report.verdict.status).toBe('inconclusive');

      // With cache-dir the next CI run starts from a fresh folder and the cached log.
      const again = await run(healthy, cached ? `${name}-next` : name, [], cacheDir);
      expect(comparableReport(again.report)).toEqual(comparableReport(clean.report));
      expect(again.exitCode).toBe(ExitCode.pass);
    }, 120_000);
  }
});

describe('a rerun with a longer timeout', () => {
  it('asks the timed-out requests again', async () => {
    const slow = await simulatorWith('{kind: latency, ms: 600, rate: 0.05}');
    try {
      const personas = [
        at(['personas'], 'checks'),
        at(100, 'personas', 'permutations'),
        // Warm-up calls would be counted among the requests asked again.
        at(false, 'runner', 'warmup'),
      ];
      // A timeout below the slow answers' latency; the second run waits them out.
      const first = await run(slow, 'timeout', [...personas, at(0.3, 'runner', 'timeoutS')]);
      const log = first.files.logs[0] as string;
      const timedOut = failed((await readSampleLogs([log])).records).length;
      expect(timedOut).toBeGreaterThan(3);
      const asked = Object.values(slow.stats().requests).reduce((a, b) => a + b, 0);

      const second = await run(slow, 'timeout', [...personas, at(10, 'runner', 'timeoutS')]);
      const askedAgain = Object.values(slow.stats().requests).reduce((a, b) => a + b, 0) - asked;
      expect(askedAgain).toBe(timedOut);
      expect(failed((await readSampleLogs([log])).records)).toEqual([]);
      const requests = second.report.run.requests;
      expect(requests.every((r) => r.timeout === 0 && r.error === 0)).toBe(true);
    } finally {
      await slow.close();
    }
  }, 120_000);
});
