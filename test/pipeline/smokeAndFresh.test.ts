/**
 * `run --limit N` (a smoke run: the first N items, seeds and probes, labelled so that it can
 * never read as a pass) and `run --fresh` (a new log, the previous one kept under another name).
 */
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyseLogs } from '../../src/pipeline/analyse.js';
import { runJob, setAsideLog } from '../../src/pipeline/run.js';
import type { CallRecord } from '../../src/sampleLog/index.js';
import { readSampleLogs } from '../../src/sampleLog/index.js';
import { at, demoConfig, quiet, simulatedJob } from './simulatedJob.js';

const job = simulatedJob('fixtures/simulator/aa.yml', 'model-gate-smoke-');

function config(dir: string) {
  return demoConfig(job, dir, [
    at('demo-twin:1b', 'models', 'candidate'),
    at(2, 'churn', 'samples'),
    at([], 'dragon', 'referencePlayers'),
  ]);
}

describe('run --limit N: a smoke run', () => {
  it('asks the first N items, seeds and probes (2 probes at least), and never passes', async () => {
    const outcome = await runJob({ loaded: config('smoke'), limit: 1, progress: quiet });
    const { records, runs } = await readSampleLogs(outcome.files.logs);
    const calls = records.filter((r): r is CallRecord => r.kind === 'call');
    const keys = (check: string) =>
      new Set(calls.filter((r) => r.check === check).map((r) => r.key.split('#')[0]));
    // The first item of fixtures/items/general.yml, the first maze seed, 2 probes × 6 assistants.
    expect([...keys('churn')]).toEqual(['law-01']);
    expect(
      new Set(calls.filter((r) => r.check === 'dragon').map((r) => r.key.split('/')[1])),
    ).toEqual(new Set(['seed-0']));
    expect(keys('personas').size).toBe(6 * 2);
    expect(runs.at(-1)?.limit).toBe(1);
    // Identical models would pass; a smoke run warns instead, and says so in the verdict lines.
    expect(outcome.report.verdict.status).toBe('warn');
    const smoke = outcome.report.verdict.reasons.filter((r) => r.rule === 'smoke-run');
    expect(smoke).toHaveLength(1);
    expect(smoke[0]?.message).toContain('smoke run (--limit 1)');
    expect(outcome.exitCode).toBe(0);
  }, 60_000);

  it('a report made again from the smoke log alone is still labelled a smoke run', async () => {
    const first = await runJob({ loaded: config('smoke-2'), limit: 2, progress: quiet });
    const again = await analyseLogs({ loaded: config('smoke-2-again'), logs: first.files.logs });
    expect(again.report.verdict.reasons.map((r) => r.rule)).toContain('smoke-run');
    expect(again.report.checks.churn?.itemCounts.total).toBe(2);
  }, 60_000);
});

describe('run --fresh', () => {
  it('starts a new log and keeps the previous one under a dated name', async () => {
    const loaded = config('fresh');
    const first = await runJob({ loaded, limit: 1, progress: quiet });
    const asked = job.simulator.stats().requests;
    const before = Object.values(asked).reduce((a, b) => a + b, 0);
    const lines: string[] = [];
    const capture = { write: (t: string) => lines.push(t) } as unknown as NodeJS.WritableStream;
    await runJob({ loaded, limit: 1, fresh: true, progress: capture });
    const after = Object.values(job.simulator.stats().requests).reduce((a, b) => a + b, 0);
    // Nothing was reused: every request of the plan was asked again.
    expect(after - before).toBeGreaterThanOrEqual(
      first.report.run.requests.reduce((a, r) => a + r.total, 0),
    );
    const dir = path.dirname(first.files.logs[0] as string);
    const kept = readdirSync(dir).filter((f) =>
      /^samples\.\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.jsonl$/.test(f),
    );
    expect(kept).toHaveLength(1);
    expect(lines.join('')).toContain(
      `the previous sample log is kept as ${path.join(dir, kept[0] as string)}`,
    );
  }, 60_000);

  it('never overwrites an earlier kept log', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-aside-'));
    const log = path.join(dir, 'samples.jsonl');
    const at = new Date('2026-11-30T18:22:05.123Z');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(log, 'one\n');
    expect(await setAsideLog(log, at)).toBe(path.join(dir, 'samples.2026-11-30T18-22-05.jsonl'));
    writeFileSync(log, 'two\n');
    expect(await setAsideLog(log, at)).toBe(path.join(dir, 'samples.2026-11-30T18-22-05-2.jsonl'));
    expect(existsSync(log)).toBe(false);
    expect(await setAsideLog(log, at)).toBeNull();
  });
});
