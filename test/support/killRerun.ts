/**
 * Kill and rerun: the CLI is started from source on a small simulated plan, killed with
 * SIGKILL at a random moment, then run again to the end (in this process) on the same output
 * folder. The report.json of that rerun must equal an uninterrupted run's (timestamps and
 * latencies aside). Used by test/pipeline/killRerun.test.ts and scripts/kill-rerun.ts.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { createRng } from '../../src/stats/prng.js';
import { comparableReport } from './comparableReport.js';
import { sourceCli } from './bundled.js';

const repo = fileURLToPath(new URL('../..', import.meta.url));
const fixture = (name: string): string => path.join(repo, 'fixtures', name);

/** The first items of each domain and a catalogue of three assistants and two probes. */
function writeSmallInputs(dir: string): { items: string; catalogue: string } {
  const items = parse(readFileSync(fixture('items/general.yml'), 'utf8')) as { domain: string }[];
  const perDomain = new Map<string, number>();
  const few = items.filter((item) => {
    const n = (perDomain.get(item.domain) ?? 0) + 1;
    perDomain.set(item.domain, n);
    return n <= 2;
  });
  const catalogue = parse(readFileSync(fixture('personas/catalogue.yml'), 'utf8')) as {
    assistants: Record<string, string>;
    probes: string[];
  };
  const small = {
    ...catalogue,
    assistants: Object.fromEntries(Object.entries(catalogue.assistants).slice(0, 3)),
    probes: catalogue.probes.slice(0, 2),
  };
  const paths = { items: path.join(dir, 'items.yml'), catalogue: path.join(dir, 'catalogue.yml') };
  writeFileSync(paths.items, stringify(few));
  writeFileSync(paths.catalogue, stringify(small));
  return paths;
}

/** A config small enough to run in seconds, every check included. */
export function writeKillConfig(dir: string): string {
  const file = path.join(dir, 'model-gate.yml');
  const inputs = writeSmallInputs(dir);
  writeFileSync(
    file,
    `models:
  baseline: demo-base:1b
  candidate: demo-cand:1b
checks: [churn, dragon, personas]
runner:
  concurrency: 4
  timeout-s: 10
churn:
  items: ${inputs.items}
  samples: 2
dragon:
  seeds: [3, 5]          # short games: the whole run takes a few hundred calls
  reference-players: []
  bootstrap: 100
personas:
  catalogue: ${inputs.catalogue}
  permutations: 100
`,
  );
  return file;
}

export interface CliRun {
  code: number | null;
  killed: boolean;
  /** From the first bytes in the sample log (the run record, after the preflight) to the end. */
  activeMs: number;
  stderr: string;
}

/**
 * Runs the CLI from source (bundled once: a start in well under a second). With `killAfterMs`, SIGKILLs it that long after the sample log
 * got its first bytes (start-up and preflight take most of a small run's time, and a kill
 * there tests little), if it still runs then.
 */
export function runCli(
  config: string,
  host: string,
  outDir: string,
  killAfterMs: number | null = null,
): Promise<CliRun> {
  const log = path.join(outDir, 'samples.jsonl');
  const hadLog = existsSync(log) ? statSync(log).size : 0;
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [sourceCli(), 'run', '--config', config, '--ollama-host', host, '--output-dir', outDir],
      { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    let active: number | null = null;
    let timer: NodeJS.Timeout | null = null;
    // A rerun's log already holds records: its own start shows as the log growing.
    const watch = setInterval(() => {
      if (active !== null || !existsSync(log) || statSync(log).size <= hadLog) return;
      active = performance.now();
      if (killAfterMs !== null) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    }, 5);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearInterval(watch);
      if (timer) clearTimeout(timer);
      const activeMs = active === null ? 0 : performance.now() - active;
      resolve({ code, killed: signal === 'SIGKILL', activeMs, stderr });
    });
  });
}

/**
 * A healthy run to the end in this process: the CLI's own `run` command, as `node cli.mjs run`
 * calls it. Only a run that is killed needs a process of its own; for a rerun, starting node
 * and loading the bundle was most of the time. The command writes its progress and notes (a
 * lock taken over, records repaired) to process.stderr: they are kept with its messages, for
 * the failure message of a rerun that went wrong.
 */
async function runToEnd(
  config: string,
  host: string,
  outDir: string,
  extra: readonly string[] = [],
): Promise<{ code: number; stderr: string }> {
  // Loaded here, not at the top: a file that takes only the config from this module does not
  // load the CLI's modules.
  const { cli } = await import('./smallRun.js');
  let notes = '';
  const write = process.stderr.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    notes += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    return true;
  }) as typeof process.stderr.write;
  try {
    const run = await cli([
      'run',
      '--config',
      config,
      '--ollama-host',
      host,
      '--output-dir',
      outDir,
      ...extra,
    ]);
    return { code: run.code, stderr: `${notes}${run.stderr}` };
  } finally {
    process.stderr.write = write;
  }
}

/**
 * A smoke run (the first item, maze seed and probe) in a folder of its own, before the
 * uninterrupted run whose length the kill moments are drawn over: the simulator's first
 * answers are slow (its code and data are cold), and a span stretched by them would put the
 * latest kills after the end of a run against the warm simulator.
 */
export async function warmUp(config: string, host: string): Promise<void> {
  const out = mkdtempSync(path.join(tmpdir(), 'model-gate-kill-warm-'));
  await runToEnd(config, host, out, ['--limit', '1']);
}

export function readReport(outDir: string): unknown {
  return comparableReport(JSON.parse(readFileSync(path.join(outDir, 'report.json'), 'utf8')));
}

export interface KillTrial {
  killAfterMs: number;
  killed: boolean;
  /** Lines in the sample log when the kill landed (0: before the first record). */
  linesAtKill: number;
  rerunCode: number | null;
  equal: boolean;
  stderr: string;
}

/**
 * `trials` kills at moments drawn (seeded) over [0, spanMs) after the log's first bytes (see
 * runCli): each in its own folder, followed by one healthy rerun (runToEnd), compared with
 * `expected` (a comparable report). `parallel` trials run at once.
 */
export async function killTrials(options: {
  config: string;
  host: string;
  expected: unknown;
  expectedCode: number | null;
  trials: number;
  spanMs: number;
  seed: number;
  parallel: number;
}): Promise<KillTrial[]> {
  const rng = createRng(options.seed);
  const moments = Array.from({ length: options.trials }, () => rng.next() * options.spanMs);
  const results: KillTrial[] = [];
  let next = 0;
  let turn: Promise<unknown> = Promise.resolve();
  const worker = async (): Promise<void> => {
    while (next < moments.length) {
      const killAfterMs = moments[next++] as number;
      const out = mkdtempSync(path.join(tmpdir(), 'model-gate-kill-'));
      const first = await runCli(options.config, options.host, out, killAfterMs);
      const log = path.join(out, 'samples.jsonl');
      const linesAtKill = existsSync(log) ? readFileSync(log, 'utf8').split('\n').length - 1 : 0;
      // Reruns take turns: each keeps what reached this process's stderr while it ran.
      const ran = turn.then(() => runToEnd(options.config, options.host, out));
      turn = ran.catch(() => undefined);
      const rerun = await ran;
      let equal = false;
      try {
        equal =
          JSON.stringify(readReport(out)) === JSON.stringify(options.expected) &&
          rerun.code === options.expectedCode;
      } catch {
        equal = false;
      }
      results.push({
        killAfterMs,
        killed: first.killed,
        linesAtKill,
        rerunCode: rerun.code,
        equal,
        stderr: equal ? '' : rerun.stderr,
      });
    }
  };
  await Promise.all(Array.from({ length: options.parallel }, worker));
  return results;
}
