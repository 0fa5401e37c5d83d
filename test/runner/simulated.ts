/** Starting the simulator with the probe behaviour for runner and provider tests. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { tallyRequests } from '../../src/pipeline/tally.js';
import { OllamaProvider } from '../../src/providers/ollama.js';
import type { RequestTally } from '../../src/report/types.js';
import type { SampleRecord } from '../../src/sampleLog/index.js';
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

/** Per model, how a run's requests went (the report's tally, read from the run's records). */
export function requestsOf(
  result: { records: readonly SampleRecord[] },
  models: readonly string[],
  perturbedShare = 0.05,
): RequestTally[] {
  return tallyRequests(result.records, models, perturbedShare);
}
