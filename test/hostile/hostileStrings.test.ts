/**
 * Acceptance: 200 seeded hostile strings — control characters, ANSI escapes, bidi controls,
 * invisible characters, comment markers, workflow commands, 100 kB lines, lone surrogates
 * (invalid UTF-8 once encoded) — injected as the server's version and error bodies, model
 * names and details, item ids and domains. No raw control or bidi character may reach
 * stdout, summary.md, the PR comment body or an SVG; nothing crashes; the exit code is the
 * one the same run gets with plain strings. Several strings go into each run to stay fast.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handlers } from '../../src/cli/handlers.js';
import { runCli } from '../../src/cli/program.js';
import { commentBody, commentMarker } from '../../src/github/comment.js';
import { readReport } from '../../src/report/read.js';
import { renderSummary } from '../../src/report/summary.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { createRng, type Rng } from '../../src/stats/prng.js';

const PIECES = [
  '\x1b[2J\x1b[H',
  '\x1b]0;owned\x07',
  '\x1b[31mRED\x1b[0m',
  '\x07',
  'x\b\b\bPASS',
  '\r',
  '\n::error::forged\n',
  '\u202E',
  '\u202Dlro\u202C',
  '\u2066\u2067\u2068\u2069',
  '\u200E\u200F\u061C',
  '\u200B\u2060\uFEFF',
  '\u0085\u009B\u0090',
  '<!-- model-gate:nightly -->',
  '<!-- model-gate:default -->',
  '`` ``` ',
  '@octocat #12 ',
  '\uD800',
  '\uDFFF',
  '\uFFFD',
  '| pipe |',
  '\u0000\u0001\u001F\u007F',
  'plain',
];

/** Bytes nobody should see raw: controls (but newline and tab), bidi, invisible format chars. */
const RAW_UNSAFE = /(?![\n\t\u200b\u200c\u200d])[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u;
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;

function hostileString(rng: Rng, index: number): string {
  // A few 100 kB lines among the 200.
  if (index % 67 === 5) return `${'\u202E'.repeat(10)}${'A\x1b'.repeat(50_000)}`;
  let text = '';
  const parts = 1 + rng.int(5);
  for (let i = 0; i < parts; i++) text += PIECES[rng.int(PIECES.length)];
  return text;
}

const STRINGS_PER_RUN = 50;
const RUNS = 4;

interface Injected {
  version: string;
  baseline: string;
  candidate: string;
  errorBody: string;
  midStream: string;
  family: string;
  quantization: string;
  parameterSize: string;
  ids: string[];
  domains: string[];
}

/** Where each of a run's 50 strings goes; `plain` gives the same run with harmless text. */
function inject(strings: readonly string[], plain: boolean): Injected {
  const s = (i: number) => (plain ? `text${i}` : (strings[i] as string));
  return {
    version: `${s(0)} simulated`,
    baseline: `base${s(1)}:1b`,
    candidate: `cand${s(2)}:1b`,
    errorBody: `${s(3)}${s(45)}${s(46)}`,
    midStream: `${s(4)}${s(47)}${s(48)}${s(49)}`,
    family: s(5),
    quantization: s(6),
    ids: Array.from({ length: 16 }, (_, k) => `${s(7 + k)}${s(23 + k)}-${k}`),
    domains: Array.from({ length: 4 }, (_, k) => `${s(39 + k)}/${k}`),
    parameterSize: `${s(43)}${s(44)}`,
  };
}

let root: string;
const simulators: RunningSimulator[] = [];
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'model-gate-hostile-'));
});
afterAll(async () => {
  for (const simulator of simulators) await simulator.close();
});

async function runWith(name: string, injected: Injected) {
  const dir = path.join(root, name);
  const items = path.join(root, `${name}.jsonl`);
  writeFileSync(
    items,
    `${injected.ids
      .map((id, k) =>
        JSON.stringify({
          id,
          domain: injected.domains[k % 4],
          question: `Question ${k}: which letter?`,
          choices: ['one', 'two', 'three', 'four'],
          answer: 'ABCD'[k % 4],
        }),
      )
      .join('\n')}\n`,
  );
  const model = (modelName: string, faults: unknown[]) => ({
    name: modelName,
    family: injected.family,
    'quantization-level': injected.quantization,
    'parameter-size': injected.parameterSize,
    churn: { items, accuracy: 0.7, 'difficulty-seed': 1 },
    faults,
  });
  const scenario = path.join(root, `${name}.scenario.json`);
  writeFileSync(
    scenario,
    JSON.stringify({
      seed: 1,
      version: injected.version,
      parallel: 4,
      models: [
        model(injected.baseline, [
          { kind: 'mid-stream-error', message: injected.midStream, requests: [3, 4] },
        ]),
        // Every other request of the candidate fails twice: far above the failure limit.
        model(injected.candidate, [
          {
            kind: 'status',
            status: 500,
            message: injected.errorBody,
            requests: [
              1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
            ],
          },
        ]),
      ],
    }),
  );
  const simulator = await startSimulator({ port: 0, scenario });
  simulators.push(simulator);
  const config = path.join(root, `${name}.yml`);
  writeFileSync(
    config,
    JSON.stringify({
      models: { baseline: injected.baseline, candidate: injected.candidate },
      checks: ['churn'],
      provider: { host: simulator.url },
      runner: { concurrency: 4, 'timeout-s': 10 },
      output: { dir },
      churn: { items, samples: 2 },
    }),
  );
  let stdout = '';
  let stderr = '';
  const code = await runCli(['run', '--config', config], handlers, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  });
  const outputs: Record<string, string> = { stdout, stderr };
  let report = null;
  try {
    report = await readReport(path.join(dir, 'report.json'));
  } catch {
    // Checked below: a run that wrote no report fails the test through `files`.
  }
  for (const file of readdirSync(dir)) {
    if (file.endsWith('.svg') || file === 'summary.md') {
      outputs[file] = readFileSync(path.join(dir, file), 'utf8');
    }
  }
  if (report) {
    const markdown = renderSummary(report, { chartsUrl: 'https://github.test/run/1' });
    outputs.comment = commentBody(commentMarker('default'), markdown, 'cut');
  }
  return { code, outputs, report };
}

describe('200 hostile strings from a server and from item files', () => {
  const rng = createRng(13);
  const strings = Array.from({ length: RUNS * STRINGS_PER_RUN }, (_, i) => hostileString(rng, i));

  it('are generated with every kind of hostile piece', () => {
    expect(strings).toHaveLength(200);
    expect(strings.some((s) => s.length >= 100_000)).toBe(true);
    expect(strings.some((s) => BIDI.test(s))).toBe(true);
    expect(strings.some((s) => s.includes('<!-- model-gate:'))).toBe(true);
    expect(strings.some((s) => /\uD800/.test(s))).toBe(true);
  });

  it('reach no output raw, crash nothing and leave the exit code as it is', {
    timeout: 60_000,
  }, async () => {
    const plain = await runWith('plain', inject([], true));
    expect(plain.report).not.toBeNull();
    for (let run = 0; run < RUNS; run++) {
      const mine = strings.slice(run * STRINGS_PER_RUN, (run + 1) * STRINGS_PER_RUN);
      const hostile = await runWith(`hostile-${run}`, inject(mine, false));
      expect(hostile.outputs.stderr).not.toContain('internal error');
      expect(hostile.code, hostile.outputs.stderr).toBe(plain.code);
      expect(hostile.report).not.toBeNull();
      expect(Object.keys(hostile.outputs).sort()).toEqual(Object.keys(plain.outputs).sort());
      for (const [where, text] of Object.entries(hostile.outputs)) {
        const found = RAW_UNSAFE.exec(text);
        expect(
          found,
          `${where} of run ${run} holds U+${found?.[0].codePointAt(0)?.toString(16)}`,
        ).toBeNull();
        if (where.endsWith('.svg')) expect(text).not.toMatch(/[\u200b\u200c\u200d]/);
      }
      // The marker the content quotes never stands first; the comment's own does.
      expect(hostile.outputs.comment?.split('\n')[0]).toBe('<!-- model-gate:default -->');
      // The error body made it to the reader, neutralised.
      expect(hostile.outputs['summary.md']).toContain('failed after retries');
    }
  });
});
