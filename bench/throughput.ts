/**
 * Throughput benchmark (not a test): the whole `model-gate run` process against the simulator
 * holding S = 4 parallel slots at a fixed latency L, beside a bare Node `fetch` client that
 * sends as many requests in the same setting, both timed from process start to exit.
 * Efficiency = requests × L / S ÷ wall time (1 would keep every slot busy from the first
 * instant to the last); the model-gate/bare ratio is what the targets are about (≥ 0.98 at
 * L = 50 ms, ≥ 0.95 at L = 10 ms). Medians of `--repeats` runs, alternating the two clients so
 * that a change in machine load hits both.
 *
 * Then the mixed job (the demo's: churn × (K = 10 + greedy), 10 maze games, the personas
 * catalogue, two models) at L = 20 ms, with fixed K and with `churn.sampling: adaptive`: slot
 * occupancy = busy slot-time ÷ (S × the span from the first request to the last answer),
 * against the chain-aware bound (the best occupancy any order could reach: a maze game's moves
 * are one chain, and one model's series ends before the next begins), and how evenly `--shard i/4` splits it (adaptive: whole items per shard).
 *
 * Uses dist/cli.js (what users run) when it exists, else src/cli.ts through tsx; rebuild the
 * bundle first (`npm run bundle`) to measure the current source.
 *
 *   npx tsx bench/throughput.ts [--repeats 5] [--requests 2000] [--latency 50,10] [--mixed-only]
 */
import { CHECKS } from '../src/checks/builtIn.js';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { median } from 'simple-statistics';
import { checkContext } from '../src/checks/context.js';
import { carefulConfidence } from '../src/checks/dragon/players.js';
import { DEFAULT_WALLS } from '../src/checks/dragon/protocol.js';
import { loadConfig } from '../src/config/load.js';
import { loadChecks, planChecks } from '../src/pipeline/checks.js';
import { estimatedCalls } from '../src/plan/cost.js';
import { shardAssignment } from '../src/plan/shard.js';
import { loadScenario, parseScenario, type Scenario } from '../src/simulator/scenario.js';
import { type RunningSimulator, startSimulator } from '../src/simulator/server.js';
import { cliCommand, root } from './cliCommand.js';

const SLOTS = 4;
const MODEL = 'bench:1b';
const SAMPLES = 9; // + greedy: 10 requests per item

function option(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const repeats = Number(option('repeats', '5'));
const requests = Number(option('requests', '2000'));
const latencies = option('latency', '50,10').split(',').map(Number);

const cli = cliCommand();

/** Runs a node process to its end; resolves with its wall time in seconds. */
function timed(args: readonly string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0) resolve((performance.now() - started) / 1000);
      else reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

const BARE_CLIENT = `
const [url, model, total, slots] = process.argv.slice(2);
let next = 0;
async function worker() {
  while (next < Number(total)) {
    const i = next++;
    const res = await fetch(url + '/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model, stream: false, messages: [{ role: 'user', content: 'question ' + i }],
        options: { temperature: 0.7, seed: i, num_ctx: 4096, num_predict: 32 } }),
    });
    await res.json();
  }
}
await Promise.all(Array.from({ length: Number(slots) }, worker));
`;

function throughputScenario(latencyMs: number, items: string): Scenario {
  return parseScenario(
    `parallel: ${SLOTS}\nmax-queue: 100000\nmodels:\n  - name: ${MODEL}\n    latency-ms: ${latencyMs}\n    churn:\n      items: ${JSON.stringify(items)}\n      accuracy: 0.7\n`,
    'bench scenario',
  );
}

interface Efficiency {
  latencyMs: number;
  modelGate: number[];
  bare: number[];
}

async function measureEfficiency(dir: string, latencyMs: number): Promise<Efficiency> {
  const itemCount = Math.ceil(requests / (SAMPLES + 1));
  const items = path.join(dir, 'items.jsonl');
  const lines = Array.from({ length: itemCount }, (_, i) =>
    JSON.stringify({
      id: `q${i}`,
      domain: `d${i % 8}`,
      question: `Question ${i}?`,
      choices: ['a', 'b', 'c', 'd'],
      answer: 'ABCD'[i % 4],
    }),
  );
  writeFileSync(items, `${lines.join('\n')}\n`);
  const config = path.join(dir, 'model-gate.yml');
  writeFileSync(
    config,
    `models:\n  baseline: ${MODEL}\nchecks: [churn]\nchurn:\n  items: items.jsonl\n  samples: ${SAMPLES}\n`,
  );
  const bare = path.join(dir, 'bare.mjs');
  writeFileSync(bare, BARE_CLIENT);
  const sent = itemCount * (SAMPLES + 1);
  const result: Efficiency = { latencyMs, modelGate: [], bare: [] };
  const ideal = (sent * latencyMs) / 1000 / SLOTS;
  for (let r = 0; r < repeats; r++) {
    // A fresh server each time: no state carried from one client to the next.
    for (const which of ['modelGate', 'bare'] as const) {
      const sim: RunningSimulator = await startSimulator({
        scenario: throughputScenario(latencyMs, items),
      });
      try {
        const out = path.join(dir, `out-${latencyMs}-${r}`);
        const args =
          which === 'bare'
            ? [bare, sim.url, MODEL, String(sent), String(SLOTS)]
            : runArgs(config, sim.url, out);
        result[which].push(ideal / (await timed(args)));
      } finally {
        await sim.close();
      }
    }
  }
  return result;
}

/** `model-gate run` of a config against the fake server, S slots, never failing the process. */
function runArgs(config: string, url: string, outputDir: string): string[] {
  return [
    ...cli,
    'run',
    '--config',
    config,
    '--ollama-host',
    url,
    '--concurrency',
    String(SLOTS),
    '--output-dir',
    outputDir,
    '--fail-on',
    'never',
  ];
}

/**
 * The demo config with churn sampled adaptively (the adaptive defaults, up to samples-max), its
 * relative paths made absolute: written beside the run's other files.
 */
function adaptiveConfig(dir: string, config: string): string {
  const demo = path.dirname(config);
  const text = readFileSync(config, 'utf8')
    .replace(/^ {2}samples: \d+$/m, '  sampling: adaptive')
    .replace(/\.\.\/(items|personas)\//g, `${path.dirname(demo)}/$1/`);
  const file = path.join(dir, 'adaptive.yml');
  writeFileSync(file, text);
  return file;
}

/**
 * The work of each model's series, read from the run's sample log: its calls, and its longest
 * chain of calls that cannot overlap (the decisions of one maze game; every other unit is a
 * single call).
 */
function seriesWork(outputDir: string): { calls: number; longestChain: number }[] {
  const calls = new Map<string, number>();
  const games = new Map<string, number>();
  for (const line of readFileSync(path.join(outputDir, 'samples.jsonl'), 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as { kind?: string; model?: string; check?: string; game?: number };
    if (r.kind !== 'call' || r.model === undefined) continue;
    calls.set(r.model, (calls.get(r.model) ?? 0) + 1);
    if (r.check === 'dragon') {
      const game = `${r.model}\u0000${r.game}`;
      games.set(game, (games.get(game) ?? 0) + 1);
    }
  }
  return [...calls].map(([model, count]) => ({
    calls: count,
    longestChain: Math.max(
      0,
      ...[...games].filter(([key]) => key.startsWith(`${model}\u0000`)).map(([, n]) => n),
    ),
  }));
}

/**
 * The occupancy no scheduler can beat on this job: each model's series takes at least its
 * slot time over S, and at least its longest chain end to end (series never overlap), each
 * call costing the mean slot time measured.
 */
function chainAwareBound(work: readonly { calls: number; longestChain: number }[], busyMs: number) {
  const calls = work.reduce((sum, w) => sum + w.calls, 0);
  const perCall = busyMs / Math.max(1, calls);
  const span = work.reduce(
    (sum, w) => sum + Math.max((w.calls * perCall) / SLOTS, w.longestChain * perCall),
    0,
  );
  return span > 0 ? busyMs / (SLOTS * span) : 1;
}

/** Slot occupancy of one run of the mixed job, and the chain-aware bound it is measured against. */
async function occupancy(config: string, outputDir: string, scenario: Scenario) {
  const sim = await startSimulator({ scenario });
  let wall: number;
  try {
    wall = await timed(runArgs(config, sim.url, outputDir));
  } finally {
    await sim.close();
  }
  const usage = sim.slotUsage();
  const span = usage.busySlotMs / (SLOTS * usage.spanMs);
  const bound = chainAwareBound(seriesWork(outputDir), usage.busySlotMs);
  return {
    span,
    bound,
    ofBound: span / bound,
    idleSlotS: (SLOTS * usage.spanMs - usage.busySlotMs) / 1000,
    spanS: usage.spanMs / 1000,
    whole: usage.busySlotMs / 1000 / SLOTS / wall,
    wall,
  };
}

async function mixedJob(dir: string): Promise<void> {
  const latencyMs = 20;
  const base = loadScenario(path.join(root, 'fixtures', 'simulator', 'demo.yml'));
  const scenario: Scenario = {
    ...base,
    parallel: SLOTS,
    models: base.models.map((m) => ({ ...m, latencyMs })),
  };
  const config = path.join(root, 'fixtures', 'demo', 'model-gate.yml');
  // The fake server's careful player measures its confidences once per process (~0.2 s of
  // games played in this process, at its first maze answer): done before the clock starts,
  // since it stalls the server, not the client whose slot use is measured.
  carefulConfidence(DEFAULT_WALLS);
  // Fixed K, then adaptive sampling: its series alternate between the models as stages are
  // decided, which must not leave slots idle.
  const runs = [
    ['fixed K = 10', config],
    ['churn.sampling: adaptive', adaptiveConfig(dir, config)],
  ] as const;
  const measured: number[] = [];
  for (const [name, file] of runs) {
    const o = await occupancy(file, path.join(dir, `mixed-${measured.length}`), scenario);
    measured.push(o.span);
    console.log(
      `mixed job (demo config, ${name}, L = ${latencyMs} ms, S = ${SLOTS}): slot occupancy ` +
        `${o.span.toFixed(3)} from first request to last answer, ${o.ofBound.toFixed(3)} of the ` +
        `chain-aware bound ${o.bound.toFixed(3)} (target ≥ 0.95; slots idle ` +
        `${o.idleSlotS.toFixed(1)} slot-s over a span of ${o.spanS.toFixed(1)} s), ` +
        `${o.whole.toFixed(3)} of the whole process (${o.wall.toFixed(1)} s; load average ` +
        `${(loadavg()[0] ?? 0).toFixed(2)})`,
    );
  }
  console.log(
    `adaptive − fixed occupancy: ${((measured[1] ?? 0) - (measured[0] ?? 0)).toFixed(3)} (target within 0.02)`,
  );

  for (const [name, file] of runs) {
    const loaded = loadConfig({ checks: CHECKS, file, cwd: root, env: {} });
    const ctx = checkContext(loaded);
    const units = planChecks(await loadChecks(ctx, CHECKS), ctx);
    const { load } = shardAssignment(units, 4);
    const mean = load.reduce((a, b) => a + b, 0) / load.length;
    const total = units.reduce((sum, u) => sum + estimatedCalls(u), 0);
    console.log(
      `shards of the mixed job, ${name} (${units.length} units, ${total} expected calls): ` +
        `${load.join(' / ')} expected calls, busiest/mean ${(Math.max(...load) / mean).toFixed(3)} (target ≤ 1.10)`,
    );
  }
}

const fmt = (values: readonly number[]): string => values.map((v) => v.toFixed(3)).join(' ');

const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-throughput-'));
try {
  console.log(
    `client: ${cli.length === 1 ? cli[0] : 'src/cli.ts through tsx'}; ${requests} requests, S = ${SLOTS}, ${repeats} repeats; load average ${loadavg()
      .map((v) => v.toFixed(2))
      .join(' ')}`,
  );
  // --mixed-only: the mixed job alone (its occupancy against the chain-aware bound).
  for (const latencyMs of process.argv.includes('--mixed-only') ? [] : latencies) {
    const e = await measureEfficiency(dir, latencyMs);
    const [mg, bare] = [median(e.modelGate), median(e.bare)];
    const target = latencyMs >= 50 ? 0.98 : 0.95;
    console.log(
      `L = ${latencyMs} ms: model-gate ${mg.toFixed(3)} [${fmt(e.modelGate)}], bare fetch ` +
        `${bare.toFixed(3)} [${fmt(e.bare)}], ratio ${(mg / bare).toFixed(3)} (target ≥ ${target}; load average ${(loadavg()[0] ?? 0).toFixed(2)})`,
    );
  }
  await mixedJob(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
