/**
 * A fourth check added from this file alone: its settings, record schema, plan, analysis, gate,
 * rule, renderer, headline value, action output, nightly field and rule, flag, commands and
 * converter live here, and a list of checks with it (`[...CHECKS, toyCheck]`) passed to the
 * config, the CLI and the action makes it part of the run, without a cast.
 * A job against the built-in simulator then plans its work, keeps its records in the sample
 * log, shows its section in summary.md and report.json, its rule among the gate rules, its
 * verdict, its output, its column of the nightly history and its nightly rule with its trend
 * chart; the CLI takes its flag and runs its commands, and the action reads its input.
 *
 * The toy check asks each model a few questions and measures how long the answers are. The
 * simulator answers a prompt it has no script for with "Simulated answer from <model>.", so
 * the mean length is known: 35 characters for demo-base:1b and demo-cand:1b.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CHECKS } from '../../src/checks/builtIn.js';
import type { NightlyRule } from '../../src/checks/nightlyRule.js';
import type { CheckFold } from '../../src/checks/types.js';
import { type Check, type GateFinding, sectionSchema } from '../../src/checks/types.js';
import { createHandlers } from '../../src/cli/handlers.js';
import { runCli } from '../../src/cli/program.js';
import { getInputs } from '../../src/config/actionInputs.js';
import { loadConfig } from '../../src/config/load.js';
import { toOverrides } from '../../src/config/overrides.js';
import type { GateConfig } from '../../src/config/schema.js';
import { ExitCode, InputError } from '../../src/errors.js';
import { actionOutputs } from '../../src/github/outputs.js';
import { runJob } from '../../src/pipeline/run.js';
import { field } from '../../src/render/json.js';
import { svgDocument } from '../../src/render/svg.js';
import {
  callRecordFields,
  parseSampleLog,
  recordedOptions,
  registerRecordFormat,
  SAMPLE_LOG_VERSION,
  type SampleRecord,
} from '../../src/sampleLog/index.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';

const toySettingsSchema = z
  .object({
    questions: z.array(z.string().min(1)).min(1).default(['Name a colour.', 'Name a fruit.']),
    gate: z
      .object({ minLength: z.number().int().min(0).default(10) })
      .strict()
      .prefault({}),
  })
  .strict();
type ToySettings = z.infer<typeof toySettingsSchema>;

/** Its record: the shared call fields and the answer's text. */
const toyCallSchema = z.object({ ...callRecordFields, check: z.literal('toy'), text: z.string() });
type ToyCallRecord = z.infer<typeof toyCallSchema>;

/** The config as the toy check reads it: its block typed. */
type ToyConfig = GateConfig & { toy: ToySettings };
/** Its number in report.json's headline and on a night of the history. */
type ToyNumbers = { toyMeanLength: number | null };

/** Its nightly rule's analysis: the nights with a length, and the mean length over them. */
interface LengthTrend {
  nights: number;
  mean: number | null;
}

const lengthTrendRule: NightlyRule<LengthTrend, ToyNumbers> = {
  key: 'lengthTrend',
  measured: (night) => typeof night.toyMeanLength === 'number',
  analyse: (nights) => {
    const lengths = nights.flatMap((n) =>
      typeof n.toyMeanLength === 'number' ? [n.toyMeanLength] : [],
    );
    const mean = lengths.length ? lengths.reduce((a, b) => a + b, 0) / lengths.length : null;
    return { nights: lengths.length, mean };
  },
  finding: (trend) => ({
    check: TOY,
    rule: 'length-trend',
    severity: 'info',
    message: `mean answer length over ${trend.nights} nights: ${trend.mean}`,
  }),
  card: () => ({
    check: TOY,
    rule: 'length-trend',
    tests: 'mean answer length over the nights',
    falseAlarmRate: 0,
    falseAlarmBasis: 'never fails',
    detects: '–',
    outcome: 'pass',
  }),
  sentence: (trend) => `Toy length over ${trend.nights} nights: ${trend.mean}.`,
  chart: (trend) => ({
    file: 'toy-length-trend.svg',
    title: `toy length per night: ${trend.model}`,
    svg: svgDocument(100, 50, 'toy length', []),
  }),
};

const TOY = 'toy';

interface ToySeries {
  model: string;
  answers: number;
  meanLength: number | null;
}
interface ToySection {
  check: 'toy';
  series: ToySeries[];
}

function settingsOf(config: ToyConfig): ToySettings {
  if (!config.toy) throw new Error('the config has no toy block');
  return config.toy;
}

const isToyAnswer =
  (model: string) =>
  (r: SampleRecord): r is ToyCallRecord =>
    r.check === 'toy' && r.kind === 'call' && r.model === model && r.status === 'ok';

/** The first model's mean length, read from a section as written (defensively). */
function meanLengthOf(section: unknown): number | null {
  const series = field(section, 'series');
  const mean = Array.isArray(series) ? field(series[0], 'meanLength') : null;
  return typeof mean === 'number' ? mean : null;
}

const options = { temperature: 0, seed: 1, numCtx: 2048, numPredict: 64, think: false };

/** Per model: the answers and their total length, folded as the log is read. */
const toyFold: CheckFold<
  string[],
  ToySection,
  { model: string; answers: number; total: number }[]
> = {
  start: (_questions, ctx) =>
    [ctx.models.baseline, ctx.models.candidate]
      .filter((m): m is string => m !== null)
      .map((model) => ({ model, answers: 0, total: 0 })),
  add: (state, record) => {
    for (const series of state) {
      if (!isToyAnswer(series.model)(record)) continue;
      series.answers++;
      series.total += record.text.length;
    }
  },
  finish: (state) => ({
    check: 'toy',
    series: state.map(({ model, answers, total }) => ({
      model,
      answers,
      meanLength: answers ? total / answers : null,
    })),
  }),
};

const toyCheck: Check<string[], ToySection, ToyConfig> = {
  name: TOY,
  settingsSchema: toySettingsSchema,
  unit: ['answer', 'answers'],
  sectionSchema: sectionSchema<ToySection>('toy'),
  load: async (ctx) => settingsOf(ctx.config).questions,
  limit: (questions, n) => questions.slice(0, n),
  plan: (questions, _ctx, model) =>
    questions.map((question, i) => {
      const promptSha256 = createHash('sha256').update(question).digest('hex');
      return {
        check: TOY,
        model,
        key: `q${i}`,
        expectedCalls: 1,
        expected: { promptSha256, options: recordedOptions(options) },
        isComplete: (prior) => prior.length > 0,
        async execute(unit) {
          const outcome = await unit.call({
            request: { model, messages: [{ role: 'user', content: question }], options },
            promptSha256,
          });
          await unit.emit({
            v: SAMPLE_LOG_VERSION,
            kind: 'call',
            check: TOY,
            model,
            digest: unit.digest,
            key: `q${i}`,
            sample: 0,
            options: recordedOptions(options),
            prompt_sha256: promptSha256,
            status: outcome.status,
            latency_ms: outcome.latencyMs,
            attempts: outcome.attempts,
            text: outcome.response?.content ?? '',
          });
        },
      };
    }),
  fold: toyFold,
  gate: (section, ctx) => {
    const { minLength } = settingsOf(ctx.config).gate;
    return section.series
      .filter((s) => s.meanLength !== null && s.meanLength < minLength)
      .map(
        (s): GateFinding => ({
          check: TOY,
          rule: 'min-length',
          severity: 'fail',
          message: `${s.model} answers in ${s.meanLength} characters on average, under ${minLength}`,
        }),
      );
  },
  rules: (_section, ctx) => [
    {
      check: TOY,
      rule: 'min-length',
      tests: 'mean answer length of each model',
      falseAlarmRate: 0,
      falseAlarmBasis: 'deterministic',
      detects: `answers shorter than ${settingsOf(ctx.config).gate.minLength} characters`,
    },
  ],
  maxTimeoutShare: () => 0.5,
  log: {
    format: { kinds: { call: toyCallSchema }, okAnswer: z.object({ text: z.string().min(1) }) },
  },
  headline: {
    fields: {
      schema: { toyMeanLength: z.number().nullable() },
      empty: { toyMeanLength: null },
      read: (section) => ({ toyMeanLength: meanLengthOf(section) }),
    },
    outputs: [
      {
        name: 'toy-length',
        description: 'Mean answer length of the baseline',
        value: (headline: ToyNumbers) => headline.toyMeanLength ?? null,
      },
    ],
  },
  nightly: {
    fields: {
      schema: { toyMeanLength: z.number().nullable() },
      empty: { toyMeanLength: null },
      columns: [{ header: 'toy length', cell: (v: ToyNumbers) => String(v.toyMeanLength ?? '–') }],
      read: (section) => ({ toyMeanLength: meanLengthOf(section) }),
    },
    rule: lengthTrendRule,
  },
  cli: {
    overrides: [
      {
        name: 'min-length',
        value: '<n>',
        help: 'toy: shortest mean answer that passes (toy.gate.min-length)',
        setting: ['gate', 'minLength'],
        parse: 'integer',
      },
    ],
    imports: [
      {
        name: 'questions',
        description: 'Toy questions from a text file, one a line',
        arguments: [
          { name: 'file', required: true, description: 'the text file' },
          { name: 'prefix', required: false },
        ],
        options: [],
        example: 'model-gate import questions questions.txt',
        async run(options, out, err) {
          const lines = readFileSync(String(options.file), 'utf8').split('\n').filter(Boolean);
          err(`read ${lines.length} questions\n`);
          out(`${JSON.stringify(lines.map((l) => `${options.prefix ?? ''}${l}`))}\n`);
          return ExitCode.pass;
        },
      },
    ],
    commands: {
      name: 'toy',
      description: "The toy check's own commands",
      commands: [
        {
          name: 'length',
          description: 'Print the length of a text, as the check measures an answer',
          options: [{ flags: '--text <text>', description: 'the text', required: true }],
          async run(options, out) {
            out(`${String(options.text).length}\n`);
            return ExitCode.pass;
          },
        },
      ],
    },
  },
  report: {
    section: (section) =>
      [
        '### toy — answer length',
        '',
        ...section.series.map(
          (s) => `- ${s.model}: ${s.answers} answers, mean length ${s.meanLength}`,
        ),
      ].join('\n'),
    glance: (section) => [['toy mean answer length', String(section.series[0]?.meanLength)]],
    settings: (config) => [['toy questions', String(settingsOf(config).questions.length)]],
  },
};

/** The checks of this file's runs: the built-in ones and the toy. */
const WITH_TOY = [...CHECKS, toyCheck];
const handlers = createHandlers(WITH_TOY);
// The sample log still reads records by a table of formats the built-in list fills.
registerRecordFormat(toyCheck.name, toyCheck.log?.format);

let simulator: RunningSimulator;
let root: string;
const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, scenario: 'fixtures/simulator/demo.yml' });
  root = mkdtempSync(path.join(tmpdir(), 'model-gate-toy-'));
});
afterAll(async () => {
  await simulator.close();
});

async function runToy(name: string, minLength: number) {
  const dir = path.join(root, name);
  const loaded = loadConfig({
    checks: WITH_TOY,
    file: 'fixtures/demo/model-gate.yml',
    env: {},
    overrides: [
      { path: ['provider', 'host'], value: simulator.url, source: 'test' },
      { path: ['checks'], value: ['toy'], source: 'test' },
      { path: ['toy', 'questions'], value: ['One?', 'Two?', 'Three?'], source: 'test' },
      { path: ['toy', 'gate', 'minLength'], value: minLength, source: 'test' },
      { path: ['output', 'dir'], value: dir, source: 'test' },
    ],
  });
  const outcome = await runJob({ loaded, progress: quiet });
  const summary = readFileSync(path.join(dir, 'summary.md'), 'utf8');
  const json = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
  return { outcome, summary, json };
}

describe('a fourth check registered from one file', () => {
  it('runs, and shows its section, settings, rule and passing verdict', async () => {
    const { outcome, summary, json } = await runToy('pass', 10);
    const length = 'Simulated answer from demo-base:1b.'.length;
    expect(length).toBe(35);
    expect(json.checks.toy).toEqual({
      check: 'toy',
      series: [
        { model: 'demo-base:1b', answers: 3, meanLength: 35 },
        { model: 'demo-cand:1b', answers: 3, meanLength: 35 },
      ],
    });
    expect(json.verdict.status).toBe('pass');
    expect(json.verdict.rules).toEqual([
      expect.objectContaining({ check: 'toy', rule: 'min-length', outcome: 'pass' }),
    ]);
    expect(outcome.exitCode).toBe(ExitCode.pass);
    // Each check's section is collapsed under its heading.
    expect(summary).toContain('<details><summary>toy — answer length</summary>');
    expect(summary).toContain('- demo-cand:1b: 3 answers, mean length 35');
    expect(summary).toMatch(/\| toy mean answer length \| +35 \|/);
    expect(summary).toMatch(/\| toy questions +\| 3 +\|/);
    expect(summary).toMatch(/\| ✅ pass \| toy +\| `min-length` \|/);
    // Its headline value and its action output.
    expect(json.headline.toyMeanLength).toBe(35);
    const files = { report: 'report.json', summary: 'summary.md' };
    expect(actionOutputs(outcome.report, files, null, WITH_TOY)).toMatchObject({
      verdict: 'pass',
      'toy-length': '35',
      'churn-rate': '',
    });
    // Its records, as the run wrote them, read back through its schema.
    const log = readFileSync(path.join(root, 'pass', 'samples.jsonl'), 'utf8');
    const texts = parseSampleLog(log, 'samples.jsonl')
      .records.filter(isToyAnswer('demo-base:1b'))
      .map((r) => r.text);
    expect(texts).toEqual(Array(3).fill('Simulated answer from demo-base:1b.'));
  });

  it('fails the gate when its rule fails', async () => {
    const { outcome, summary, json } = await runToy('fail', 36);
    expect(json.verdict.status).toBe('fail');
    expect(json.verdict.reasons.map((r: GateFinding) => r.message)).toEqual([
      'demo-base:1b answers in 35 characters on average, under 36',
      'demo-cand:1b answers in 35 characters on average, under 36',
    ]);
    expect(outcome.exitCode).toBe(ExitCode.regression);
    expect(summary).toContain('model-gate verdict: fail');
    expect(summary).toMatch(/\| ❌ fail \| toy +\| `min-length` \|/);
  });

  it('reads its records through its own schema, naming the line of a bad one', () => {
    const line = (fields: Record<string, unknown>) =>
      JSON.stringify({
        v: 1,
        kind: 'call',
        check: 'toy',
        model: 'm',
        digest: null,
        key: 'q0',
        sample: 0,
        options: recordedOptions(options),
        prompt_sha256: 'x',
        status: 'ok',
        latency_ms: 1,
        attempts: 1,
        text: 'an answer',
        ...fields,
      });
    expect(parseSampleLog(`${line({})}\n`, 'a.jsonl').records).toHaveLength(1);
    const problem = (fields: Record<string, unknown>) => {
      try {
        parseSampleLog(`${line({})}\n${line(fields)}\n`, 'a.jsonl');
        return null;
      } catch (error) {
        return error instanceof InputError ? error.message : String(error);
      }
    };
    expect(problem({ text: 5 })).toMatch(/^a\.jsonl:2: field "text": /);
    expect(problem({ text: '' })).toMatch(
      /^a\.jsonl:2: a toy record with status "ok" must carry its answer: field "text"/,
    );
    expect(problem({ kind: 'game' })).toBe('a.jsonl:2: field "kind": a toy record is never "game"');
  });

  it('adds its number to a night of the history, and its column to the history table', async () => {
    const dir = path.join(root, 'nightly');
    const config = path.join(root, 'nightly.yml');
    writeFileSync(
      config,
      [
        'models:',
        '  baseline: demo-base:1b',
        'checks: [toy]',
        'toy:',
        '  questions: [One?, Two?]',
        'output:',
        `  dir: ${JSON.stringify(dir)}`,
        `  history: ${JSON.stringify(path.join(dir, 'history.jsonl'))}`,
        '',
      ].join('\n'),
    );
    const loaded = loadConfig({
      checks: WITH_TOY,
      file: config,
      env: {},
      overrides: [{ path: ['provider', 'host'], value: simulator.url, source: 'test' }],
    });
    await runJob({ loaded, progress: quiet });
    const night = JSON.parse(readFileSync(path.join(dir, 'history.jsonl'), 'utf8'));
    expect(night).toMatchObject({ model: 'demo-base:1b', toyMeanLength: 35 });
    expect(night.ece).toBeNull();
    const summary = readFileSync(path.join(dir, 'summary.md'), 'utf8');
    expect(summary).toMatch(/\| night +\| commit +\| digest +\|.*\| toy length \| verdict \|/);
    // warn when an earlier run left the other model loaded on the shared simulator
    expect(summary).toMatch(/\| +35 \| (pass|warn) +\|/);
    // Its nightly rule: its analysis under its key, its finding and card, its trend chart.
    const json = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
    expect(json.history.lengthTrend).toEqual({ nights: 1, mean: 35 });
    expect(Object.keys(json.history)).toEqual([
      'file',
      'model',
      'nights',
      'total',
      'otherModels',
      'drift',
      'decodeDrop',
      'lengthTrend',
      'appended',
    ]);
    expect(json.verdict.rules).toContainEqual(
      expect.objectContaining({ check: 'toy', rule: 'length-trend', outcome: 'pass' }),
    );
    expect(summary).toContain('mean answer length over 1 nights: 35');
    expect(readFileSync(path.join(dir, 'toy-length-trend.svg'), 'utf8')).toContain('<svg');
    // The drift rule does not run without dragon's number tonight: no finding, no card.
    expect(json.verdict.rules.map((r: { rule: string }) => r.rule)).not.toContain('ece-drift');
  });

  it('takes its setting as a flag of run and validate, and as an action input', async () => {
    let stdout = '';
    const io = { stdout: (t: string) => (stdout += t), stderr: () => {}, colour: false };
    await runCli(['validate', '--help'], handlers, io);
    expect(stdout).toMatch(
      /\(churn\.samples\)\n +--min-length <n> +toy: shortest mean answer that passes\n +\(toy\.gate\.min-length\)\n +--concurrency <n>/,
    );
    const flagged = loadConfig({
      checks: WITH_TOY,
      file: 'fixtures/demo/model-gate.yml',
      env: {},
      overrides: toOverrides({ 'min-length': '7' }, (n) => `flag --${n}`, WITH_TOY),
    });
    expect(settingsOf(flagged.config).gate.minLength).toBe(7);
    const inputs: Record<string, string> = {
      config: 'fixtures/demo/model-gate.yml',
      'min-length': 'x',
    };
    const reader = {
      getInput: (name: string) => inputs[name] ?? '',
      getBooleanInput: () => true,
      setSecret: () => {},
    };
    let details: readonly string[] = [];
    try {
      getInputs(reader, { checks: WITH_TOY });
    } catch (error) {
      details = (error as InputError).details;
    }
    expect(details).toContain(
      `toy.gate.min-length (from input 'min-length'): expected number, got "x"`,
    );
    inputs['min-length'] = '9';
    expect(settingsOf(getInputs(reader, { checks: WITH_TOY }).loaded.config).gate.minLength).toBe(
      9,
    );
  });

  it('adds its converter under import, with its arguments by name', async () => {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: (t: string) => (stdout += t),
      stderr: (t: string) => (stderr += t),
      colour: false,
    };
    const file = path.join(root, 'questions.txt');
    writeFileSync(file, 'One?\nTwo?\n');
    expect(await runCli(['import', 'questions', file, 'Q: '], handlers, io)).toBe(ExitCode.pass);
    expect(stdout).toBe('["Q: One?","Q: Two?"]\n');
    expect(stderr).toBe('read 2 questions\n');
    stdout = '';
    expect(await runCli(['import', 'questions', '--help'], handlers, io)).toBe(ExitCode.pass);
    expect(stdout).toContain('Usage: model-gate import questions [options] <file> [prefix]');
    expect(stdout).toMatch(/Arguments:\n +file +the text file\n/);
    expect(stdout).toMatch(/Example:\n {2}model-gate import questions questions\.txt\n$/);
    stderr = '';
    expect(await runCli(['import', 'questions'], handlers, io)).toBe(ExitCode.badInput);
    expect(stderr).toContain("error: missing required argument 'file'");
  });

  it('adds its command to the CLI', async () => {
    let stdout = '';
    const io = { stdout: (t: string) => (stdout += t), stderr: () => {}, colour: false };
    expect(await runCli(['toy', 'length', '--text', 'abcd'], handlers, io)).toBe(ExitCode.pass);
    expect(stdout).toBe('4\n');
    stdout = '';
    await runCli(['--help'], handlers, io);
    expect(stdout).toMatch(/^ {2}toy +The toy check's own commands$/m);
    expect(stdout.replace(/\s+/g, ' ')).toContain(
      'persona distinctiveness (personas), decode speed and answer length (speed), toy.',
    );
  });

  it('refuses a check name nothing registered, naming the registered ones', () => {
    let details: readonly string[] = [];
    try {
      loadConfig({
        checks: WITH_TOY,
        file: 'fixtures/demo/model-gate.yml',
        env: {},
        overrides: [{ path: ['checks'], value: ['toys'], source: 'test' }],
      });
    } catch (error) {
      details = (error as InputError).details;
    }
    expect(details).toEqual([
      'checks[0] (from test): expected one of "churn", "dragon", "personas", "speed", "toy", got "toys"; did you mean "toy"?',
    ]);
  });

  it('names its settings block among the known ones, and refuses a key it does not have', () => {
    const problems = (overrides: { path: string[]; value: unknown }[]) => {
      try {
        loadConfig({
          checks: WITH_TOY,
          file: 'fixtures/demo/model-gate.yml',
          env: {},
          overrides: overrides.map((o) => ({ ...o, source: 'test' })),
        });
        return [];
      } catch (error) {
        return (error as InputError).details;
      }
    };
    expect(problems([{ path: ['bogus'], value: 1 }])).toEqual([
      'line 4: unknown setting bogus (known: provider, models, checks, fail-on, false-alarm-rate, runner, output, churn, dragon, personas, speed, toy, history)',
    ]);
    expect(problems([{ path: ['toy', 'colour'], value: 'red' }])).toEqual([
      'line 4: unknown setting toy.colour (known: questions, gate)',
    ]);
  });
});
