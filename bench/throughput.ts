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
 * catalogue, two models), with fixed K and with `churn.sampling: adaptive`, against a server
 * of S slots that answers in rounds: slot occupancy = calls ÷ (S × rounds), against the
 * chain-aware bound (the fewest rounds any order could take: a maze game's moves are one
 * chain, and one model's series ends before the next begins), and how evenly `--shard i/4`
 * splits it (adaptive: whole items per shard).
 *
 * Uses dist/cli.js (what users run) when it exists, else src/cli.ts through tsx; rebuild the
 * bundle first (`npm run bundle`) to measure the current source.
 *
 *   npx tsx bench/throughput.ts [--repeats 5] [--requests 2000] [--latency 50,10] [--mixed-only]
 *     [--quiet-ms 250]
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { median } from 'simple-statistics';
import { CHECKS } from '../src/checks/builtIn.js';
import { checkContext } from '../src/checks/context.js';
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

/** The longest chain of calls that cannot overlap (one maze game's moves) in each model's series, read from the run's sample log. */
function longestChains(outputDir: string): Map<string, number> {
  const games = new Map<string, number>();
  for (const line of readFileSync(path.join(outputDir, 'samples.jsonl'), 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as { kind?: string; model?: string; check?: string; game?: number };
    if (r.kind !== 'call' || r.check !== 'dragon' || r.model === undefined) continue;
    const game = `${r.model}\u0000${r.game}`;
    games.set(game, (games.get(game) ?? 0) + 1);
  }
  const longest = new Map<string, number>();
  for (const [game, moves] of games) {
    const model = game.slice(0, game.indexOf('\u0000'));
    longest.set(model, Math.max(longest.get(model) ?? 0, moves));
  }
  return longest;
}

/**
 * A server that answers in rounds, put in front of the simulator (which answers at once): the
 * chats in flight are held until S of them are waiting, or until none has arrived for
 * `quietMs` (the client has sent all it can), then answered together; the next round starts
 * when the client has every answer. A series' length in rounds is then set by the order of the
 * client's requests alone, not by how long the client's own work takes on a loaded machine.
 * Other requests (model details, loaded models) pass at once.
 */
async function startRoundServer(upstream: string, quietMs: number) {
  const target = new URL(upstream);
  const waiting: { body: Buffer; req: IncomingMessage; res: ServerResponse }[] = [];
  const calls = new Map<string, number>();
  let answering = 0;
  let rounds = 0;
  let timer: NodeJS.Timeout | undefined;
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const out = request(
      {
        host: target.hostname,
        port: target.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    out.end(body);
  };
  const release = () => {
    clearTimeout(timer);
    if (answering > 0 || waiting.length === 0) return;
    if (waiting.length < SLOTS) {
      timer = setTimeout(answerRound, quietMs);
      return;
    }
    answerRound();
  };
  const answerRound = () => {
    if (answering > 0 || waiting.length === 0) return;
    rounds++;
    for (const { body, req, res } of waiting.splice(0)) {
      answering++;
      const model = (JSON.parse(body.toString()) as { model: string }).model;
      calls.set(model, (calls.get(model) ?? 0) + 1);
      res.once('close', () => {
        answering--;
        release();
      });
      forward(req, res, body);
    }
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url !== '/api/chat') return forward(req, res, body);
      waiting.push({ body, req, res });
      release();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    usage: () => ({ rounds, calls }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Slot use of one run of the mixed job against the round server: occupancy = calls ÷ (S ×
 * rounds), and its share of the chain-aware bound, the fewest rounds any order could take:
 * each model's series (series never overlap) takes at least its calls over S and at least its
 * longest maze game, whose moves wait for each other.
 */
async function occupancy(config: string, outputDir: string, scenario: Scenario, quietMs: number) {
  const sim = await startSimulator({ scenario });
  const rounds = await startRoundServer(sim.url, quietMs);
  let wall: number;
  try {
    wall = await timed(runArgs(config, rounds.url, outputDir));
  } finally {
    await rounds.close();
    await sim.close();
  }
  const usage = rounds.usage();
  const chains = longestChains(outputDir);
  const calls = [...usage.calls.values()].reduce((a, b) => a + b, 0);
  const best = [...usage.calls].reduce(
    (sum, [model, n]) => sum + Math.max(Math.ceil(n / SLOTS), chains.get(model) ?? 0),
    0,
  );
  return {
    occupancy: calls / (SLOTS * usage.rounds),
    ofBound: best / usage.rounds,
    rounds: usage.rounds,
    best,
    calls,
    wall,
  };
}

async function mixedJob(dir: string): Promise<void> {
  const quietMs = Number(option('quiet-ms', '250'));
  const base = loadScenario(path.join(root, 'fixtures', 'simulator', 'demo.yml'));
  // No latency of its own: the round server sets the pace.
  const scenario: Scenario = {
    ...base,
    parallel: SLOTS,
    models: base.models.map((m) => ({ ...m, latencyMs: 0 })),
  };
  const config = path.join(root, 'fixtures', 'demo', 'model-gate.yml');
  // Fixed K, then adaptive sampling: its series alternate between the models as stages are
  // decided, which must not leave slots idle.
  const runs = [
    ['fixed K = 10', config],
    ['churn.sampling: adaptive', adaptiveConfig(dir, config)],
  ] as const;
  const measured: number[] = [];
  for (const [name, file] of runs) {
    const o = await occupancy(file, path.join(dir, `mixed-${measured.length}`), scenario, quietMs);
    measured.push(o.occupancy);
    console.log(
      `mixed job (demo config, ${name}, S = ${SLOTS}, rounds of at most S calls, quiet ${quietMs} ms): ` +
        `${o.calls} calls in ${o.rounds} rounds, slot occupancy ${o.occupancy.toFixed(3)}, ` +
        `${o.ofBound.toFixed(3)} of the chain-aware bound (${o.best} rounds; target ≥ 0.95) ` +
        `(${o.wall.toFixed(1)} s; load average ${(loadavg()[0] ?? 0).toFixed(2)})`,
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
