/**
 * A config changed between two runs on the same sample log: what the new settings would not
 * have produced is asked again, never reused, and `analyze` refuses logs written under other
 * settings or for other models instead of reporting them under this config's name.
 */
import { describe, expect, it } from 'vitest';
import type { ConfigOverride } from '../../src/config/load.js';
import { InputError } from '../../src/errors.js';
import { analyseLogs } from '../../src/pipeline/analyse.js';
import { runJob } from '../../src/pipeline/run.js';
import { readSampleLogs } from '../../src/sampleLog/index.js';
import { at, demoConfig, quiet, simulatedJob } from './simulatedJob.js';
import type { DragonCallRecord } from '../../src/checks/dragon/records.js';

const job = simulatedJob('fixtures/simulator/demo.yml', 'model-gate-changed-');

function config(dir: string, extra: ConfigOverride[] = []) {
  return demoConfig(job, dir, [
    at(['dragon'], 'checks'),
    at([0, 1], 'dragon', 'seeds'),
    at([], 'dragon', 'referencePlayers'),
    at(100, 'dragon', 'bootstrap'),
    ...extra,
  ]);
}

const generated = () => Object.values(job.simulator.stats().requests).reduce((a, b) => a + b, 0);

async function decisionsIn(log: string): Promise<DragonCallRecord[]> {
  const { records } = await readSampleLogs([log]);
  return records.filter((r): r is DragonCallRecord => r.kind === 'call' && r.check === 'dragon');
}

describe('a changed config on the same sample log', () => {
  it('plays the dragon games again at another temperature or in another maze', async () => {
    const first = await runJob({ loaded: config('dragon'), progress: quiet });
    const log = first.files.logs[0] as string;
    const before = generated();
    // Unchanged: every game is in the log.
    await runJob({ loaded: config('dragon'), progress: quiet });
    expect(generated()).toBe(before);

    // Another temperature: the games of temperature 0 must not stand for it.
    const warmer = await runJob({
      loaded: config('dragon', [at(0.5, 'dragon', 'temperature')]),
      progress: quiet,
    });
    expect(generated()).toBeGreaterThan(before);
    const played = (await decisionsIn(log)).filter((r) => r.options.temperature === 0.5);
    const decisions = (o: typeof warmer) =>
      [o.report.checks.dragon?.baseline, o.report.checks.dragon?.candidate].reduce(
        (sum, s) => sum + (s?.calls ?? 0),
        0,
      );
    expect(decisions(warmer)).toBe(played.length);

    // Another maze (30 walls instead of 40): the recorded outcomes no longer hold.
    const afterWarm = generated();
    await runJob({
      loaded: config('dragon', [at(0.5, 'dragon', 'temperature'), at(30, 'dragon', 'walls')]),
      progress: quiet,
    });
    expect(generated()).toBeGreaterThan(afterWarm);
  });

  it('analyze refuses logs of other settings or other models, naming them', async () => {
    const run = await runJob({
      loaded: config('analyze', [at(['churn', 'dragon'], 'checks'), at(2, 'churn', 'samples')]),
      progress: quiet,
    });
    const logs = run.files.logs;
    const analyse = (extra: ConfigOverride[]) =>
      analyseLogs({
        loaded: config('analyze-again', [
          at(['churn', 'dragon'], 'checks'),
          at(2, 'churn', 'samples'),
          ...extra,
        ]),
        logs,
        requireMatchingLogs: true,
      });

    // The same config reads its own log.
    await expect(analyse([])).resolves.toMatchObject({ report: { verdict: {} } });

    const warmer = analyse([at(0.5, 'churn', 'temperature')]);
    await expect(warmer).rejects.toThrow(InputError);
    // 75 items (63 multiple-choice, 12 open) × 2 stochastic samples; the greedy sample
    // (temperature 0) still matches.
    await expect(warmer).rejects.toMatchObject({
      details: expect.arrayContaining([
        expect.stringMatching(
          /^churn: 150 samples of demo-base:1b \(models.baseline\) are in the logs only under other settings than this config: option temperature is 0.7 in the logs, 0.5 for this config$/,
        ),
      ]),
    });

    await expect(analyse([at('other:7b', 'models', 'candidate')])).rejects.toMatchObject({
      details: expect.arrayContaining([
        'churn: no record of other:7b (models.candidate); the logs hold demo-base:1b, demo-cand:1b',
        'dragon: no record of other:7b (models.candidate); the logs hold demo-base:1b, demo-cand:1b',
      ]),
    });
  });
});
