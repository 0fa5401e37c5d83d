/**
 * Child process of the adaptive kill test: runs the churn plan of the config at argv[3]
 * (churn.sampling: adaptive, stages planned as answers arrive) against the simulator at
 * argv[2], and prints "done <n>" after each finished call so the parent can kill it mid-stage.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { loadConfig } from '../../src/config/load.js';
import { prepareJob } from '../../src/pipeline/prepare.js';
import { sampleLogPath } from '../../src/pipeline/run.js';
import { modelOrder } from '../../src/pipeline/checks.js';
import { runPlan } from '../../src/runner/run.js';
import { reportingProgress } from './runAndKill.js';

const [url, configFile] = process.argv.slice(2);
if (!url || !configFile) throw new Error('usage: killAdaptiveChild <simulator url> <config>');
const loaded = loadConfig({
  checks: CHECKS,
  file: configFile,
  env: {},
  overrides: [{ path: ['provider', 'host'], value: url, source: 'test' }],
});
const { ctx, units, growth, provider } = await prepareJob(loaded);
await runPlan({
  provider,
  units,
  growth,
  models: modelOrder(ctx),
  logPath: sampleLogPath({ loaded }),
  concurrency: 2,
  warmup: false,
  progress: reportingProgress(),
});
process.stdout.write('finished\n');
