/**
 * Golden fixtures: small sample logs written by a release, and the report its `analyze` makes
 * of each (test/fixtures/golden/README.md). Two steps:
 *
 *   npx tsx scripts/golden.ts record [case…]    # run the simulator, write each case's config,
 *                                               # inputs and sample log(s), then its report
 *   npx tsx scripts/golden.ts reports [case…]   # only the reports, from the logs kept
 *
 * `record` is for a new case (or a release whose log format changed on purpose); `reports`
 * rewrites the expected report.json and exit code of every case from the code checked out.
 * Both are meant for the release the fixtures stand for: run on a later change, `reports`
 * would hide exactly the differences test/golden/equivalence.test.ts exists to show.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { type ChoiceItem, isChoiceItem, loadItemsFile } from '../src/checks/churn/items.js';
import { churnSlots } from '../src/checks/churn/plan.js';
import type { ChurnCallRecord } from '../src/checks/churn/records.js';
import { CHECKS } from '../src/checks/builtIn.js';
import { loadConfig } from '../src/config/load.js';
import type { RunInfoRecord } from '../src/sampleLog/index.js';
import { recordedOptions, SAMPLE_LOG_VERSION } from '../src/sampleLog/index.js';
import { startSimulator } from '../src/simulator/server.js';
import { createRng } from '../src/stats/prng.js';
import { analyseGoldenCase, GOLDEN_ROOT, goldenCases } from '../test/support/goldenCase.js';
import { runCli as runCliProcess } from '../test/support/killRerun.js';
import { cli } from '../test/support/smallRun.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const fixture = (name: string): string => path.join(repo, 'fixtures', name);

/** Settings every case shares: no GPU telemetry, no warm-up, enough slots. */
const RUNNER = { concurrency: 4, 'timeout-s': 10, 'gpu-sample-s': 0, warmup: false };
const DEMO_MODELS = { baseline: 'demo-base:1b', candidate: 'demo-cand:1b' };
/** Every check on the demo items and catalogue, sized to keep the log small. */
const ALL_CHECKS = {
  checks: ['churn', 'dragon', 'personas'],
  churn: { items: 'items.yml', samples: 2 },
  dragon: {
    seeds: [3, 5],
    'reference-players': ['random', 'overconfident', 'careful'],
    bootstrap: 200,
  },
  personas: { catalogue: 'catalogue.yml', samples: 2, 'max-tokens': 48, permutations: 200 },
};

interface RecordPlan {
  /** Simulator scenario under fixtures/simulator/ (none for a log written directly). */
  scenario?: string;
  /** Scenario text edits (after the latency is removed). */
  edit?: (text: string) => string;
  /** Item file copied in as items.yml (under fixtures/items/), trimmed by `trimItems`. */
  items?: string;
  /**
   * Write a persona catalogue (trimCatalogue) as catalogue.yml; these cases run every check
   * and keep two multiple-choice items per domain instead of three.
   */
  catalogue?: boolean;
  config: Record<string, unknown>;
  /** How the log(s) are written: one run (default), two shards, or a run killed and resumed. */
  shape?: 'run' | 'shards' | 'resumed' | 'redigested' | 'generated';
}

const PLANS: Record<string, RecordPlan> = {
  demo: {
    scenario: 'demo.yml',
    items: 'demo.yml',
    catalogue: true,
    config: { models: DEMO_MODELS, ...ALL_CHECKS },
  },
  aa: {
    scenario: 'aa.yml',
    items: 'demo.yml',
    catalogue: true,
    config: { models: { baseline: 'demo-base:1b', candidate: 'demo-twin:1b' }, ...ALL_CHECKS },
  },
  'churn-demo': {
    scenario: 'churn-demo.yml',
    items: 'general.yml',
    config: { models: DEMO_MODELS, checks: ['churn'], churn: { items: 'items.yml', samples: 4 } },
  },
  'churn-aa': {
    scenario: 'churn-aa.yml',
    items: 'general.yml',
    config: {
      models: { baseline: 'aa-one:1b', candidate: 'aa-two:1b' },
      checks: ['churn'],
      churn: { items: 'items.yml', samples: 4 },
    },
  },
  // Transient failures (retried), malformed replies, empty answers: records with errors.
  faults: {
    scenario: 'faults.yml',
    items: 'general.yml',
    config: {
      models: { baseline: 'steady:1b', candidate: 'flaky:1b' },
      checks: ['churn'],
      churn: { items: 'items.yml', samples: 4 },
    },
  },
  // Another model loaded on the server before the run; dragon only.
  'shared-gpu': {
    scenario: 'shared-gpu.yml',
    config: {
      models: { baseline: 'night:1b', candidate: 'night-next:1b' },
      checks: ['dragon'],
      dragon: { seeds: [3, 5], bootstrap: 200 },
    },
  },
  'churn-adaptive': {
    scenario: 'churn-demo.yml',
    items: 'general.yml',
    config: {
      models: DEMO_MODELS,
      checks: ['churn'],
      churn: { items: 'items.yml', sampling: 'adaptive', 'samples-max': 12 },
    },
  },
  'churn-rci': {
    scenario: 'churn-demo.yml',
    items: 'general.yml',
    config: {
      models: DEMO_MODELS,
      checks: ['churn'],
      churn: { items: 'items.yml', samples: 6, method: 'rci', splits: 50 },
    },
  },
  // The logprobs ("exact") estimator: one evaluation per item, letter probabilities.
  'churn-logprobs': {
    scenario: 'churn-demo.yml',
    // Token logprobs come from Ollama 0.12.11 on; the simulator plays that version.
    edit: (text) => `version: 0.12.11-simulated\n${text}`,
    items: 'general.yml',
    config: {
      models: DEMO_MODELS,
      checks: ['churn'],
      churn: { items: 'items.yml', estimator: 'logprobs', temperature: 1 },
    },
  },
  // Answers that are not valid JSON, at 3% of the calls, on a fixed plan.
  'churn-invalid': {
    scenario: 'churn-demo.yml',
    edit: (text) =>
      text.replaceAll('difficulty-seed: 1\n', 'difficulty-seed: 1\n      invalid: 0.03\n'),
    items: 'general.yml',
    config: {
      models: DEMO_MODELS,
      checks: ['churn'],
      churn: { items: 'items.yml', samples: 6, 'delta-interval': 'domains' },
    },
  },
  // The open items of the demo (free-form answers, graded), churn only, adaptive by default.
  'open-items': {
    scenario: 'demo.yml',
    edit: (text) =>
      text.replaceAll('difficulty-seed: 1\n', 'difficulty-seed: 1\n      malformed: 0.3\n'),
    items: 'demo.yml',
    config: {
      models: DEMO_MODELS,
      checks: ['churn'],
      churn: {
        items: 'items.yml',
        'samples-first': 2,
        'samples-step': 2,
        'samples-max': 6,
      },
    },
  },
  shards: {
    scenario: 'demo.yml',
    items: 'demo.yml',
    catalogue: true,
    config: { models: DEMO_MODELS, ...ALL_CHECKS },
    shape: 'shards',
  },
  resumed: {
    scenario: 'demo.yml',
    items: 'demo.yml',
    catalogue: true,
    config: { models: DEMO_MODELS, ...ALL_CHECKS },
    shape: 'resumed',
  },
  // Written directly, no server: the records a fixed churn run would write, answers drawn
  // from a seeded generator at accuracy 0.7, 8% of them invalid (as the benchmarks' logs).
  generated: {
    items: 'general.yml',
    config: {
      models: { baseline: 'gen-base:1b', candidate: 'gen-cand:1b' },
      checks: ['churn'],
      churn: { items: 'items.yml', samples: 6 },
    },
    shape: 'generated',
  },
  remeasured: {
    scenario: 'demo.yml',
    items: 'demo.yml',
    catalogue: true,
    config: { models: DEMO_MODELS, ...ALL_CHECKS },
    shape: 'redigested',
  },
};

/**
 * The item file with the first `perDomain` items of each multiple-choice domain and every open item
 * (one per grader kind): a log of a few hundred records still exercises each domain.
 */
function trimItems(file: string, perDomain: number): string {
  const text = parse(readFileSync(file, 'utf8')) as unknown[] | { items: unknown[] };
  const items = Array.isArray(text) ? text : text.items;
  const seen = new Map<string, number>();
  const kept = items.filter((entry) => {
    const item = entry as { domain: string; choices?: unknown };
    if (item.choices === undefined) return true;
    const n = (seen.get(item.domain) ?? 0) + 1;
    seen.set(item.domain, n);
    return n <= perDomain;
  });
  return stringify(Array.isArray(text) ? kept : { ...text, items: kept });
}

/**
 * The persona catalogue with four assistants (the two pairs the demo scenario can merge:
 * flavour and its paraphrase taste, technique and sourcing) and its first four probes.
 */
function trimCatalogue(): string {
  const KEPT = ['technique', 'flavour', 'sourcing', 'taste'];
  const catalogue = parse(readFileSync(fixture('personas/catalogue.yml'), 'utf8')) as {
    assistants: Record<string, unknown>;
    probes: unknown[];
  };
  return stringify({
    ...catalogue,
    assistants: Object.fromEntries(KEPT.map((name) => [name, catalogue.assistants[name]])),
    probes: catalogue.probes.slice(0, 4),
  });
}

/** The scenario with `edit` applied and without its scripted latency, in a scratch folder. */
function scenarioCopy(file: string, edit: (text: string) => string = (text) => text): string {
  const text = edit(readFileSync(file, 'utf8')).replace(/latency-ms: \d+/g, 'latency-ms: 0');
  const copy = path.join(
    mkdtempSync(path.join(tmpdir(), 'model-gate-golden-scenario-')),
    'scenario.yml',
  );
  writeFileSync(copy, text);
  return copy;
}

async function record(name: string, plan: RecordPlan): Promise<void> {
  const dir = path.join(GOLDEN_ROOT, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (plan.items)
    writeFileSync(
      path.join(dir, 'items.yml'),
      trimItems(fixture(`items/${plan.items}`), plan.catalogue ? 2 : 3),
    );
  if (plan.catalogue) writeFileSync(path.join(dir, 'catalogue.yml'), trimCatalogue());
  const config = path.join(dir, 'model-gate.yml');
  writeFileSync(
    config,
    `# Golden case ${name}, ${plan.scenario ? `scenario fixtures/simulator/${plan.scenario}` : 'no server'} (written by scripts/golden.ts)\n${stringify({ ...plan.config, runner: RUNNER })}`,
  );
  const scenario = (extra: (text: string) => string = (text) => text) => {
    if (!plan.scenario) throw new Error(`${name}: a run needs a scenario`);
    return startSimulator({
      port: 0,
      scenario: scenarioCopy(fixture(`simulator/${plan.scenario}`), (text) =>
        extra(plan.edit ? plan.edit(text) : text),
      ),
    });
  };
  const scratch = mkdtempSync(path.join(tmpdir(), `model-gate-golden-${name}-`));
  const run = async (host: string, log: string, extra: readonly string[] = []): Promise<void> => {
    const result = await cli([
      'run',
      '--config',
      config,
      '--ollama-host',
      host,
      '--output-dir',
      scratch,
      '--log',
      path.join(dir, log),
      ...extra,
    ]);
    process.stdout.write(`${name}: run ${extra.join(' ')} exited ${result.code}\n`);
    if (result.code === 2 || !existsSync(path.join(dir, log)))
      throw new Error(`${name}: the run wrote no log\n${result.stderr}`);
  };
  try {
    if (plan.shape === 'generated') {
      generateLog(config, path.join(dir, 'samples.jsonl'));
      return;
    }
    if (plan.shape === 'redigested') {
      // The candidate re-pulled between two runs on one log: its units measured under an old
      // digest, then again under a new one (the report must use the newest, for every check).
      for (const digest of ['a'.repeat(64), 'b'.repeat(64)]) {
        const simulator = await scenario((text) =>
          text.replace(
            '  - name: demo-cand:1b\n',
            `  - name: demo-cand:1b\n    digest: ${digest}\n`,
          ),
        );
        await run(simulator.url, 'samples.jsonl').finally(() => simulator.close());
      }
      return;
    }
    const simulator = await scenario();
    try {
      if (plan.shape === 'shards') {
        for (const shard of [1, 2])
          await run(simulator.url, `shard-${shard}.jsonl`, ['--shard', `${shard}/2`]);
      } else if (plan.shape === 'resumed') {
        // Killed (SIGKILL) a moment after its first records, then run again to the end.
        const killed = await runCliProcess(config, simulator.url, scratch, 400);
        if (!killed.killed) throw new Error(`${name}: the run ended before it was killed`);
        copyFileSync(path.join(scratch, 'samples.jsonl'), path.join(dir, 'samples.jsonl'));
        await run(simulator.url, 'samples.jsonl');
      } else {
        await run(simulator.url, 'samples.jsonl');
      }
    } finally {
      await simulator.close();
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The records of a fixed churn run of `config`, drawn from a seeded generator. */
function generateLog(config: string, log: string): void {
  const loaded = loadConfig({ checks: CHECKS, file: config, env: {} });
  const items = loadItemsFile(
    path.resolve(path.dirname(config), loaded.config.churn.items),
  ).items.filter(isChoiceItem);
  const models = [loaded.config.models.baseline, loaded.config.models.candidate ?? ''];
  const digest = (model: string) => (model === models[0] ? 'c' : 'd').repeat(64);
  const rng = createRng(11);
  const run: RunInfoRecord = {
    v: SAMPLE_LOG_VERSION,
    kind: 'run',
    startedAt: new Date(0).toISOString(),
    toolVersion: 'generated',
    provider: {
      provider: 'ollama',
      host: 'http://127.0.0.1:1',
      version: 'generated',
      simulated: true,
    },
    models: models.map((model) => ({
      model,
      digest: digest(model),
      quantization: null,
      parameterSize: null,
      family: null,
      simulated: true,
    })),
    loadedBefore: [],
    shard: null,
    warnings: [],
  };
  const lines = [JSON.stringify(run)];
  for (const model of models) {
    // The candidate is better on arithmetic and worse on law, by a margin a few items show.
    const shift = (domain: string) =>
      model === models[1] ? ({ law: -0.4, arithmetic: 0.2 }[domain] ?? 0) : 0;
    for (const slot of churnSlots(items, loaded.config, model)) {
      const item = slot.item as ChoiceItem;
      const invalid = rng.next() < 0.08;
      const right = rng.next() < Math.min(0.95, Math.max(0.05, 0.7 + shift(item.domain)));
      const letters = 'ABCD';
      const wrong = letters[(letters.indexOf(item.answer) + 1) % 4] as string;
      const answer = invalid ? null : right ? item.answer : wrong;
      const record: ChurnCallRecord = {
        v: SAMPLE_LOG_VERSION,
        kind: 'call',
        check: 'churn',
        model,
        digest: digest(model),
        key: slot.key,
        sample: slot.sample,
        options: recordedOptions(slot.spec.request.options),
        prompt_sha256: slot.spec.promptSha256,
        status: invalid ? 'invalid' : 'ok',
        latency_ms: 1,
        prompt_tokens: 120,
        completion_tokens: 8,
        attempts: 1,
        item: item.id,
        domain: item.domain,
        mode: slot.mode,
        answer,
        correct: answer === null ? null : answer === item.answer,
      };
      lines.push(JSON.stringify(record));
    }
  }
  writeFileSync(log, `${lines.join('\n')}\n`);
}

/** Writes the case's expected report.json and exit.json from the code checked out. */
async function writeReport(name: string): Promise<void> {
  const dir = path.join(GOLDEN_ROOT, name);
  const { exitCode, report } = await analyseGoldenCase(dir);
  // One line: a third smaller than indented; scripts/compare-reports.ts is the way to read a change.
  writeFileSync(path.join(dir, 'report.json'), `${JSON.stringify(report)}\n`);
  writeFileSync(path.join(dir, 'exit.json'), `${JSON.stringify({ exitCode }, null, 2)}\n`);
  const status = (report as { verdict: { status: string } }).verdict.status;
  process.stdout.write(`${name}: exit ${exitCode}, ${status}\n`);
}

const [step, ...named] = process.argv.slice(2);
if (step !== 'record' && step !== 'reports') {
  process.stderr.write('usage: npx tsx scripts/golden.ts record|reports [case…]\n');
  process.exit(2);
}
const chosen = named.length > 0 ? named : step === 'record' ? Object.keys(PLANS) : goldenCases();
for (const name of chosen) {
  if (step === 'record') {
    const plan = PLANS[name];
    if (!plan) throw new Error(`no case named ${name}: ${Object.keys(PLANS).join(', ')}`);
    await record(name, plan);
  }
  if (!existsSync(path.join(GOLDEN_ROOT, name))) throw new Error(`no folder for case ${name}`);
  await writeReport(name);
}
