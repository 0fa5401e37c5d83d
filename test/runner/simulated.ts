/** Starting the simulator with the probe behaviour for runner and provider tests. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { OllamaProvider } from '../../src/providers/ollama.js';
import { parseScenario } from '../../src/simulator/scenario.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { probeBehaviour } from './probe.js';

export async function simulate(yaml: string): Promise<RunningSimulator> {
  const scenario = parseScenario(yaml, 'test scenario', [probeBehaviour]);
  return startSimulator({ scenario, behaviours: [probeBehaviour] });
}

export function ollamaFor(sim: RunningSimulator, timeoutMs = 2000): OllamaProvider {
  return new OllamaProvider({ host: sim.url, timeoutMs, keepAlive: '5m' });
}

export function tempLog(): string {
  return path.join(mkdtempSync(path.join(tmpdir(), 'model-gate-runner-')), 'samples.jsonl');
}
