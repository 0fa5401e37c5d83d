/**
 * report.html benchmark (not a test): the page of a 150,000-request churn run, its size and how
 * fast it becomes usable in headless Chromium (Debian's package, /usr/bin/chromium).
 *
 * The log is written directly, as memory.ts does: 6,819 items × (K = 10 + greedy) × 2 models,
 * items of MMLU-Pro-like length (questions of 200–1,200 characters, ten choices of up to 120)
 * and every answer's text kept (churn.keep-text, 100–600 characters each), so the page's text
 * budgets are what keeps it small. With `--open SHARE`, that share of the items are open items
 * instead: prompts of 200–1,200 characters, one of 20 system prompts of 300–1,500, graded by
 * contains, label, number or json (with a schema) in turn, free-text answers of 100–600
 * characters (nearly all distinct) except the labels. The log is analysed in-process
 * (`model-gate analyze`'s function), then the page is opened: time until its script has drawn
 * every part (first render), and until a deep link to the last item shows that item.
 *
 *   npx tsx bench/page.ts [--requests 150000] [--open 0.5]
 */
import { CHECKS } from '../src/checks/builtIn.js';
import '../src/checks/builtIn.js';
import {
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { churnSlots } from '../src/checks/churn/plan.js';
import { type ChoiceItem, isChoiceItem, loadItemsFile } from '../src/checks/churn/items.js';
import type { OpenItem } from '../src/checks/churn/openItems.js';
import { loadConfig } from '../src/config/load.js';
import { analyseLogs } from '../src/pipeline/analyse.js';
import { recordedOptions, SAMPLE_LOG_VERSION } from '../src/sampleLog/index.js';
import { createRng, type Rng } from '../src/stats/prng.js';
import type { ChurnCallRecord } from '../src/checks/churn/records.js';

const MODELS = ['bench-base:7b', 'bench-cand:7b'] as const;
const PER_ITEM = 11;
const LETTERS = 'ABCDEFGHIJ';
const CHROMIUM = process.env.MODEL_GATE_CHROMIUM ?? '/usr/bin/chromium';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

function words(rng: Rng, length: number): string {
  let text = '';
  while (text.length < length)
    text += `${['lorem', 'statute', 'enzyme', 'vector', 'treaty', 'proton', 'ledger', 'axiom'][rng.int(8)]} `;
  return text.slice(0, length).trim();
}

const LABELS = ['billing', 'shipping', 'returns', 'product'];

/** Whether item i is an open one: an even spread of `share` of the items. */
function isOpen(i: number, share: number): boolean {
  return Math.floor((i + 1) * share) > Math.floor(i * share);
}

/** Open item i: its grader turns with i (contains, label, number, json). */
function openItem(rng: Rng, i: number, systems: readonly string[]): Record<string, unknown> {
  const base = {
    id: `q${i}`,
    domain: `domain-${i % 14}`,
    prompt: words(rng, 200 + rng.int(1000)),
    system: systems[i % systems.length],
  };
  switch (i % 4) {
    case 0:
      return { ...base, expected: [`ref-${i}`], grader: 'contains' };
    case 1:
      return { ...base, expected: LABELS[i % 4], grader: { type: 'label', labels: LABELS } };
    case 2:
      return { ...base, expected: i + 0.5, grader: { type: 'number', tolerance: 0.01 } };
    default:
      return {
        ...base,
        expected: { order: i, total: 2 * i },
        grader: {
          type: 'json',
          search: true,
          schema: {
            type: 'object',
            required: ['order', 'total'],
            properties: { order: { type: 'integer' }, total: { type: 'number' } },
          },
        },
      };
  }
}

function writeJob(dir: string, requests: number, openShare: number): string {
  const rng = createRng(11);
  const count = Math.ceil(requests / PER_ITEM / MODELS.length);
  const own = createRng(13);
  const systems = Array.from({ length: 20 }, () => words(own, 300 + own.int(1200)));
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify(
      isOpen(i, openShare)
        ? openItem(rng, i, systems)
        : {
            id: `q${i}`,
            domain: `domain-${i % 14}`,
            question: words(rng, 200 + rng.int(1000)),
            choices: Array.from({ length: 10 }, () => words(rng, 10 + rng.int(110))),
            answer: LETTERS[i % 10],
          },
    ),
  );
  writeFileSync(path.join(dir, 'items.jsonl'), `${lines.join('\n')}\n`);
  const config = path.join(dir, 'model-gate.yml');
  writeFileSync(
    config,
    [
      `models:\n  baseline: ${MODELS[0]}\n  candidate: ${MODELS[1]}`,
      'checks: [churn]',
      'output:\n  dir: out',
      'churn:\n  items: items.jsonl\n  samples: 10\n  keep-text: true',
      '',
    ].join('\n'),
  );
  return config;
}

/** The records of the run, answers drawn at accuracy 0.7 (0.6 for the candidate on a tenth). */
function writeLog(config: string, logPath: string): number {
  const loaded = loadConfig({ checks: CHECKS, file: config, cwd: path.dirname(config), env: {} });
  const { items } = loadItemsFile(path.resolve(path.dirname(config), loaded.config.churn.items));
  const rng = createRng(7);
  const fd = openSync(logPath, 'w');
  const run = {
    v: SAMPLE_LOG_VERSION,
    kind: 'run',
    startedAt: new Date(0).toISOString(),
    toolVersion: 'bench',
    provider: {
      provider: 'ollama',
      host: 'http://127.0.0.1:1',
      version: 'simulated',
      simulated: true,
    },
    models: MODELS.map((model) => ({
      model,
      digest: null,
      quantization: null,
      parameterSize: null,
      family: null,
      simulated: true,
    })),
    loadedBefore: [],
    shard: null,
    warnings: [],
  };
  writeSync(fd, `${JSON.stringify(run)}\n`);
  let written = 0;
  for (const model of MODELS) {
    let batch = '';
    for (const slot of churnSlots(items, loaded.config, model)) {
      const worse = model === MODELS[1] && Number(slot.item.id.slice(1)) % 10 === 0;
      const right = rng.next() < (worse ? 0.3 : 0.7);
      const answered = isChoiceItem(slot.item)
        ? choiceAnswer(rng, slot.item, right)
        : openAnswer(rng, slot.item, right);
      const record: ChurnCallRecord = {
        v: SAMPLE_LOG_VERSION,
        kind: 'call',
        check: 'churn',
        model,
        digest: null,
        key: slot.key,
        sample: slot.sample,
        options: recordedOptions(slot.spec.request.options),
        prompt_sha256: slot.spec.promptSha256,
        status: 'ok',
        latency_ms: 1,
        attempts: 1,
        item: slot.item.id,
        domain: slot.item.domain,
        mode: slot.mode,
        ...answered,
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

type Answered = Pick<ChurnCallRecord, 'answer' | 'correct' | 'text' | 'grader' | 'off_label'>;

function choiceAnswer(rng: Rng, item: ChoiceItem, right: boolean): Answered {
  const correct = item.answer;
  const answer = right
    ? correct
    : (LETTERS[(LETTERS.indexOf(correct) + 1 + rng.int(9)) % 10] as string);
  return {
    answer,
    correct: answer === correct,
    text: `{"answer": "${answer}"} ${words(rng, 100 + rng.int(500))}`,
  };
}

/** A free-text answer (a label: the label, or now and then none) graded by the item's grader. */
function openAnswer(rng: Rng, item: OpenItem, right: boolean): Answered {
  const i = Number(item.id.slice(1));
  // Every free-text answer starts its own way: none are alike in their first characters.
  const talk = () => words(rng, 100 + rng.int(500));
  let text: string;
  switch (i % 4) {
    case 0:
      text = right ? `${talk()} ref-${i}.` : talk();
      break;
    case 1:
      text = right
        ? (LABELS[i % 4] as string)
        : rng.next() < 0.2
          ? words(rng, 20 + rng.int(60))
          : (LABELS[(i + 1 + rng.int(3)) % 4] as string);
      break;
    case 2:
      text = `${talk()} The total is ${right ? i + 0.5 : i + 1.5} EUR.`;
      break;
    default:
      text = `${talk()} ${JSON.stringify({ order: right ? i : i + 1, total: 2 * i })}`;
  }
  const grade = item.grader.grade(text);
  return {
    answer: grade.reading,
    correct: grade.correct,
    text,
    grader: item.grader.fingerprint,
    ...(grade.offLabel ? { off_label: true } : {}),
  };
}

interface Times {
  /** The file read (navigation's responseEnd), and parsed up to the script (domInteractive). */
  read: number;
  parsed: number;
  /** The page's script has drawn every part: body[data-ready]. */
  firstRender: number;
  deepLink: number;
}

async function openPage(file: string, lastItem: string): Promise<Times> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const url = pathToFileURL(file).href;
    await page.goto(url);
    await page.waitForSelector('body[data-ready]', { timeout: 60_000 });
    const firstRender = Number(await page.getAttribute('body', 'data-ready'));
    const [read, parsed] = await page.evaluate<[number, number]>(
      "(() => { const n = performance.getEntriesByType('navigation')[0]; return [n.responseEnd, n.domInteractive]; })()",
    );
    await page.goto('about:blank');
    await page.goto(`${url}#item=${lastItem}`);
    await page.waitForSelector(`#churn-item[data-item="${lastItem}"]`, { timeout: 60_000 });
    const deepLink = await page.evaluate<number>('performance.now()');
    return { read, parsed, firstRender, deepLink };
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const requests = option('requests', 150_000);
  const openShare = option('open', 0);
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-page-bench-'));
  try {
    const config = writeJob(dir, requests, openShare);
    const log = path.join(dir, 'samples.jsonl');
    const records = writeLog(config, log);
    const loaded = loadConfig({ checks: CHECKS, file: config, cwd: dir, env: {} });
    const started = performance.now();
    const outcome = await analyseLogs({ loaded, logs: [log], outDir: path.join(dir, 'out') });
    const analysed = (performance.now() - started) / 1000;
    const page = outcome.files.page as string;
    const mb = statSync(page).size / 1e6;
    const items = Math.ceil(requests / PER_ITEM / MODELS.length);
    console.log(
      `log: ${records} records (${(statSync(log).size / 1e6).toFixed(0)} MB), ${items} items (${Math.round(openShare * 100)}% open); analysed and written in ${analysed.toFixed(1)} s`,
    );
    console.log(`report.html: ${mb.toFixed(2)} MB (target < 15 MB)`);
    const times = await openPage(page, `q${items - 1}`);
    const load = (await import('node:os')).loadavg()[0]?.toFixed(1);
    console.log(
      `headless Chromium: file read ${Math.round(times.read)} ms, parsed ${Math.round(times.parsed)} ms, first render ${times.firstRender} ms after navigation; #item=q${items - 1} shown ${Math.round(times.deepLink)} ms after navigation (load average ${load} on ${(await import('node:os')).cpus().length} cores)`,
    );
  } finally {
    if (process.env.BENCH_KEEP) console.log(`kept: ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

await main();
