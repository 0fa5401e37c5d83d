/**
 * Acceptance check of run integrity: N kills (SIGKILL at random moments of a simulated CLI
 * run), each followed by a healthy rerun; every rerun's report.json must equal an
 * uninterrupted run's (timestamps and latencies aside).
 *
 *   node --import tsx scripts/kill-rerun.ts [trials=40] [parallel=2] [seed=1]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startSimulator } from '../src/simulator/server.js';
import {
  killTrials,
  readReport,
  runCli,
  warmUp,
  writeKillConfig,
} from '../test/support/killRerun.js';

const [trials = 40, parallel = 2, seed = 1] = process.argv.slice(2).map(Number);
const sim = await startSimulator({ port: 0, scenario: 'fixtures/simulator/demo.yml' });
try {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-kill-rerun-'));
  const config = writeKillConfig(dir);
  await warmUp(config, sim.url);
  const clean = await runCli(config, sim.url, path.join(dir, 'clean'));
  process.stdout.write(
    `uninterrupted run: exit ${clean.code}, ${Math.round(clean.activeMs)} ms after the first record\n`,
  );
  const results = await killTrials({
    config,
    host: sim.url,
    expected: readReport(path.join(dir, 'clean')),
    expectedCode: clean.code,
    trials,
    spanMs: clean.activeMs,
    seed,
    parallel,
  });
  for (const r of results) {
    process.stdout.write(
      `kill at ${Math.round(r.killAfterMs)} ms${r.killed ? '' : ' (ended before)'}, ${r.linesAtKill} log lines: rerun exit ${r.rerunCode}, report ${r.equal ? 'equal' : 'DIFFERENT'}\n${r.stderr}`,
    );
  }
  const killed = results.filter((r) => r.killed && r.linesAtKill > 0).length;
  const equal = results.filter((r) => r.equal).length;
  process.stdout.write(
    `${results.length} trials, ${killed} killed after the log had records, ${equal} reports equal to the uninterrupted run's\n`,
  );
  process.exitCode = equal === results.length ? 0 : 1;
} finally {
  await sim.close();
}
