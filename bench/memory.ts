/**
 * Memory benchmark (not a test): peak resident memory of the whole `model-gate` process,
 * measured with `/usr/bin/time -v`, at growing sample-log sizes.
 *
 * - `run` sizes: `model-gate run` against the simulator at zero latency (S = 4), churn only,
 *   two models: the run and its analysis in one process.
 * - `log` sizes: the sample log is written directly (the records the runner would write for
 *   N items × (K = 10 + greedy) × 2 models, answers drawn from a seeded generator), then
 *   `model-gate run` over it against the simulator: every unit is found complete in the log
 *   (the resume index), nothing is asked, and the log is analysed: a resumed run of that
 *   size.
 *
 * Uses dist/cli.js when it exists (rebuild with `npm run bundle`), else src/cli.ts through tsx.
 *
 * The 150,000-request run takes a minute or two; `--run 2000,30000` leaves it out.
 *
 *   npx tsx bench/memory.ts [--run 2000,30000,150000] [--log 150000]
 */
// The checks hand their settings blocks to the config: loaded before a config is read.
import { CHECKS } from '../src/checks/builtIn.js';
import '../src/checks/builtIn.js';
import { cliCommand } from './cliCommand.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, openSync, rmSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { loadConfig } from '../src/config/load.js';
import { churnSlots } from '../src/checks/churn/plan.js';
import { isChoiceItem, loadItemsFile } from '../src/checks/churn/items.js';
import { createRng } from '../src/stats/prng.js';
import { recordedOptions, SAMPLE_LOG_VERSION } from '../src/sampleLog/index.js';
import type { RunInfoRecord } from '../src/sampleLog/index.js';
import { parseScenario } from '../src/simulator/scenario.js';
import { startSimulator } from '../src/simulator/server.js';
import type { ChurnCallRecord } from '../src/checks/churn/records.js';

const SLOTS = 4;
const MODELS = ['bench-base:1b', 'bench-cand:1b'] as const;
const PER_ITEM = 11; // K = 10 + greedy

function option(name: string, fallback: string): number[] {
  const at = process.argv.indexOf(`--${name}`);
  const text = at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
  return text === '' ? [] : text.split(',').map(Number);
}

const cli = cliCommand();

/** Writes items and a two-model churn config for `requests` calls; returns the config path. */
export function writeJob(dir: string, requests: number): string {
  const itemCount = Math.ceil(requests / PER_ITEM / MODELS.length);
  const lines = Array.from({ length: itemCount }, (_, i) =>
    JSON.stringify({
      id: `q${i}`,
      domain: `d${i % 8}`,
      question: `Question ${i}: which letter is right?`,
      choices: ['first', 'second', 'third', 'fourth'],
      answer: 'ABCD'[i % 4],
    }),
  );
  writeFileSync(path.join(dir, 'items.jsonl'), `${lines.join('\n')}\n`);
  const config = path.join(dir, 'model-gate.yml');
  writeFileSync(
    config,
    [
      `models:\n  baseline: ${MODELS[0]}\n  candidate: ${MODELS[1]}`,
      'checks: [churn]',
      `runner:\n  concurrency: ${SLOTS}\n  warmup: false`,
      'output:\n  dir: out',
      'churn:\n  items: items.jsonl\n  samples: 10',
      '',
    ].join('\n'),
  );
  return config;
}

/** The records a run of this config would write, answers drawn at accuracy 0.7. */
export async function writeLog(
  config: string,
  logPath: string,
  digests: Map<string, string>,
): Promise<number> {
  const loaded = loadConfig({ checks: CHECKS, file: config, cwd: path.dirname(config), env: {} });
  const items = loadItemsFile(
    path.resolve(path.dirname(config), loaded.config.churn.items),
  ).items.filter(isChoiceItem);
  const rng = createRng(7);
  const fd = openSync(logPath, 'w');
  const run: RunInfoRecord = {
    v: SAMPLE_LOG_VERSION,
    kind: 'run',
    startedAt: new Date(0).toISOString(),
    toolVersion: 'bench',
    provider: {
      provider: 'ollama',
      host: 'http://127.0.0.1:1',
      version: 'simulated',
      simulated: true,
    },
    models: MODELS.map((model) => ({
      model,
      digest: digests.get(model) ?? null,
      quantization: null,
      parameterSize: null,
      family: null,
      simulated: true,
    })),
    loadedBefore: [],
    shard: null,
    warnings: [],
  };
  writeSync(fd, `${JSON.stringify(run)}\n`);
  let written = 0;
  for (const model of MODELS) {
    let batch = '';
    for (const slot of churnSlots(items, loaded.config, model)) {
      const right = rng.next() < 0.7;
      const letters = 'ABCD';
      const correct = slot.item.kind === 'open' ? 'A' : slot.item.answer;
      const answer = right ? correct : (letters[(letters.indexOf(correct) + 1) % 4] as string);
      const record: ChurnCallRecord = {
        v: SAMPLE_LOG_VERSION,
        kind: 'call',
        check: 'churn',
        model,
        digest: digests.get(model) ?? null,
        key: slot.key,
        sample: slot.sample,
        options: recordedOptions(slot.spec.request.options),
        prompt_sha256: slot.spec.promptSha256,
        status: 'ok',
        latency_ms: 1,
        prompt_tokens: 120,
        completion_tokens: 8,
        attempts: 1,
        item: slot.item.id,
        domain: slot.item.domain,
        mode: slot.mode,
        answer,
        correct: answer === correct,
      };
      batch += `${JSON.stringify(record)}\n`;
      written++;
      if (batch.length > 1 << 20) {
        writeSync(fd, batch);
        batch = '';
      }
    }
    writeSync(fd, batch);
  }
  closeSync(fd);
  return written;
}

interface Measured {
  peakMb: number;
  wallS: number;
}

/** Runs the CLI under /usr/bin/time -v; peak RSS from its "Maximum resident set size". */
function measured(args: readonly string[], cwd: string): Promise<Measured> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      '/usr/bin/time',
      [
        '-v',
        process.execPath,
        ...(process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean),
        ...args,
      ],
      {
        cwd,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      if (code !== 0 || !peak) {
        reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-3000)}`));
        return;
      }
      resolve({ peakMb: Number(peak[1]) / 1024, wallS: (performance.now() - started) / 1000 });
    });
  });
}

function scenario(): ReturnType<typeof parseScenario> {
  const models = MODELS.map((name) => `  - name: ${name}\n    latency-ms: 0\n`).join('');
  return parseScenario(
    `parallel: ${SLOTS}\nmax-queue: 100000\nmodels:\n${models}`,
    'bench scenario',
  );
}

async function measureRun(dir: string, requests: number, prewritten: boolean): Promise<void> {
  const job = path.join(dir, `${prewritten ? 'log' : 'run'}-${requests}`);
  rmSync(job, { recursive: true, force: true });
  const { mkdirSync } = await import('node:fs');
  mkdirSync(path.join(job, 'out'), { recursive: true });
  const config = writeJob(job, requests);
  const sim = await startSimulator({ scenario: scenario() });
  try {
    let logged = 0;
    if (prewritten) {
      const digests = new Map<string, string>();
      const provider = await import('../src/providers/ollama.js');
      const client = new provider.OllamaProvider({
        host: sim.url,
        timeoutMs: 10_000,
        keepAlive: '5m',
      });
      for (const model of MODELS) digests.set(model, (await client.describe(model)).digest ?? '');
      logged = await writeLog(config, path.join(job, 'out', 'samples.jsonl'), digests);
    }
    const args = [
      ...cli,
      'run',
      '--config',
      config,
      '--ollama-host',
      sim.url,
      '--fail-on',
      'never',
    ];
    const m = await measured(args, job);
    const load = (await import('node:os'))
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' ');
    console.log(
      `${prewritten ? `log of ${logged} records, resumed + analysed` : `${requests} requests run + analysed`}: ` +
        `peak RSS ${m.peakMb.toFixed(0)} MB, ${m.wallS.toFixed(1)} s (load average ${load}; target ≤ 200 MB)`,
    );
  } finally {
    await sim.close();
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-memory-'));
  try {
    console.log(`client: ${cli.length === 1 ? cli[0] : 'src/cli.ts through tsx'}`);
    for (const n of option('run', '2000,30000,150000')) await measureRun(dir, n, false);
    for (const n of option('log', '150000')) await measureRun(dir, n, true);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Importable for its log writer (profiling scripts); measures when run as a script.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
