/**
 * Child process of the kill test: runs a probe plan against the simulator at argv[2],
 * logging to argv[3], and prints "done <n>" after each finished call so the parent can kill
 * it at a known point.
 */
import { OllamaProvider } from '../../src/providers/ollama.js';
import { runPlan } from '../../src/runner/run.js';
import { reportingProgress } from './runAndKill.js';
import { KILL_MODELS, killPlan } from './killPlan.js';

const [url, logPath] = process.argv.slice(2);
if (!url || !logPath) throw new Error('usage: killChild <simulator url> <log path>');
await runPlan({
  provider: new OllamaProvider({ host: url, timeoutMs: 5000, keepAlive: '5m' }),
  units: killPlan(),
  models: KILL_MODELS,
  logPath,
  concurrency: 2,
  warmup: false,
  progress: reportingProgress(),
});
process.stdout.write('finished\n');
