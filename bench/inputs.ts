/**
 * Validation time and peak memory on large user inputs (not a test): items as YAML, JSON and
 * JSON Lines, persona catalogues with many assistants, a YAML alias bomb. Each case is read in
 * a fresh process (`/usr/bin/time`-like figures from `process.resourceUsage()`), so one case's
 * heap does not weigh on the next. Validation should grow linearly with the input, and an
 * input over its limit should be refused at once.
 *
 * Hostile files too: links to /dev/zero, a named pipe, a 40,000-deep JSON line — each refused at
 * once, in a few tens of MB (docs/security.md).
 *
 *   npx tsx bench/inputs.ts [case…]            # all cases, or the named ones
 *   BENCH_SRC=/path/to/other/src npx tsx bench/inputs.ts   # measure another checkout's src/
 */
import { CHECKS } from '../src/checks/builtIn.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { lstatSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const src = process.env.BENCH_SRC ?? path.join(here, '..', 'src');
const MB = 1_000_000;

interface Case {
  name: string;
  kind: 'items' | 'catalogue' | 'config';
  file: string;
  write(file: string): void;
}

function item(i: number): Record<string, unknown> {
  return {
    id: `q${i}`,
    domain: `d${i % 14}`,
    question: `Question number ${i}: which of these letters is the right one, considering everything said above?`,
    choices: ['first choice', 'second choice', 'third choice', 'fourth choice'],
    answer: 'B',
  };
}

/** Items until the file holds about `bytes` bytes. */
function items(bytes: number, format: 'yaml' | 'json' | 'jsonl'): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const value = item(i);
    const text =
      format === 'yaml'
        ? `- id: ${value.id}\n  domain: ${value.domain}\n  question: "${value.question}"\n  choices: [first choice, second choice, third choice, fourth choice]\n  answer: B\n`
        : JSON.stringify(value);
    parts.push(text);
    size += text.length + 2;
  }
  if (format === 'yaml') return parts.join('');
  return format === 'jsonl' ? `${parts.join('\n')}\n` : `[\n${parts.join(',\n')}\n]\n`;
}

/** `count` small items, each question padded with `padding` letters, as JSON Lines. */
function paddedItems(count: number, padding: number): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++)
    parts.push(
      JSON.stringify({
        id: `q${i}`,
        domain: 'd',
        question: `?${'x'.repeat(padding)}`,
        choices: ['a', 'b'],
        answer: 'A',
      }),
    );
  return `${parts.join('\n')}\n`;
}

function catalogue(assistants: number): string {
  const lines = ['language: en', 'assistants:'];
  for (let i = 0; i < assistants; i++) lines.push(`  a${i}: "You answer as assistant ${i}."`);
  return `${[...lines, 'probes:', '  - "one?"', '  - "two?"'].join('\n')}\n`;
}

function aliasBomb(): string {
  const lines = ['models:', '  baseline: a:1b', 'l0: &l0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i <= 9; i++)
    lines.push(
      `l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(', ')}]`,
    );
  return `${lines.join('\n')}\n`;
}

const CASES: Case[] = [
  ...[2, 8].map((mb) => ({
    name: `items-yaml-${mb}MB`,
    kind: 'items' as const,
    file: 'items.yml',
    write: (file: string) => writeFileSync(file, items(mb * MB, 'yaml')),
  })),
  {
    name: 'items-yaml-50MB',
    kind: 'items',
    file: 'items.yml',
    write: (file) => writeFileSync(file, items(50 * MB, 'yaml')),
  },
  ...[10, 50].flatMap((mb) =>
    (['json', 'jsonl'] as const).map((format) => ({
      name: `items-${format}-${mb}MB`,
      kind: 'items' as const,
      file: `items.${format}`,
      write: (file: string) => writeFileSync(file, items(mb * MB, format)),
    })),
  ),
  // The largest JSON Lines file allowed: 100,000 items (MAX_ITEMS) in just under 64 MiB
  // (MAX_JSON_ITEMS_BYTES). It must validate in under 500 MB (docs/security.md).
  {
    name: 'items-jsonl-limit',
    kind: 'items',
    file: 'items.jsonl',
    write: (file) => writeFileSync(file, paddedItems(100_000, 590)),
  },
  // Many tiny items (437,000 in 32 MiB took 892 MB before the limit of items): refused at once.
  {
    name: 'items-jsonl-437k-tiny',
    kind: 'items',
    file: 'items.jsonl',
    write: (file) => writeFileSync(file, paddedItems(437_000, 0)),
  },
  ...[8_000, 32_000, 128_000].map((n) => ({
    name: `catalogue-${n / 1000}k`,
    kind: 'catalogue' as const,
    file: 'personas.yml',
    write: (file: string) => writeFileSync(file, catalogue(n)),
  })),
  {
    name: 'catalogue-deep-flow',
    kind: 'catalogue',
    file: 'personas.yml',
    // A million brackets inside one another, 1,000 to a line.
    write: (file) =>
      writeFileSync(
        file,
        `language: en\nprobes:\n${` ${'['.repeat(1000)}\n`.repeat(1000)}${` ${']'.repeat(1000)}\n`.repeat(1000)}`,
      ),
  },
  {
    name: 'config-alias-bomb',
    kind: 'config',
    file: 'model-gate.yml',
    write: (file) => writeFileSync(file, aliasBomb()),
  },
  // Hostile files: each should be refused at once, in a few tens of MB.
  ...(['items', 'catalogue', 'config'] as const).map((kind) => ({
    name: `${kind}-dev-zero`,
    kind,
    file: kind === 'items' ? 'items.jsonl' : 'file.yml',
    write: (file: string) => symlinkSync('/dev/zero', file),
  })),
  {
    name: 'items-named-pipe',
    kind: 'items',
    file: 'items.jsonl',
    write: (file) => execFileSync('mkfifo', [file]),
  },
  {
    name: 'items-jsonl-40k-deep',
    kind: 'items',
    file: 'items.jsonl',
    write: (file) => writeFileSync(file, `${'['.repeat(40_000)}${']'.repeat(40_000)}\n`),
  },
];

/** In the child: read one file as model-gate would, print the figures as JSON. */
async function measureOne(kind: Case['kind'], file: string): Promise<void> {
  const load = (module: string) => import(pathToFileURL(path.join(src, module)).href);
  // Every module loaded before the clock starts: only the reading is timed.
  await load('checks/builtIn.ts');
  const { loadItemsFile } = await load('checks/churn/items.ts');
  const { readCatalogue } = await load('checks/personas/catalogue.ts');
  const { loadConfig } = await load('config/load.ts');
  const started = performance.now();
  let outcome = 'ok';
  try {
    if (kind === 'items') {
      outcome = `${loadItemsFile(file, path.basename(file)).items.length} items`;
    } else if (kind === 'catalogue') {
      outcome = `${(await readCatalogue(file, path.basename(file))).assistants.length} assistants`;
    } else {
      loadConfig({ checks: CHECKS, file, env: {} });
    }
  } catch (error) {
    const exit = (error as { exitCode?: number }).exitCode ?? 'crash';
    outcome = `exit ${exit}: ${(error as Error).message.split('\n')[0]?.slice(-60)}`;
  }
  const seconds = (performance.now() - started) / 1000;
  const rssMB = Math.round(process.resourceUsage().maxRSS / 1024);
  process.stdout.write(`${JSON.stringify({ seconds, rssMB, outcome })}\n`);
}

function main(): void {
  const chosen = process.argv.slice(2);
  const cases = chosen.length > 0 ? CASES.filter((c) => chosen.includes(c.name)) : CASES;
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-bench-inputs-'));
  console.log(`src: ${src}`);
  console.log('case                 | size     | seconds | peak RSS | outcome');
  for (const c of cases) {
    const file = path.join(dir, `${c.name}-${c.file}`);
    c.write(file);
    // A link, a pipe or a device has no size of its own to show (and reading one never ends).
    const stats = lstatSync(file);
    const size = stats.isFile() ? stats.size : 0;
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--measure', c.kind, file],
      { encoding: 'utf8', timeout: 600_000, maxBuffer: 1 << 20 },
    );
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    let shown = `killed or crashed (${child.signal ?? child.status}): ${child.stderr.trim().split('\n').at(-1) ?? ''}`;
    try {
      const r = JSON.parse(line) as { seconds: number; rssMB: number; outcome: string };
      shown = `${r.seconds.toFixed(2).padStart(7)} | ${`${r.rssMB} MB`.padStart(8)} | ${r.outcome}`;
    } catch {
      // shown stays the crash line
    }
    console.log(`${c.name.padEnd(20)} | ${`${(size / MB).toFixed(1)} MB`.padStart(8)} | ${shown}`);
  }
}

if (process.argv[2] === '--measure') {
  await measureOne(process.argv[3] as Case['kind'], process.argv[4] as string);
} else {
  main();
}
