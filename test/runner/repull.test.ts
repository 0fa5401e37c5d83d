/**
 * The weights under a model tag must stay the same for the whole run: a model re-pulled
 * mid-run (another digest) or removed (404 "model missing") stops the run as infrastructure
 * (exit 3), instead of mixing two sets of weights or sending hundreds of requests in vain.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ExitCode, InfrastructureError } from '../../src/errors.js';
import { type ModelMetadata, type Provider, ProviderFailure } from '../../src/providers/types.js';
import { runPlan } from '../../src/runner/run.js';
import { readSampleLogs } from '../../src/sampleLog/index.js';
import type { RunningSimulator } from '../../src/simulator/server.js';
import { probeUnits } from './probe.js';
import { ollamaFor, simulate, tempLog } from './simulated.js';

let sim: RunningSimulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

const BASE = 'base:1b';
const CAND = 'cand:1b';
const SCENARIO = `
models:
  - name: ${BASE}
    probe: {}
  - name: ${CAND}
    probe: {}
`;

/**
 * The simulator's provider, where `model` changes after `after` answered chats: re-pulled
 * (describe gives another digest) or removed (every chat and describe says model missing).
 */
function changing(inner: Provider, model: string, after: number, how: 'repull' | 'remove') {
  let answered = 0;
  const provider: Provider = Object.create(inner);
  provider.chat = async (request, signal, timeoutMs) => {
    if (request.model === model && answered >= after && how === 'remove') {
      throw new ProviderFailure('model-missing', `model "${model}" not found`, 404);
    }
    const response = await inner.chat(request, signal, timeoutMs);
    if (request.model === model) answered++;
    return response;
  };
  provider.describe = async (name: string): Promise<ModelMetadata> => {
    const meta = await inner.describe(name);
    if (name !== model || answered < after) return meta;
    if (how === 'remove')
      throw new ProviderFailure('model-missing', `model "${name}" not found`, 404);
    return { ...meta, digest: 'f'.repeat(64) };
  };
  return { provider, answered: () => answered };
}

async function stopped(run: Promise<unknown>): Promise<InfrastructureError> {
  const error = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(InfrastructureError);
  return error as InfrastructureError;
}

describe('a model that changes during the run', () => {
  it('re-pulled mid-series: the run stops at the end of the series, naming both digests', async () => {
    sim = await simulate(SCENARIO);
    const inner = ollamaFor(sim);
    const before = (await inner.describe(BASE)).digest as string;
    const log = tempLog();
    const { provider } = changing(inner, BASE, 3, 'repull');
    const error = await stopped(
      runPlan({
        provider,
        units: [...probeUnits(BASE, 6), ...probeUnits(CAND, 6)],
        models: [BASE, CAND],
        logPath: log,
        warmup: false,
      }),
    );
    expect(error.exitCode).toBe(ExitCode.infrastructure);
    expect(error.message).toBe(
      `${BASE} was re-pulled during the run: digest ${before.slice(0, 12)} → ffffffffffff`,
    );
    // The candidate's series never started: nothing measured against weights of unknown age.
    const { records } = await readSampleLogs([log]);
    expect(records.filter((r) => r.model === CAND)).toEqual([]);
    expect(records.filter((r) => r.model === BASE)).toHaveLength(6);
  });

  it('removed (404 after 3 answers): the run stops at once with the pull hint', async () => {
    sim = await simulate(SCENARIO);
    const log = tempLog();
    const inner = ollamaFor(sim);
    let sent = 0;
    const { provider } = changing(inner, BASE, 3, 'remove');
    const chat = provider.chat.bind(provider);
    provider.chat = (request, signal, timeoutMs) => {
      sent++;
      return chat(request, signal, timeoutMs);
    };
    const error = await stopped(
      runPlan({
        provider,
        units: [...probeUnits(BASE, 50), ...probeUnits(CAND, 50)],
        models: [BASE, CAND],
        logPath: log,
        concurrency: 2,
        warmup: false,
      }),
    );
    expect(error.message).toBe(
      `model '${BASE}' is not available on the server at ${inner.info.host}: it disappeared during the run`,
    );
    expect(error.hint).toContain(`ollama pull ${BASE}`);
    // 3 answers, then at most one failing request per worker: not 47 more.
    expect(sent).toBeLessThanOrEqual(5);
    const { records } = await readSampleLogs([log]);
    // The failed requests are not recorded as answers of the model: a rerun asks them again.
    expect(records.filter((r) => r.kind === 'call' && r.status === 'error')).toEqual([]);
  });

  it('an unchanged digest lets the run finish', async () => {
    sim = await simulate(SCENARIO);
    const result = await runPlan({
      provider: ollamaFor(sim),
      units: [...probeUnits(BASE, 3), ...probeUnits(CAND, 3)],
      models: [BASE, CAND],
      logPath: tempLog(),
      warmup: false,
    });
    expect(result.records).toHaveLength(6);
  });
});
