/**
 * Runner benchmark (not a test): the simulator with a fixed latency L and S parallel slots,
 * the runner at concurrency S. A runner that keeps every slot busy reaches S / L requests per
 * second; the figure printed is throughput / (S / L), the target ≥ 0.95. Throughput is timed
 * from the first call to the last answer, and includes the client's per-request overhead and
 * the simulator's (request parsing, streaming the chunks), as a real server's would. Also printed: the
 * runner's own CPU time per request (client, HTTP, log writing), measured in this process
 * while the simulator runs in a child process so its work is not counted.
 *
 *   npx tsx bench/runner.ts [L in ms, default 200]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OllamaProvider } from '../src/providers/ollama.js';
import { SAMPLE_LOG_VERSION } from '../src/sampleLog/index.js';
import { runPlan } from '../src/runner/run.js';
import type { WorkUnit } from '../src/checks/workUnit.js';
import { parseScenario } from '../src/simulator/scenario.js';
import { startSimulator } from '../src/simulator/server.js';

const MODEL = 'bench:1b';
/** A short structured answer from a small model on a GPU takes about this long. */
const DEFAULT_LATENCY_MS = 200;
/** Twenty rounds of S requests each: about 20 × L seconds per setting. */
const SLOTS = [1, 4, 8];
const ROUNDS = 20;

export interface RunnerBenchResult {
  slots: number;
  latencyMs: number;
  requests: number;
  seconds: number;
  /** Throughput divided by the ideal S / L. */
  efficiency: number;
  cpuMsPerRequest: number;
}

function units(count: number): WorkUnit[] {
  return Array.from({ length: count }, (_, i) => ({
    check: 'churn' as const,
    model: MODEL,
    key: `bench-${i}`,
    expectedCalls: 1,
    isComplete: () => false,
    async execute(ctx) {
      const options = { temperature: 0.7, seed: i, numCtx: 4096, numPredict: 16, think: false };
      const outcome = await ctx.call({
        request: { model: MODEL, messages: [{ role: 'user', content: `question ${i}` }], options },
        promptSha256: '0'.repeat(64),
      });
      await ctx.emit({
        v: SAMPLE_LOG_VERSION,
        kind: 'call',
        check: 'churn',
        model: MODEL,
        digest: ctx.digest,
        key: `bench-${i}`,
        sample: 0,
        options: { temperature: 0.7, seed: i, num_ctx: 4096, num_predict: 16, think: false },
        prompt_sha256: '0'.repeat(64),
        status: outcome.status,
        latency_ms: Math.round(outcome.latencyMs),
        attempts: outcome.attempts,
        item: `q${i}`,
        domain: 'bench',
        mode: 'stochastic',
        answer: outcome.response ? 'A' : null,
        correct: null,
      });
    },
  }));
}

/** Starts this file as a simulator in a child process; resolves with its URL. */
function startSimulatorProcess(
  slots: number,
  latencyMs: number,
): Promise<{ url: string; child: ChildProcess }> {
  const self = fileURLToPath(import.meta.url);
  const args = ['--import', 'tsx', self, '--serve', String(slots), String(latencyMs)];
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.stdout?.once('data', (chunk: Buffer) => resolve({ url: chunk.toString().trim(), child }));
  });
}

async function serve(slots: number, latencyMs: number): Promise<void> {
  const scenario = parseScenario(
    `parallel: ${slots}\nmax-queue: 100000\nmodels:\n  - name: ${MODEL}\n    latency-ms: ${latencyMs}\n`,
    'bench scenario',
  );
  const sim = await startSimulator({ scenario });
  process.stdout.write(`${sim.url}\n`);
}

export async function benchRunner(latencyMs = DEFAULT_LATENCY_MS): Promise<RunnerBenchResult[]> {
  const results: RunnerBenchResult[] = [];
  for (const slots of SLOTS) {
    const requests = slots * ROUNDS;
    const { url, child } = await startSimulatorProcess(slots, latencyMs);
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-bench-'));
    try {
      const provider = new OllamaProvider({ host: url, timeoutMs: 30_000, keepAlive: '5m' });
      const common = { provider, models: [MODEL], concurrency: slots, warmup: false };
      // A short unmeasured pass opens the connections and compiles the hot paths.
      await runPlan({ ...common, units: units(slots * 2), logPath: path.join(dir, 'warm.jsonl') });
      // Timed from the first call to the last: the preflight (server and model checks) is a
      // fixed cost per run, not part of the steady rate.
      let cpuBefore = process.cpuUsage();
      let started = 0;
      let ended = 0;
      await runPlan({
        ...common,
        units: units(requests),
        logPath: path.join(dir, 'run.jsonl'),
        progress: {
          start() {
            cpuBefore = process.cpuUsage();
            started = performance.now();
          },
          advance() {
            ended = performance.now();
          },
          finish() {},
        },
      });
      const seconds = (ended - started) / 1000;
      const cpu = process.cpuUsage(cpuBefore);
      const ideal = slots / (latencyMs / 1000);
      results.push({
        slots,
        latencyMs,
        requests,
        seconds,
        efficiency: requests / seconds / ideal,
        cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / requests,
      });
    } finally {
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return results;
}

export function formatRunnerBench(results: readonly RunnerBenchResult[]): string {
  const lines = ['runner: throughput / (S/L) at concurrency S (target ≥ 0.95), CPU per request'];
  for (const r of results) {
    lines.push(
      `  S=${r.slots} L=${r.latencyMs} ms, ${r.requests} requests in ${r.seconds.toFixed(2)} s: ` +
        `${(r.requests / r.seconds).toFixed(1)}/s of ${(r.slots / (r.latencyMs / 1000)).toFixed(0)}/s ideal, ` +
        `efficiency ${r.efficiency.toFixed(3)}${r.efficiency >= 0.95 ? '' : ' (below target)'}, ` +
        `runner CPU ${r.cpuMsPerRequest.toFixed(2)} ms/request`,
    );
  }
  return lines.join('\n');
}

const invokedDirectly = process.argv[1] === fileURLToPath(import.meta.url);
if (invokedDirectly && process.argv[2] === '--serve') {
  await serve(Number(process.argv[3] ?? 1), Number(process.argv[4] ?? DEFAULT_LATENCY_MS));
} else if (invokedDirectly) {
  const latency = process.argv[2] ? Number(process.argv[2]) : DEFAULT_LATENCY_MS;
  console.log(formatRunnerBench(await benchRunner(latency)));
}
