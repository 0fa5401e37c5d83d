import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { InfrastructureError } from '../../src/errors.js';
import { OpenAIProvider } from '../../src/providers/openai.js';
import type { SampleRecord } from '../../src/sampleLog/index.js';
import { runPlan } from '../../src/runner/run.js';
import { readSampleLogs } from '../../src/sampleLog/index.js';
import type { RunningSimulator } from '../../src/simulator/server.js';
import { expectedLetter, probeKey, probeUnits } from './probe.js';
import { ollamaFor, requestsOf, simulate, tempLog } from './simulated.js';
import type { ChurnCallRecord } from '../../src/checks/churn/records.js';

let sim: RunningSimulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

const BASE = 'base:1b';
const CAND = 'cand:1b';
const calls = (records: readonly SampleRecord[]): ChurnCallRecord[] =>
  records.filter((r): r is ChurnCallRecord => r.kind === 'call' && r.check === 'churn');

/** Two models answering probes; `extra` is appended to the candidate's entry. */
function twoModels(extra = '', top = ''): string {
  return `${top}
models:
  - name: ${BASE}
    probe: {}
  - name: ${CAND}
    probe: {}
${extra}`;
}

describe('runPlan against the simulator (real ollama client over loopback)', () => {
  it('runs model-major after one warm-up per model and records every answer', async () => {
    sim = await simulate(twoModels());
    const log = tempLog();
    // Units interleaved on purpose: the runner must still finish one model before the other.
    const units = [...probeUnits(CAND, 3), ...probeUnits(BASE, 3)];
    const result = await runPlan({
      provider: ollamaFor(sim),
      units,
      models: [BASE, CAND],
      logPath: log,
      concurrency: 2,
    });
    const stats = sim.stats();
    // 3 probes + 1 warm-up per model, baseline's four before candidate's four.
    expect(stats.order).toEqual([...Array(4).fill(BASE), ...Array(4).fill(CAND)]);
    expect(stats.loads).toBe(2);
    expect(result.calls).toBe(6);
    expect(result.cancelled).toBe(false);
    expect(result.server).toMatchObject({ provider: 'ollama', simulated: true });
    expect(result.server.version).toContain('simulated');
    expect(result.models.map((m) => m.model)).toEqual([BASE, CAND]);
    expect(result.models[0]?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(
      requestsOf(result, [BASE, CAND]).map((t) => [t.model, t.total, t.ok, t.perturbed]),
    ).toEqual([
      [BASE, 3, 3, false],
      [CAND, 3, 3, false],
    ]);
    const logged = await readSampleLogs([log]);
    expect(logged.runs).toHaveLength(1);
    const records = calls(logged.records);
    expect(records).toHaveLength(6);
    for (const r of records) {
      const index = Number(r.key.replace('probe-', ''));
      expect(r.answer).toBe(expectedLetter(r.model, index));
      expect(r.digest).toBe(result.models.find((m) => m.model === r.model)?.digest);
      expect(r.attempts).toBe(1);
    }
  });

  it('lets the warm-up absorb the model load, which would time out a counted call', async () => {
    // Loading takes 900 ms, a request may take 300 ms; the warm-up may take 2 s.
    sim = await simulate(`load-ms: 900\n${twoModels()}`);
    const options = { units: probeUnits(BASE, 2), models: [BASE], retries: 0, timeoutMs: 300 };
    const warm = await runPlan({
      ...options,
      provider: ollamaFor(sim),
      logPath: tempLog(),
      warmupTimeoutMs: 2000,
    });
    expect(requestsOf(warm, [BASE])[0]).toMatchObject({ total: 2, ok: 2, timeout: 0 });
    await sim.close();
    sim = await simulate(`load-ms: 900\n${twoModels()}`);
    const cold = await runPlan({
      ...options,
      provider: ollamaFor(sim),
      logPath: tempLog(),
      warmup: false,
    });
    expect(requestsOf(cold, [BASE])[0]).toMatchObject({ total: 2, ok: 1, timeout: 1 });
  });

  it('keeps at most `concurrency` requests on the server and uses them all', async () => {
    // 50 ms per answer, so three requests sent together overlap even on a busy machine.
    const slow = twoModels().replace('probe: {}', 'probe: {}\n    latency-ms: 50');
    sim = await simulate(`parallel: 4\n${slow}`);
    await runPlan({
      provider: ollamaFor(sim),
      units: probeUnits(BASE, 6),
      models: [BASE],
      logPath: tempLog(),
      concurrency: 3,
      warmup: false,
    });
    expect(sim.stats().maxInFlight).toBe(3);
  });

  it('retries once after a 503 and records the success with attempts 2', async () => {
    sim = await simulate(twoModels('    faults: [{kind: status, status: 503, attempts: [1]}]'));
    const result = await runPlan({
      provider: ollamaFor(sim),
      units: probeUnits(CAND, 2),
      models: [CAND],
      logPath: tempLog(),
      retryDelayMs: 0,
      warmup: false,
    });
    expect(calls(result.records).map((r) => [r.status, r.attempts])).toEqual([
      ['ok', 2],
      ['ok', 2],
    ]);
    expect(sim.stats().requests[CAND]).toBe(4);
  });

  it.each([
    ['a dropped connection', '{kind: drop}', 'connection-reset'],
    ['an error line mid-stream', '{kind: mid-stream-error}', 'connection-reset'],
    ['a timeout', '{kind: latency, ms: 400}', 'timeout'],
  ])('retries once after %s, then records the failure', async (_, fault, kind) => {
    sim = await simulate(twoModels(`    faults: [${fault}]`));
    const result = await runPlan({
      provider: ollamaFor(sim, 150),
      units: probeUnits(CAND, 1),
      models: [CAND],
      logPath: tempLog(),
      retryDelayMs: 0,
      warmup: false,
    });
    const [record] = calls(result.records);
    expect(record?.status).toBe(kind === 'timeout' ? 'timeout' : 'error');
    expect(record?.attempts).toBe(2);
    expect(record?.reason).toMatch(new RegExp(`^${kind}: .*\\(2 attempts\\)$`));
    expect(sim.stats().requests[CAND]).toBe(2);
  });

  it.each([
    ['a 500 error', '{kind: status, status: 500}', /^server-error: 500 /],
    ['malformed JSON', '{kind: malformed-json}', /^server-error: malformed JSON/],
    ['a 400 error', '{kind: status, status: 400}', /^bad-request: 400 /],
  ])('does not retry %s', async (_, fault, reason) => {
    sim = await simulate(twoModels(`    faults: [${fault}]`));
    const result = await runPlan({
      provider: ollamaFor(sim),
      units: probeUnits(CAND, 1),
      models: [CAND],
      logPath: tempLog(),
      retryDelayMs: 0,
      warmup: false,
    });
    const [record] = calls(result.records);
    expect(record?.status).toBe('error');
    expect(record?.attempts).toBe(1);
    expect(record?.reason).toMatch(reason);
  });

  it('hands empty thinking-only content to the unit, which records it invalid', async () => {
    sim = await simulate(twoModels('    faults: [{kind: thinking-only}]'));
    const result = await runPlan({
      provider: ollamaFor(sim),
      units: probeUnits(CAND, 1),
      models: [CAND],
      logPath: tempLog(),
      warmup: false,
    });
    expect(calls(result.records).map((r) => [r.status, r.answer])).toEqual([['invalid', null]]);
    expect(requestsOf(result, [CAND]).find((t) => t.model === CAND)?.invalid).toBe(1);
  });

  it('marks a model perturbed when timeouts exceed the share', async () => {
    // Probe 0 always times out: 1 timeout of 4 calls = 25% > 20%.
    sim = await simulate(twoModels('    faults: [{kind: latency, ms: 1500, requests: [1, 2]}]'));
    const result = await runPlan({
      provider: ollamaFor(sim, 400),
      units: probeUnits(CAND, 4),
      models: [CAND],
      logPath: tempLog(),
      retryDelayMs: 0,
      warmup: false,
    });
    const tally = requestsOf(result, [CAND], 0.2)[0];
    expect(tally).toMatchObject({ total: 4, ok: 3, timeout: 1, perturbed: true });
  });

  it('resumes: skips what the log holds and redoes error records', async () => {
    sim = await simulate(twoModels('    faults: [{kind: status, status: 500, requests: [2]}]'));
    const log = tempLog();
    const options = {
      provider: ollamaFor(sim),
      units: probeUnits(CAND, 3),
      models: [CAND],
      logPath: log,
      warmup: false,
    };
    const first = await runPlan(options);
    expect(calls(first.records).map((r) => r.status)).toEqual(['ok', 'error', 'ok']);
    const second = await runPlan(options);
    expect(second.units).toEqual({ planned: 3, skipped: 2, executed: 1 });
    expect(second.calls).toBe(1);
    expect(sim.stats().requests[CAND]).toBe(4);
    const logged = await readSampleLogs([log]);
    // The record that counts stands where it was written: the retried one last.
    expect(calls(logged.records).map((r) => [r.key, r.status])).toEqual([
      [probeKey(0), 'ok'],
      [probeKey(2), 'ok'],
      [probeKey(1), 'ok'],
    ]);
    expect(requestsOf(second, [CAND])[0]).toMatchObject({ total: 3, ok: 3, error: 0 });
  });

  it('does not count records of another digest as done (same tag, different model)', async () => {
    sim = await simulate(twoModels());
    const log = tempLog();
    const options = { units: probeUnits(CAND, 2), models: [CAND], logPath: log, warmup: false };
    await runPlan({ ...options, provider: ollamaFor(sim) });
    await sim.close();
    sim = await simulate(
      twoModels().replace(`name: ${CAND}`, `name: ${CAND}\n    digest: ${'a'.repeat(64)}`),
    );
    const again = await runPlan({ ...options, provider: ollamaFor(sim) });
    expect(again.units.executed).toBe(2);
    expect(calls(again.records).every((r) => r.digest === 'a'.repeat(64))).toBe(true);
  });

  it('runs only its shard, and the shards together cover the plan once', async () => {
    sim = await simulate(twoModels());
    const units = [...probeUnits(BASE, 5), ...probeUnits(CAND, 5)];
    const seen: string[] = [];
    for (let index = 1; index <= 3; index++) {
      const result = await runPlan({
        provider: ollamaFor(sim),
        units,
        models: [BASE, CAND],
        logPath: tempLog(),
        shard: { index, count: 3 },
        warmup: false,
      });
      expect(result.shard).toBe(`${index}/3`);
      seen.push(...calls(result.records).map((r) => `${r.model}/${r.key}`));
    }
    expect(seen.sort()).toEqual(units.map((u) => `${u.model}/${u.key}`).sort());
  });

  it('alternates the models block by block when asked, the same items in each block', async () => {
    sim = await simulate(twoModels());
    const log = tempLog();
    const units = [...probeUnits(BASE, 5), ...probeUnits(CAND, 5)];
    await runPlan({
      provider: ollamaFor(sim),
      units,
      models: [BASE, CAND],
      logPath: log,
      concurrency: 1,
      warmup: false,
      blocks: 2,
    });
    const logged = await readSampleLogs([log]);
    // Five units in blocks of three: 0–2 of each model, then 3–4 of each.
    expect(calls(logged.records).map((r) => `${r.model === BASE ? 'b' : 'c'}${r.key}`)).toEqual([
      'bprobe-0',
      'bprobe-1',
      'bprobe-2',
      'cprobe-0',
      'cprobe-1',
      'cprobe-2',
      'bprobe-3',
      'bprobe-4',
      'cprobe-3',
      'cprobe-4',
    ]);
  });

  it('starts the longest units first within a model, equal ones in plan order', async () => {
    sim = await simulate(twoModels());
    const log = tempLog();
    // Probes 1 and 3 claim to be long (a maze game's estimate); each still makes one call.
    const units = probeUnits(BASE, 5).map((u, i) =>
      i === 1 ? { ...u, estimatedCalls: 20 } : i === 3 ? { ...u, estimatedCalls: 50 } : u,
    );
    await runPlan({
      provider: ollamaFor(sim),
      units,
      models: [BASE],
      logPath: log,
      concurrency: 1,
      warmup: false,
    });
    const logged = await readSampleLogs([log]);
    expect(calls(logged.records).map((r) => r.key)).toEqual([
      'probe-3',
      'probe-1',
      'probe-0',
      'probe-2',
      'probe-4',
    ]);
  });

  it('drives an OpenAI-compatible server the same way: retry, unknown digest, resume', async () => {
    sim = await simulate(twoModels('    faults: [{kind: status, status: 503, attempts: [1]}]'));
    const log = tempLog();
    const options = {
      provider: new OpenAIProvider({ host: sim.url, apiKey: 'x', timeoutMs: 2000 }),
      units: probeUnits(CAND, 2),
      models: [CAND],
      logPath: log,
      retryDelayMs: 0,
    };
    const first = await runPlan(options);
    expect(first.server).toMatchObject({ provider: 'openai', version: null, simulated: true });
    expect(first.models[0]).toMatchObject({ digest: null, quantization: null, simulated: true });
    expect(calls(first.records).map((r) => [r.status, r.attempts, r.digest])).toEqual([
      ['ok', 2, null],
      ['ok', 2, null],
    ]);
    for (const r of calls(first.records)) {
      expect(r.answer).toBe(expectedLetter(CAND, Number(r.key.replace('probe-', ''))));
    }
    const again = await runPlan(options);
    expect(again.units).toEqual({ planned: 2, skipped: 2, executed: 0 });
  });

  it('fails with an infrastructure error when the server is unreachable', async () => {
    sim = await simulate(twoModels());
    const provider = ollamaFor(sim);
    await sim.close();
    sim = null;
    const error = await runPlan({
      provider,
      units: probeUnits(BASE, 1),
      models: [BASE],
      logPath: tempLog(),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as InfrastructureError).exitCode).toBe(3);
    expect((error as InfrastructureError).message).toMatch(/cannot reach the model server/);
  });

  it('fails before any call when a model is missing, with the pull command', async () => {
    sim = await simulate(twoModels());
    const log = tempLog();
    const error = await runPlan({
      provider: ollamaFor(sim),
      units: [...probeUnits(BASE, 1), ...probeUnits('absent:7b', 1)],
      models: [BASE, 'absent:7b'],
      logPath: log,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as InfrastructureError).hint).toBe('ollama pull absent:7b');
    expect((error as InfrastructureError).message).toBe(
      `model 'absent:7b' is not available on the server at ${sim.url}; it has: base:1b, cand:1b`,
    );
    expect(sim.stats().order).toEqual([]);
  });

  it('names the tag meant when a missing one is a typo away, listing the nearest first', async () => {
    sim = await simulate(twoModels());
    const tried = async (model: string) =>
      (await runPlan({
        provider: ollamaFor(sim as RunningSimulator),
        units: probeUnits(model, 1),
        models: [model],
        logPath: tempLog(),
      }).catch((e: unknown) => e)) as InfrastructureError;
    const typo = await tried('cnad:1b');
    expect(typo.message).toBe(
      `model 'cnad:1b' is not available on the server at ${sim.url}; it has: cand:1b, base:1b`,
    );
    expect(typo.hint).toBe('did you mean cand:1b? correct models.baseline / models.candidate');
    // The model under another tag is named too: "base" is base:latest, which the server lacks.
    expect((await tried('base')).hint).toBe(
      'did you mean base:1b? correct models.baseline / models.candidate',
    );
    expect(sim.stats().order).toEqual([]);
  });

  it('ends with an infrastructure error when the server goes away mid-run, keeping finished records', async () => {
    sim = await simulate(twoModels());
    const provider = ollamaFor(sim);
    const units = probeUnits(BASE, 4);
    const running = sim;
    // The second unit shuts the server down before its call.
    const [first, second, ...rest] = units;
    if (!first || !second) throw new Error('expected units');
    const closing = {
      ...second,
      execute: async (ctx: Parameters<typeof second.execute>[0]) => {
        await running.close();
        await second.execute(ctx);
      },
    };
    const log = tempLog();
    const error = await runPlan({
      provider,
      units: [first, closing, ...rest],
      models: [BASE],
      logPath: log,
      retryDelayMs: 0,
      warmup: false,
    }).catch((e: unknown) => e);
    sim = null;
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as Error).message).toMatch(/stopped answering/);
    const logged = await readSampleLogs([log]);
    expect(calls(logged.records).map((r) => [r.key, r.status])).toEqual([[probeKey(0), 'ok']]);
  });

  it('warns when another model occupies the server', async () => {
    sim = await simulate(`loaded: [someone-else:70b]\n${twoModels()}`);
    const result = await runPlan({
      provider: ollamaFor(sim),
      units: probeUnits(BASE, 1),
      models: [BASE],
      logPath: tempLog(),
      warmup: false,
    });
    expect(result.loadedBefore).toEqual(['someone-else:70b']);
    expect(result.warnings.join('\n')).toMatch(
      /another model is loaded on the server \(someone-else:70b\)/,
    );
  });

  it('stops on cancel: resolves cancelled, keeps the log readable, and a rerun completes it', async () => {
    sim = await simulate(twoModels().replace('probe: {}', 'probe: {}\n    latency-ms: 30'));
    const log = tempLog();
    const controller = new AbortController();
    const units = probeUnits(BASE, 10);
    let done = 0;
    const result = await runPlan({
      provider: ollamaFor(sim),
      units,
      models: [BASE],
      logPath: log,
      warmup: false,
      signal: controller.signal,
      progress: {
        start() {},
        advance() {
          if (++done === 3) controller.abort();
        },
        finish() {},
      },
    });
    expect(result.cancelled).toBe(true);
    expect(calls(result.records)).toHaveLength(3);
    const rerun = await runPlan({
      provider: ollamaFor(sim),
      units,
      models: [BASE],
      logPath: log,
      warmup: false,
    });
    expect(rerun.units).toEqual({ planned: 10, skipped: 3, executed: 7 });
    expect(calls((await readSampleLogs([log])).records)).toHaveLength(10);
  });

  it('warns when a request would change num_ctx (a reload on Ollama)', async () => {
    sim = await simulate(twoModels());
    const result = await runPlan({
      provider: ollamaFor(sim),
      units: probeUnits(BASE, 2),
      models: [BASE],
      logPath: tempLog(),
      numCtx: 8192,
    });
    expect(result.warnings.join('\n')).toMatch(/num_ctx 4096 while the run pins 8192/);
    // Warm-up at 8192, then the probes at 4096: the simulator reloads once more.
    expect(sim.stats().loads).toBe(2);
  });

  it('removes a line cut short by a kill before appending', async () => {
    sim = await simulate(twoModels());
    const log = tempLog();
    const options = {
      provider: ollamaFor(sim),
      units: probeUnits(BASE, 2),
      models: [BASE],
      logPath: log,
      warmup: false,
    };
    await runPlan({ ...options, units: probeUnits(BASE, 1) });
    writeFileSync(log, `${readFileSync(log, 'utf8')}{"v":1,"kind":"call","che`);
    const result = await runPlan(options);
    expect(result.warnings.join('\n')).toMatch(/incomplete last line/);
    expect(calls((await readSampleLogs([log])).records)).toHaveLength(2);
  });
});
