/**
 * `npm run bench`: every benchmark, one after the other, each in its own process so that one
 * benchmark's warm caches and garbage do not flatter or penalise the next. Benchmarks print
 * ratios measured within one run (throughput against the ideal, exact against sampled), so
 * their figures compare across machines better than raw timings.
 *
 *   npm run bench [-- [runner throughput memory analysis churn embedded adaptive adaptiveDemo
 *     adaptiveMoving page inputs] [--flag value…]]
 *
 * Arguments that are not a benchmark's name go to each chosen benchmark (`npm run bench --
 * page --open 0.5`).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const all = [
  'runner',
  'throughput',
  'memory',
  'analysis',
  'churn',
  'embedded',
  'adaptive',
  'adaptiveDemo',
  'adaptiveMoving',
  'page',
  'inputs',
];
const args = process.argv.slice(2);
const chosen = args.filter((name) => all.includes(name));
const passed = args.filter((arg) => !all.includes(arg));
let failed = 0;
for (const name of chosen.length > 0 ? chosen : all) {
  process.stdout.write(`\n== bench/${name}.ts ==\n`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(here, `${name}.ts`), ...passed],
    {
      stdio: 'inherit',
    },
  );
  if (result.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
