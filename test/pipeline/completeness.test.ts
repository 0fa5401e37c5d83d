/**
 * Completeness is part of the verdict: a run cut short, or a log holding half of the plan, is
 * `inconclusive` and says what is missing — in report.json, the summary's first lines and the
 * exit code — never the verdict of the part that was measured.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { describeOutcome } from '../../src/cli/handlers.js';
import type { LoadedConfig } from '../../src/config/load.js';
import { ExitCode } from '../../src/errors.js';
import { analyseLogs } from '../../src/pipeline/analyse.js';
import { runJob } from '../../src/pipeline/run.js';
import type { JobOutcome } from '../../src/pipeline/types.js';
import { createProvider } from '../../src/providers/create.js';
import type { Provider } from '../../src/providers/types.js';
import { reportSchema } from '../../src/report/schema.js';
import { at, demoConfig, quiet, simulatedJob } from './simulatedJob.js';

// A/A: identical models, so the part that is measured passes — only completeness can stop it.
const job = simulatedJob('fixtures/simulator/aa.yml', 'model-gate-coverage-');

let fewItems: string | undefined;

/**
 * The first two items of each domain of the demo's (multiple-choice and open ones), which the
 * scenario's models know: what is missing from a plan is counted the same on 12 items as on 75.
 */
function fewDemoItems(): string {
  if (fewItems) return fewItems;
  const demo = parse(readFileSync('fixtures/items/demo.yml', 'utf8')) as {
    items: { domain: string }[];
  };
  const seen = new Map<string, number>();
  const items = demo.items.filter((item) => {
    const n = (seen.get(item.domain) ?? 0) + 1;
    seen.set(item.domain, n);
    return n <= 2;
  });
  fewItems = path.join(job.root, 'items.yml');
  writeFileSync(fewItems, stringify({ ...demo, items }));
  return fewItems;
}

function config(name: string, samples = 2) {
  return demoConfig(job, name, [
    at('demo-twin:1b', 'models', 'candidate'),
    at(['churn'], 'checks'),
    at(fewDemoItems(), 'churn', 'items'),
    at(samples, 'churn', 'samples'),
    at(1, 'runner', 'concurrency'),
  ]);
}

let completeRun: Promise<JobOutcome> | undefined;

/** The whole churn plan, run once: the interrupted run is compared with it, its log cut. */
function complete(): Promise<JobOutcome> {
  completeRun ??= runJob({ loaded: config('whole'), progress: quiet });
  return completeRun;
}

/**
 * Every check, with two maze games per model, over two shards: the longest units (maze games)
 * are spread first, so a shard holds no game of one model. Each shard is run once for the file.
 */
function small(name: string) {
  return demoConfig(job, name, [
    at('demo-twin:1b', 'models', 'candidate'),
    at(fewDemoItems(), 'churn', 'items'),
    at(2, 'churn', 'samples'),
    at([0, 1], 'dragon', 'seeds'),
    at(1, 'personas', 'samples'),
    at(4, 'runner', 'concurrency'),
  ]);
}
const smallShards = new Map<number, Promise<JobOutcome>>();
function smallShard(index: 1 | 2): Promise<JobOutcome> {
  let run = smallShards.get(index);
  if (!run) {
    run = runJob({
      loaded: small(`slice-${index}`),
      shard: { index, count: 2 },
      progress: quiet,
    });
    smallShards.set(index, run);
  }
  return run;
}

/** The provider of the config, with the signal aborted once `after` chat calls have answered. */
function cancellingProvider(loaded: LoadedConfig, controller: AbortController, after: number) {
  const inner = createProvider(loaded.config);
  let calls = 0;
  const provider: Provider = Object.create(inner);
  provider.chat = async (...args: Parameters<Provider['chat']>) => {
    const response = await inner.chat(...args);
    if (++calls === after) controller.abort(new Error('the job was cancelled'));
    return response;
  };
  return provider;
}

describe('an interrupted run', () => {
  it('is inconclusive everywhere, with what is missing in report.json and the first summary lines', async () => {
    const loaded = config('cancelled');
    const controller = new AbortController();
    // The plan: 2 models × items × (2 samples + greedy); stop after 12% of the baseline's.
    const whole = await complete();
    const planned = whole.report.run.coverage?.rows.reduce((s, r) => s + r.planned, 0) ?? 0;
    expect(whole.report.verdict.status).toBe('pass');
    expect(whole.report.run.coverage).toMatchObject({ complete: true, missing: null });

    const after = Math.round(planned * 0.12);
    const outcome = await runJob({
      loaded,
      provider: cancellingProvider(loaded, controller, after),
      signal: controller.signal,
      progress: quiet,
    });
    expect(outcome.cancelled).toBe(true);
    expect(outcome.exitCode).toBe(ExitCode.infrastructure);

    const written = JSON.parse(readFileSync(outcome.files.report, 'utf8'));
    expect(reportSchema.safeParse(written).success).toBe(true);
    expect(written.verdict.status).toBe('inconclusive');
    expect(written.verdict.reasons[0]).toMatchObject({ check: 'churn', rule: 'incomplete' });
    const coverage = written.run.coverage;
    expect(coverage.complete).toBe(false);
    expect(coverage.interrupted).toBe(true);
    const [baseline, candidate] = coverage.rows;
    expect(baseline).toMatchObject({ check: 'churn', model: 'demo-base:1b', role: 'baseline' });
    expect(baseline.planned).toBe(planned / 2);
    // The calls in flight when the signal came are lost, nothing else (the first call counted
    // was the uncounted warm-up).
    expect(baseline.answered).toBeGreaterThanOrEqual(after - 1);
    expect(baseline.answered + baseline.missing).toBe(planned / 2);
    expect(candidate).toMatchObject({ answered: 0, missing: planned / 2 });
    expect(coverage.missing).toContain('the run was interrupted');
    expect(coverage.missing).toContain(
      `${planned / 2} of ${planned / 2} churn samples of demo-twin:1b (candidate)`,
    );

    const summary = readFileSync(outcome.files.summary, 'utf8').split('\n');
    expect(summary[0]).toBe('## ❔ model-gate verdict: inconclusive');
    expect(summary.slice(0, 4).join('\n')).toContain('Incomplete measurement');
    expect(summary.slice(0, 4).join('\n')).toContain('the run was interrupted');
    expect(describeOutcome(outcome)).toContain('Incomplete measurement');

    // Resuming finishes the plan: complete, and the verdict of a whole run.
    const resumed = await runJob({ loaded, progress: quiet });
    expect(resumed.report.run.coverage?.complete).toBe(true);
    // The same verdict, and the resumed run says what it found already measured in its log.
    const [said, ...reasons] = [...resumed.report.verdict.reasons].sort((a, b) =>
      a.rule === 'measured-before' ? -1 : b.rule === 'measured-before' ? 1 : 0,
    );
    expect(said?.message).toMatch(/^\d+ of \d+ units were in the sample log/);
    expect({ ...resumed.report.verdict, reasons }).toEqual(whole.report.verdict);
    expect(resumed.exitCode).toBe(ExitCode.pass);
  });
});

describe('analyze over part of the plan', () => {
  it('a log missing half of the candidate samples is inconclusive and names them', async () => {
    const full = await complete();
    const log = full.files.logs[0] as string;
    const lines = readFileSync(log, 'utf8').trim().split('\n');
    let dropped = 0;
    const kept = lines.filter((line) => {
      const record = JSON.parse(line);
      const drop = record.kind === 'call' && record.model === 'demo-twin:1b' && dropped % 2 === 0;
      if (record.kind === 'call' && record.model === 'demo-twin:1b') dropped++;
      return !drop;
    });
    const candidateRecords = dropped;
    const missing = Math.ceil(candidateRecords / 2);
    const partial = path.join(job.root, 'partial.jsonl');
    writeFileSync(partial, `${kept.join('\n')}\n`);

    const outcome = await analyseLogs({
      loaded: config('analysed'),
      logs: [partial],
      requireMatchingLogs: true,
    });
    expect(outcome.report.verdict.status).toBe('inconclusive');
    expect(outcome.exitCode).toBe(ExitCode.infrastructure);
    const candidate = outcome.report.run.coverage?.rows.find((r) => r.model === 'demo-twin:1b');
    expect(candidate).toMatchObject({
      planned: candidateRecords,
      answered: candidateRecords - missing,
      missing,
    });
    expect(outcome.report.run.coverage?.missing).toContain(
      `${missing} of ${candidateRecords} churn samples of demo-twin:1b (candidate)`,
    );
    expect(outcome.report.verdict.reasons.map((r) => r.rule)).toContain('incomplete');
  });
});

describe('analyze over a shard set with a member missing', () => {
  it('is inconclusive and names the missing shard (it was refused as bad input)', async () => {
    const first = await runJob({
      loaded: config('shard-1', 2),
      shard: { index: 1, count: 2 },
      progress: quiet,
    });
    // The shard's own report covers its slice: complete, labelled, exit 0.
    expect(first.report.run.coverage).toMatchObject({ complete: true, shard: '1/2' });
    expect(first.exitCode).toBe(ExitCode.pass);

    const merged = await analyseLogs({
      loaded: config('shard-merge', 2),
      logs: first.files.logs,
      requireMatchingLogs: true,
    });
    expect(merged.report.verdict.status).toBe('inconclusive');
    expect(merged.exitCode).toBe(ExitCode.infrastructure);
    expect(merged.report.run.coverage?.missingShards).toEqual(['2/2']);
    expect(merged.report.run.coverage?.missing).toContain('shard 2/2 is missing from the logs');
  });
});

describe('analyze over two shards of all three checks with one left out', () => {
  it('is inconclusive and names the missing shard, even when a model has no record of a check', async () => {
    const first = await smallShard(1);
    expect(first.exitCode).toBe(ExitCode.pass);
    // The case that was refused as "the logs do not match": shard 1 of 2 holds none of one
    // model's units of at least one check (the longest units, maze games, are spread first).
    const lines = readFileSync(first.files.logs[0] as string, 'utf8')
      .trim()
      .split('\n');
    const held = new Set(
      lines
        .map((line) => JSON.parse(line))
        .filter((r) => r.kind === 'call' || r.kind === 'game')
        .map((r) => `${r.check} ${r.model}`),
    );
    const pairs = ['churn', 'dragon', 'personas'].flatMap((check) =>
      ['demo-base:1b', 'demo-twin:1b'].map((model) => `${check} ${model}`),
    );
    expect(pairs.filter((pair) => !held.has(pair)).length).toBeGreaterThan(0);

    const merged = await analyseLogs({
      loaded: small('all-shard-merge'),
      logs: first.files.logs,
      requireMatchingLogs: true,
    });
    expect(merged.report.verdict.status).toBe('inconclusive');
    expect(merged.exitCode).toBe(ExitCode.infrastructure);
    expect(merged.report.run.coverage?.missingShards).toEqual(['2/2']);
    expect(merged.report.run.coverage?.missing).toContain('shard 2/2 is missing from the logs');
    expect(describeOutcome(merged)).toContain('shard 2/2 is missing');
  });
});

describe('a shard whose slice holds none of a model’s units of a check', () => {
  it('is measured (exit 0), says what its slice lacks, and the merge of both is the verdict', async () => {
    const shards = [await smallShard(1), await smallShard(2)];
    const notes = shards.flatMap((s) =>
      s.report.verdict.reasons.filter((r) => r.message.includes('so its slice compares nothing')),
    );
    expect(notes.length).toBeGreaterThan(0);
    expect(notes[0]?.severity).toBe('info');
    expect(notes[0]?.message).toMatch(
      /^shard [12]\/2 holds no dragon games of demo-(base|twin):1b/,
    );
    for (const shard of shards) {
      expect(shard.report.verdict.status).not.toBe('inconclusive');
      expect(shard.exitCode).toBe(ExitCode.pass);
    }
    const merged = await analyseLogs({
      loaded: small('slice-merge'),
      logs: shards.flatMap((s) => s.files.logs),
      requireMatchingLogs: true,
    });
    expect(merged.report.run.coverage?.complete).toBe(true);
    expect(merged.report.verdict.status).toBe('pass');
  });
});
