/**
 * Analysis benchmark (not a test): `model-gate analyze` of generated churn logs of growing
 * size (bench/bigLog.ts: N items × (K = 15 + greedy) × 2 models, fixed sampling, Fisher + BH),
 * each in its own process under `/usr/bin/time -v`: wall time, CPU time and peak resident
 * memory, and the ratio of each size's wall time to the smallest one's (linear cost: the
 * ratio of the item counts).
 *
 * The logs are written into a temporary folder and removed afterwards (50,000 items: 1.6M
 * records, about 810 MB). Uses dist/cli.js, or BENCH_CLI (see cliCommand.ts).
 *
 *   npm run bench -- analysis [--items 5000,50000]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { type BigJob, writeBigJob, writeBigLog } from './bigLog.js';
import { cliCommand } from './cliCommand.js';

interface Measured {
  wallS: number;
  cpuS: number;
  peakMb: number;
}

function sizes(): number[] {
  const at = process.argv.indexOf('--items');
  const text = at >= 0 ? (process.argv[at + 1] ?? '') : '5000,50000';
  return text.split(',').map(Number);
}

function timed(args: readonly string[], cwd: string): Promise<Measured> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-v', process.execPath, ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      const field = (name: string): number =>
        Number(new RegExp(`${name}: ([\\d.]+)`).exec(stderr)?.[1] ?? Number.NaN);
      if (code !== 0) {
        reject(new Error(`analyze exited ${code}: ${stderr.slice(-3000)}`));
        return;
      }
      resolve({
        wallS: (performance.now() - started) / 1000,
        cpuS: field('User time \\(seconds\\)') + field('System time \\(seconds\\)'),
        peakMb: field('Maximum resident set size \\(kbytes\\)') / 1024,
      });
    });
  });
}

async function main(): Promise<void> {
  const root = mkdtempSync(path.join(tmpdir(), 'model-gate-analysis-'));
  const cli = cliCommand();
  const results: { items: number; m: Measured }[] = [];
  try {
    for (const items of sizes()) {
      const dir = path.join(root, String(items));
      const job: BigJob = { items, samples: 15, method: 'fisher-bh' };
      const config = writeBigJob(dir, job);
      const log = path.join(dir, 'samples.jsonl');
      const records = await writeBigLog(config, log);
      const args = [...cli, 'analyze', '--config', config, '--log', log, '--out'];
      const m = await timed([...args, path.join(dir, 'out'), '--fail-on', 'never'], dir);
      rmSync(log);
      results.push({ items, m });
      const first = results[0] as { items: number; m: Measured };
      console.log(
        `${items} items (${records} records): wall ${m.wallS.toFixed(1)} s, CPU ${m.cpuS.toFixed(1)} s, ` +
          `peak RSS ${m.peakMb.toFixed(0)} MB; wall ÷ ${first.items} items' = ` +
          `${(m.wallS / first.m.wallS).toFixed(2)} (items ${(items / first.items).toFixed(1)}×; ` +
          `load average ${loadavg()[0]?.toFixed(2)})`,
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
