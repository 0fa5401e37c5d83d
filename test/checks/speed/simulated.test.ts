/**
 * The speed check against the simulator's speed scenarios (fixtures/simulator/speed-*.yml),
 * beside churn on the built-in items, as a user runs it: the exit code, the rule that fails and
 * the measured ratio against the scenario's known one.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import type { SpeedSection } from '../../../src/checks/speed/section.js';
import type { GateFinding } from '../../../src/checks/types.js';
import { ExitCode } from '../../../src/errors.js';
import { type RunningSimulator, startSimulator } from '../../../src/simulator/server.js';
import { cli } from '../../support/smallRun.js';

const root = mkdtempSync(path.join(tmpdir(), 'model-gate-speed-sim-'));
let sim: RunningSimulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

interface Outcome {
  code: number;
  speed: SpeedSection | undefined;
  failed: string[];
}

async function runScenario(name: string, gate: Record<string, number> = {}): Promise<Outcome> {
  sim = await startSimulator({ port: 0, scenario: `fixtures/simulator/${name}.yml` });
  const out = path.join(root, name, 'out');
  const file = path.join(root, `${name}.yml`);
  writeFileSync(
    file,
    stringify({
      models: { baseline: 'demo-base:1b', candidate: 'demo-cand:1b' },
      provider: { host: sim.url },
      runner: { concurrency: 4, 'timeout-s': 10, 'gpu-sample-s': 0, warmup: false },
      output: { dir: out },
      checks: ['churn', 'speed'],
      churn: { items: path.resolve('fixtures/items/general.yml'), samples: 2 },
      speed: { gate },
    }),
  );
  const { code } = await cli(['run', '--config', file]);
  const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as {
    checks: { speed?: SpeedSection };
    verdict: { reasons: GateFinding[] };
  };
  const findings = report.verdict.reasons;
  const failed = [
    ...new Set(
      findings.filter((f) => f.check === 'speed' && f.severity === 'fail').map((f) => f.rule),
    ),
  ];
  return { code, speed: report.checks.speed, failed };
}

describe('speed against the simulated speed scenarios', () => {
  it('speed-slow: a 1.5× slower decode fails on slowdown, the ratio within 5%', async () => {
    const { code, speed, failed } = await runScenario('speed-slow');
    expect(code).toBe(ExitCode.regression);
    expect(failed).toEqual(['slowdown']);
    const ratio = speed?.comparison?.decode?.ratio ?? 0;
    expect(Math.abs(ratio / 1.5 - 1)).toBeLessThan(0.05);
  });

  it('speed-verbose: doubled answers fail on verbosity', async () => {
    const { code, failed } = await runScenario('speed-verbose');
    expect(code).toBe(ExitCode.regression);
    expect(failed).toEqual(['verbosity']);
  });

  it('speed-offload: a candidate 40% in system memory fails on offload', async () => {
    const { code, speed, failed } = await runScenario('speed-offload');
    expect(code).toBe(ExitCode.regression);
    expect(failed).toContain('offload');
    expect(speed?.models[1]?.residency?.offloadedShare).toBeCloseTo(0.4, 2);
  });

  it('speed-aa: two identical models pass', async () => {
    const { code, failed } = await runScenario('speed-aa');
    expect(failed).toEqual([]);
    expect(code).toBe(ExitCode.pass);
  });

  it('speed-drift: a server 30% slower by the end fails no speed rule at max-slowdown 0.10', async () => {
    const { failed, speed } = await runScenario('speed-drift', { 'max-slowdown': 0.1 });
    expect(failed).toEqual([]);
    expect(speed?.comparison?.decode?.ratio).toBeGreaterThan(0.95);
    expect(speed?.comparison?.decode?.ratio).toBeLessThan(1.05);
  });
});
