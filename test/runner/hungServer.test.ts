/**
 * A server that hangs mid-run — it still accepts connections but answers nothing — must end
 * the run with exit 3 soon after, not turn every remaining call into two timeouts. The hang
 * is a loopback relay in front of the simulator that stops passing bytes when frozen.
 */
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { InfrastructureError } from '../../src/errors.js';
import { OllamaProvider } from '../../src/providers/ollama.js';
import type { SampleRecord } from '../../src/sampleLog/index.js';
import { runPlan } from '../../src/runner/run.js';
import { readSampleLogs } from '../../src/sampleLog/index.js';
import type { RunningSimulator } from '../../src/simulator/server.js';
import { probeUnits } from './probe.js';
import { simulate, tempLog } from './simulated.js';

interface Relay {
  url: string;
  freeze(): void;
  close(): Promise<void>;
}

async function relay(target: RunningSimulator): Promise<Relay> {
  let frozen = false;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, '127.0.0.1');
    sockets.add(client).add(upstream);
    client.on('data', (chunk) => {
      if (!frozen) upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!frozen) client.write(chunk);
    });
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      a.on('close', () => b.destroy());
      a.on('error', () => b.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    freeze: () => {
      frozen = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

let sim: RunningSimulator | null = null;
let hung: Relay | null = null;
afterEach(async () => {
  await hung?.close();
  await sim?.close();
  hung = null;
  sim = null;
});

it('ends with an infrastructure error when the server hangs, without recording its timeouts', async () => {
  sim = await simulate('models:\n  - name: base:1b\n    probe: {}\n');
  hung = await relay(sim);
  const frozen = hung;
  const units = probeUnits('base:1b', 40);
  const [first, second, ...rest] = units;
  if (!first || !second) throw new Error('expected units');
  // The second unit freezes the server before its call: it and every later call would hang.
  // It waits for the first unit's answer, so the server has answered once whatever the order
  // the runner starts them in, and however slow a loaded machine makes that first answer.
  let firstAnswered: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => {
    firstAnswered = resolve;
  });
  const answering = {
    ...first,
    execute: async (ctx: Parameters<typeof first.execute>[0]) => {
      try {
        await first.execute(ctx);
      } finally {
        firstAnswered();
      }
    },
  };
  const freezing = {
    ...second,
    execute: async (ctx: Parameters<typeof second.execute>[0]) => {
      await answered;
      frozen.freeze();
      await second.execute(ctx);
    },
  };
  const log = tempLog();
  const started = performance.now();
  const error = await runPlan({
    provider: new OllamaProvider({ host: hung.url, timeoutMs: 500, keepAlive: '5m' }),
    units: [answering, freezing, ...rest],
    models: ['base:1b'],
    logPath: log,
    retryDelayMs: 0,
    warmup: false,
  }).catch((e: unknown) => e);
  const elapsed = performance.now() - started;

  expect(error).toBeInstanceOf(InfrastructureError);
  expect((error as Error).message).toMatch(
    /stopped answering during the run: a request timed out and the server did not answer a status request either/,
  );
  // Two attempts and one status request of 500 ms each, with a wide margin; without the
  // status request the 38 remaining units would time out one after another (about 38 s).
  expect(elapsed).toBeLessThan(4000);
  const { records } = await readSampleLogs([log]);
  const calls = records.filter((r: SampleRecord) => r.kind === 'call');
  // Only the answer given before the hang; the hung call is asked again on resume.
  expect(calls.map((r) => [r.key, r.status])).toEqual([['probe-0', 'ok']]);
});
