import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { CheckList } from '../checks/list.js';
import { loadConfig } from '../config/load.js';
import { startSimulator } from '../simulator/server.js';
import { packageRoot, scenarioPath } from '../packageRoot.js';
import { ensureWritableFolder } from './outputFolder.js';
import { runJob } from './run.js';
import type { JobOutcome } from './types.js';

export const DEMO_SCENARIOS = {
  /** The candidate gains overall but loses law, grows overconfident, merges two assistants. */
  demo: { candidate: 'demo-cand:1b', expected: 'fail' },
  /** Two tags with identical scripted behaviour: a clean pass. */
  aa: { candidate: 'demo-twin:1b', expected: 'pass' },
} as const;
export type DemoScenario = keyof typeof DEMO_SCENARIOS;

export interface DemoOptions {
  checks: CheckList;
  scenario: DemoScenario;
  outDir: string;
  signal?: AbortSignal;
  progress?: NodeJS.WritableStream;
  interactive?: boolean;
}

export interface DemoOutcome extends JobOutcome {
  simulatorUrl: string;
}

/**
 * The whole job against the simulator, started in-process on a free loopback port. A fresh
 * sample log each time: the demo shows a run, not a resume.
 */
export async function runDemo(options: DemoOptions): Promise<DemoOutcome> {
  await ensureWritableFolder(path.resolve(options.outDir));
  const simulator = await startSimulator({
    port: 0,
    host: '127.0.0.1',
    scenario: scenarioPath(options.scenario),
  });
  try {
    const outDir = path.resolve(options.outDir);
    const logPath = path.join(outDir, 'samples.jsonl');
    await rm(logPath, { force: true });
    const loaded = loadConfig({
      checks: options.checks,
      file: path.join(packageRoot(), 'fixtures', 'demo', 'model-gate.yml'),
      env: {},
      overrides: [
        { path: ['provider', 'host'], value: simulator.url, source: 'the demo' },
        {
          path: ['models', 'candidate'],
          value: DEMO_SCENARIOS[options.scenario].candidate,
          source: 'the demo',
        },
        { path: ['output', 'dir'], value: outDir, source: 'the demo' },
        { path: ['output', 'log'], value: logPath, source: 'the demo' },
      ],
    });
    const outcome = await runJob({
      loaded,
      startsOver: true,
      signal: options.signal,
      progress: options.progress,
      interactive: options.interactive,
    });
    return { ...outcome, simulatorUrl: simulator.url };
  } finally {
    await simulator.close();
  }
}
