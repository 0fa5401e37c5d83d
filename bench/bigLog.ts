/**
 * A churn job and its sample log, written directly (no model is asked): N items in D domains ×
 * (K stochastic samples + greedy) × 2 models. Each item has its own accuracy per model, drawn
 * from a seeded generator, and a share of items whose candidate accuracy moves, so the report
 * has items of every class. A share of answers are invalid.
 *
 *   npx tsx bench/bigLog.ts DIR ITEMS [--samples 15] [--method fisher-bh|rci]
 *
 * Writes DIR/items.jsonl, DIR/model-gate.yml and DIR/samples.jsonl; `model-gate analyze
 * --config DIR/model-gate.yml --log DIR/samples.jsonl --out DIR/out` analyses it.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRng } from '../src/stats/prng.js';

export const BIG_MODELS = ['bench-base:1b', 'bench-cand:1b'] as const;
const DIGESTS = ['sha256:' + 'a'.repeat(64), 'sha256:' + 'b'.repeat(64)];
const DOMAINS = 8;

export interface BigJob {
  items: number;
  /** K stochastic samples per item and model (the greedy sample comes beside them). */
  samples: number;
  method: 'fisher-bh' | 'rci';
}

/** The items file and config of the job; returns the config's path. */
export function writeBigJob(dir: string, job: BigJob): string {
  mkdirSync(dir, { recursive: true });
  let items = '';
  for (let i = 0; i < job.items; i++) {
    items += `${JSON.stringify({
      id: `q${i}`,
      domain: `d${i % DOMAINS}`,
      question: `Question ${i}: which letter is right?`,
      choices: ['first', 'second', 'third', 'fourth'],
      answer: 'ABCD'[i % 4],
    })}\n`;
  }
  writeFileSync(path.join(dir, 'items.jsonl'), items);
  const config = path.join(dir, 'model-gate.yml');
  writeFileSync(
    config,
    [
      `models:\n  baseline: ${BIG_MODELS[0]}\n  candidate: ${BIG_MODELS[1]}`,
      'checks: [churn]',
      'output:\n  dir: out',
      `churn:\n  items: items.jsonl\n  samples: ${job.samples}\n  method: ${job.method}`,
      '',
    ].join('\n'),
  );
  return config;
}

/**
 * The log a run of the job would write, with the prompt hash and options a run writes (read
 * from the plan of the config), so that every record counts. Returns the records written.
 */
export async function writeBigLog(config: string, logPath: string): Promise<number> {
  const { CHECKS } = await import('../src/checks/builtIn.js');
  const { loadConfig } = await import('../src/config/load.js');
  const { churnSlots } = await import('../src/checks/churn/plan.js');
  const { isChoiceItem, loadItemsFile } = await import('../src/checks/churn/items.js');
  const { recordedOptions, SAMPLE_LOG_VERSION } = await import('../src/sampleLog/index.js');
  const loaded = loadConfig({ checks: CHECKS, file: config, cwd: path.dirname(config), env: {} });
  const items = loadItemsFile(
    path.resolve(path.dirname(config), loaded.config.churn.items),
  ).items.filter(isChoiceItem);
  const rng = createRng(11);
  const fd = openSync(logPath, 'w');
  const models = BIG_MODELS.map((model, m) => ({
    model,
    digest: DIGESTS[m] as string,
    quantization: null,
    parameterSize: null,
    family: null,
    simulated: true,
  }));
  const run = {
    v: SAMPLE_LOG_VERSION,
    kind: 'run',
    startedAt: new Date(0).toISOString(),
    toolVersion: 'bench',
    provider: { provider: 'ollama', host: 'http://127.0.0.1:1', version: 'bench', simulated: true },
    models,
    loadedBefore: [],
    shard: null,
    warnings: [],
  };
  writeSync(fd, `${JSON.stringify(run)}\n`);
  // Per item: the baseline's accuracy, and the candidate's (moved on one item in ten).
  const accuracy = items.map(() => {
    const base = rng.next();
    const moved = rng.next() < 0.1;
    return [base, moved ? Math.min(1, Math.max(0, base + (rng.next() - 0.5) * 1.2)) : base];
  });
  const index = new Map(items.map((item, i) => [item.id, i]));
  let written = 0;
  for (const [m, model] of BIG_MODELS.entries()) {
    let batch = '';
    for (const slot of churnSlots(items, loaded.config, model)) {
      const p = accuracy[index.get(slot.item.id) as number]?.[m] as number;
      const invalid = rng.next() < 0.005;
      const right = rng.next() < p;
      const correct = slot.item.kind === 'open' ? 'A' : slot.item.answer;
      const answer = right ? correct : ('ABCD'['ABCD'.indexOf(correct) ^ 1] as string);
      const record = {
        v: SAMPLE_LOG_VERSION,
        kind: 'call',
        check: 'churn',
        model,
        digest: DIGESTS[m],
        key: slot.key,
        sample: slot.sample,
        options: recordedOptions(slot.spec.request.options),
        prompt_sha256: slot.spec.promptSha256,
        status: invalid ? 'invalid' : 'ok',
        latency_ms: 1 + (written % 7),
        prompt_tokens: 120,
        completion_tokens: 8,
        attempts: 1,
        item: slot.item.id,
        domain: slot.item.domain,
        mode: slot.mode,
        answer: invalid ? null : answer,
        correct: invalid ? null : answer === correct,
      };
      batch += `${JSON.stringify(record)}\n`;
      written++;
      if (batch.length > 1 << 20) {
        writeSync(fd, batch);
        batch = '';
      }
    }
    writeSync(fd, batch);
  }
  closeSync(fd);
  return written;
}

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dir, n] = process.argv.slice(2);
  if (!dir || !n) throw new Error('usage: npx tsx bench/bigLog.ts DIR ITEMS [--samples K]');
  const job: BigJob = {
    items: Number(n),
    samples: Number(flag('samples') ?? 15),
    method: flag('method') === 'rci' ? 'rci' : 'fisher-bh',
  };
  const config = writeBigJob(dir, job);
  const written = await writeBigLog(config, path.join(dir, 'samples.jsonl'));
  console.log(`${written} records in ${path.join(dir, 'samples.jsonl')}`);
}
