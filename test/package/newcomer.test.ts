/**
 * A newcomer with Node and the packed tarball, nothing else. The package is packed from this
 * checkout (`npm pack`), installed offline in an empty folder outside the repository, and every
 * shell command README.md and docs/ give is run there as written, in the order a reader meets
 * it, against the simulator serving the model tags the docs use (qwen2.5:7b and qwen2.5:14b,
 * two identical scripted models). A command the docs add must be run here or be listed in
 * NOT_RUN with the reason, or the last test fails.
 *
 * The project's config is the one `npx model-gate init` writes, cut to small settings after it
 * is written (2 samples, 2 maze seeds, 12 items) so that the commands run in seconds; the run
 * without a config measures the built-in defaults in full.
 *
 * npm exec spends most of a second loading npm before it starts the bin, the same way for every
 * command. The commands that test what npx itself does (resolving the bin of the installed
 * package, passing its exit code and output through, Ctrl-C) run through npm exec; the others
 * run through an `npx` first on PATH that starts the same bin directly (`node_modules/.bin`, as
 * npm exec resolves it in this project), and a test checks that both give the same result.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseDocument, stringify } from 'yaml';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { documentedCommands } from '../support/docCommands.js';
import { builtInItemsScenario } from '../support/instantScenario.js';

const repo = process.cwd();
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
  name: string;
  version: string;
  scripts: Record<string, string>;
};
const TARBALL = `${pkg.name}-${pkg.version}.tgz`;

interface Result {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

let root: string;
let project: string;
let examples: string;
let simulator: RunningSimulator;
/** The reader's shell: `npx` starts the installed bin directly (see the header). */
let env: NodeJS.ProcessEnv;
/** The same with npm's own npx. */
let npmEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'model-gate-newcomer-'));
  project = path.join(root, 'project');
  examples = path.join(root, 'examples');
  mkdirSync(project);
  mkdirSync(examples);
  // `npm pack` in a clone, as the README says: the tarball of this checkout's dist/.
  const packed = spawnSync('npm', ['pack', '--silent', '--pack-destination', root], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, npm_config_cache: path.join(root, 'npm-cache') },
  });
  expect(packed.status, packed.stderr).toBe(0);
  copyFileSync(path.join(root, TARBALL), path.join(project, TARBALL));
  // Two tags the docs use, as identical scripted models that know the built-in items, without
  // their scripted latency: the run on the built-in defaults asks one request at a time.
  const scenario = builtInItemsScenario((text) =>
    text
      .replace('name: demo-base:1b', 'name: qwen2.5:7b')
      .replace('name: demo-twin:1b', 'name: qwen2.5:14b'),
  );
  simulator = await startSimulator({ port: 0, scenario });
  const direct = path.join(root, 'npx-direct');
  mkdirSync(direct);
  // Any other package goes to npm's npx: the rest of PATH, without this folder.
  writeFileSync(
    path.join(direct, 'npx'),
    [
      '#!/bin/sh',
      'if [ "$1" = model-gate ]; then shift; exec "$PWD/node_modules/.bin/model-gate" "$@"; fi',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, not a template
      'PATH="${PATH#*:}" exec npx "$@"',
      '',
    ].join('\n'),
    { mode: 0o755 },
  );
  npmEnv = {
    PATH: `${path.join(project, 'node_modules', '.bin')}${path.delimiter}${process.env.PATH}`,
    HOME: root,
    OLLAMA_HOST: simulator.url,
    NO_COLOR: '1',
    // Nothing may come from the registry: the package has no dependencies.
    npm_config_offline: 'true',
    npm_config_cache: path.join(root, 'npm-cache'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
  };
  env = { ...npmEnv, PATH: `${direct}${path.delimiter}${npmEnv.PATH}` };
}, 120_000);

afterAll(async () => {
  await simulator?.close();
});

/**
 * Runs a command line in bash as a reader would type it; `stopWhen`: Ctrl-C once it prints
 * that; `viaNpm`: `npx` is npm's own.
 */
function sh(command: string, cwd: string, stopWhen?: string, viaNpm = false): Promise<Result> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn('bash', ['--noprofile', '--norc', '-c', command], {
      cwd,
      env: viaNpm ? npmEnv : env,
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let stopped = false;
    const look = () => {
      if (stopWhen && !stopped && `${stdout}${stderr}`.includes(stopWhen)) {
        stopped = true;
        // Ctrl-C reaches the whole foreground process group, npx and model-gate alike.
        process.kill(-(child.pid as number), 'SIGINT');
      }
    };
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
      look();
    });
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      look();
    });
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

function report(dir: string) {
  return JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8'));
}

/** The starter config cut to small settings, comments kept; the items cut to the first 12. */
function smallSettings(): void {
  const file = path.join(project, 'model-gate.yml');
  const doc = parseDocument(readFileSync(file, 'utf8'));
  doc.setIn(['runner', 'concurrency'], 4);
  doc.setIn(['churn', 'samples'], 2);
  doc.setIn(['dragon', 'seeds'], '0-1');
  doc.setIn(['personas', 'samples'], 2);
  writeFileSync(file, doc.toString());
  const items = path.join(project, 'items', 'items.yml');
  writeFileSync(items, stringify((parse(readFileSync(items, 'utf8')) as unknown[]).slice(0, 12)));
}

interface Step {
  command: string;
  /** The folder it runs in: the user's project, or a folder holding the package's docs/examples. */
  in: 'project' | 'examples';
  /** Accepted exit codes, or the signal that ended it (default 0). */
  exit?: readonly (number | NodeJS.Signals)[];
  before?: () => Promise<void> | void;
  check?: (result: Result) => Promise<void> | void;
  /** A command that runs until stopped: Ctrl-C once its output holds this. */
  stopWhen?: string;
  /** Through npm's own npx: what the step checks depends on npm exec (see the header). */
  viaNpm?: true;
  timeout?: number;
}

const RUN_AGAINST = 'qwen2.5:7b';

/** The documented commands, in the order a reader meets them, each with what must come out. */
const PLAN: Step[] = [
  {
    command: `npm i -D ./${TARBALL}`,
    in: 'project',
    check: async () => {
      const installed = readdirSync(path.join(project, 'node_modules')).filter(
        (n) => !n.startsWith('.'),
      );
      expect(installed).toEqual(['model-gate']);
      // Before any config exists: the first command a newcomer may type. npm exec finds the
      // installed bin and passes its exit code and both streams through, as the direct start
      // the other commands use does.
      const bare = await sh('npx model-gate validate', project, undefined, true);
      expect(bare.code).toBe(2);
      expect(bare.stderr).toContain(`model-gate.yml: config file not found in ${project}`);
      expect(bare.stderr).toContain('npx model-gate init writes a starter model-gate.yml');
      expect(bare.stderr).toContain('--baseline TAG --candidate TAG');
      const direct = await sh('npx model-gate validate', project);
      expect(direct).toEqual(bare);
      const help = await sh('npx model-gate --help', project, undefined, true);
      expect(help.code).toBe(0);
      expect(await sh('npx model-gate --help', project)).toEqual(help);
    },
  },
  {
    command: 'npx model-gate demo',
    in: 'project',
    viaNpm: true,
    check: (r) => {
      expect(r.stdout).toContain('verdict: FAIL');
      expect(r.stdout).toContain('the FAIL verdict above is the expected result');
      expect(report(path.join(project, 'model-gate-out', 'demo')).verdict.status).toBe('fail');
    },
  },
  {
    command: `npx model-gate run --baseline ${RUN_AGAINST} --candidate qwen2.5:14b`,
    in: 'project',
    timeout: 300_000,
    check: (r) => {
      // No config: all three checks on the built-in items, catalogue and mazes of the package.
      expect(existsSync(path.join(project, 'model-gate.yml'))).toBe(false);
      const written = report(path.join(project, 'model-gate-out'));
      expect(Object.keys(written.checks)).toEqual(['churn', 'dragon', 'personas']);
      expect(written.run.config.churn.items).toBe('fixtures/items/general.yml');
      expect(written.checks.churn.itemCounts.total).toBe(63);
      expect(written.checks.dragon.seeds).toHaveLength(10);
      expect(written.checks.personas.catalogue.assistants).toHaveLength(6);
      expect(written.run.coverage.complete).toBe(true);
      expect(r.stdout).toContain('verdict: PASS');
    },
  },
  {
    command: 'npx model-gate init',
    in: 'project',
    check: (r) => {
      expect(r.stdout).toContain('next: edit the model tags in model-gate.yml');
      const config = readFileSync(path.join(project, 'model-gate.yml'), 'utf8');
      // Installed in this project: the editor schema is the installed package's copy.
      expect(config.split('\n')[0]).toBe(
        '# yaml-language-server: $schema=./node_modules/model-gate/schema/config.schema.json',
      );
      expect(
        existsSync(path.join(project, 'node_modules/model-gate/schema/config.schema.json')),
      ).toBe(true);
      smallSettings();
    },
  },
  {
    command: 'npx model-gate validate',
    in: 'project',
    check: (r) => {
      expect(r.stdout).toContain('model-gate.yml: valid');
      expect(r.stdout).toContain(
        'next: a smoke run against the server: npx model-gate run --limit 3',
      );
    },
  },
  {
    command: 'npx model-gate run --limit 3',
    in: 'project',
    check: (r) => expect(r.stdout).toContain('smoke run'),
  },
  { command: 'npx model-gate run --config model-gate.yml', in: 'project' },
  {
    command: 'npx model-gate run --fresh',
    in: 'project',
    check: () => {
      const kept = readdirSync(path.join(project, 'model-gate-out')).filter((f) =>
        /^samples\..+\.jsonl$/.test(f),
      );
      expect(kept).toHaveLength(1);
    },
  },
  {
    command: 'npx model-gate run --candidate qwen2.5:14b --samples 20 --concurrency 2',
    in: 'project',
  },
  {
    command: 'npx model-gate analyze',
    in: 'project',
    check: (r) => expect(r.stdout).toContain(path.join('model-gate-out', 'samples.jsonl')),
  },
  {
    command: 'npx model-gate analyze --log a/samples.jsonl --log b/samples.jsonl --out report/',
    in: 'project',
    before: async () => {
      // The logs of two shards, as a matrix's runners would leave them.
      for (const [i, dir] of [
        [1, 'a'],
        [2, 'b'],
      ] as const) {
        const shard = await sh(
          `npx model-gate run --shard ${i}/2 --log ${dir}/samples.jsonl`,
          project,
        );
        expect(shard.code, shard.stderr).toBe(0);
      }
    },
    check: () => {
      const merged = report(path.join(project, 'report'));
      expect(merged.run.coverage.complete).toBe(true);
      expect(merged.run.shards).toEqual(['1/2', '2/2']);
    },
  },
  {
    command: `npx model-gate analyze --log samples.jsonl --baseline ${RUN_AGAINST} --candidate qwen2.5:14b`,
    in: 'project',
    before: () => {
      copyFileSync(
        path.join(project, 'model-gate-out', 'samples.jsonl'),
        path.join(project, 'samples.jsonl'),
      );
    },
  },
  {
    command: 'npx model-gate demo --scenario aa',
    in: 'project',
    check: (r) => {
      expect(r.stdout).toContain('verdict: PASS');
      // Identical models: no rule fails and no item deteriorates.
      const written = report(path.join(project, 'model-gate-out', 'demo-aa'));
      expect(written.verdict.status).toBe('pass');
      expect(
        written.verdict.reasons.filter((x: { severity: string }) => x.severity === 'fail'),
      ).toEqual([]);
      expect(written.headline.deteriorated).toBe(0);
      expect(written.run.models.candidate.model).toBe('demo-twin:1b');
      // The passing page is as short as the failing one: the verdict first, within 18 kB.
      const summary = readFileSync(
        path.join(project, 'model-gate-out', 'demo-aa', 'summary.md'),
        'utf8',
      );
      expect(summary.split('\n')[0]).toBe('## ✅ model-gate verdict: pass');
      expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(18_000);
      const lines = summary.split('\n');
      expect(lines.findIndex((line) => line.startsWith('<details>'))).toBeLessThanOrEqual(15);
    },
  },
  {
    command: 'npx model-gate view model-gate-out/demo',
    in: 'project',
    // No display here: the page's path is printed instead of a browser opened.
    check: (r) =>
      expect(r.stdout.trim()).toBe(path.join(project, 'model-gate-out', 'demo', 'report.html')),
  },
  {
    command: 'npx model-gate simulate --port 11435 --scenario demo',
    in: 'project',
    stopWhen: 'run against it from another terminal',
    viaNpm: true,
    // Under npx, Ctrl-C ends npm too (130 in a terminal), as the README says.
    exit: [0, 130, 'SIGINT'],
    check: (r) => {
      expect(r.stdout).toContain('listening on http://127.0.0.1:11435');
      expect(r.stdout).toContain(
        'OLLAMA_HOST=http://127.0.0.1:11435 npx model-gate run --baseline demo-base:1b --candidate demo-cand:1b',
      );
    },
  },
  {
    command: 'npx model-gate dragon maze --seed 3',
    in: 'project',
    check: (r) => expect(r.stdout).toContain('+---+'),
  },
  {
    command: 'npx model-gate dragon maze --seed 3 --json',
    in: 'project',
    check: (r) => expect(JSON.parse(r.stdout).walls.length).toBeGreaterThan(0),
  },
  { command: 'npx model-gate dragon play --player careful --seeds 0-99', in: 'project' },
  {
    command: 'npx model-gate import promptfoo promptfooconfig.yaml --out items.yml',
    in: 'project',
    before: () => {
      // A small promptfoo suite of the user's own: one deterministic test, one judged by a model.
      writeFileSync(
        path.join(project, 'promptfooconfig.yaml'),
        stringify({
          prompts: ['Answer briefly: {{question}}'],
          tests: [
            {
              description: 'Capital',
              vars: { question: 'What is the capital of France?' },
              assert: [{ type: 'icontains', value: 'Paris' }],
            },
            {
              description: 'Tone',
              vars: { question: 'Say hello.' },
              assert: [{ type: 'llm-rubric', value: 'is polite' }],
            },
          ],
        }),
      );
    },
    check: (r) => {
      const items = parse(readFileSync(path.join(project, 'items.yml'), 'utf8')) as unknown;
      expect(JSON.stringify(items)).toContain('What is the capital of France?');
      // The judged test is named as not converted, not dropped in silence.
      expect(`${r.stdout}${r.stderr}`).toContain('Tone');
    },
  },
  {
    command:
      'model-gate analyze --config docs/examples/harness/model-gate.yml --log docs/examples/harness/samples.jsonl --out report/',
    in: 'examples',
    before: () => {
      // The package carries docs/: its examples, where the page's paths point.
      cpSync(
        path.join(project, 'node_modules', 'model-gate', 'docs', 'examples'),
        path.join(examples, 'docs', 'examples'),
        {
          recursive: true,
        },
      );
    },
    check: () => expect(report(path.join(examples, 'report')).verdict.status).toBe('pass'),
  },
];

/** Commands the docs name that run as one of the plan's (the README's npm script runs the CLI). */
const SAME_AS: Record<string, string> = {
  'npm run demo -- --scenario aa': 'npx model-gate demo --scenario aa',
  'npm run demo': 'npx model-gate demo',
  // The tarball this test installs is made by this command, in the repository.
  'npm pack': `npm i -D ./${TARBALL}`,
  // The same import, into a folder of the project.
  'model-gate import promptfoo promptfooconfig.yaml --out items/promptfoo.yml':
    'npx model-gate import promptfoo promptfooconfig.yaml --out items.yml',
};

/** Documented commands this test does not run, and why. */
const NOT_RUN: Record<string, string> = {
  'node --import tsx bench/oc/churnDefault.ts --runs 20 --effect-runs 30 --open-runs 0':
    'the adaptive default through the real gate: minutes of simulation',
  'node --import tsx bench/oc/churnOnly.ts --runs 100 --effect-runs 10 --variant-runs 0 --open-runs 0':
    'the churn rows of the operating characteristics: minutes of simulation',
  'dest=../your-repo/.github/actions/model-gate':
    'copying the action into a repository: test/github/workflows.test.ts runs these lines',
  'mkdir -p "$dest/dist"': 'part of copying the action, run by test/github/workflows.test.ts',
  'cp -r action.yml package.json fixtures "$dest"/':
    'part of copying the action, run by test/github/workflows.test.ts',
  'cp dist/index.js dist/cli.js "$dest/dist"/':
    'part of copying the action, run by test/github/workflows.test.ts',
  'node --import tsx bench/oc/personasOnly.ts --runs 320 --seed 41 --scenario "look-alike twins: …"':
    'one setting of the persona operating characteristics: minutes of simulation',
  'npm ci && npm run demo':
    'the quick start in a clone: npm ci installs the development dependencies from the registry (CI runs it); npm run demo is npx model-gate demo, run above',
  'npm test': 'this test suite',
  'npm ci': 'installs the development dependencies from the registry; CI runs it',
  'npm ci --prefer-offline': 'the same install as .ci/run runs it, the npm cache first',
  'npm run all':
    'the development checks (format, lint, types, unused code, tests, bundle) that CI runs',
  'npm run knip': 'the unused-code check, part of npm run all that CI runs',
  'npm run build': 'the type checks, part of npm run all that CI runs',
  'npm run bundle': 'rebuilds dist/; the check-dist workflow compares it with the committed one',
  'npm run schema':
    'regenerates schema/config.schema.json and model-gate.yml; test/config fails when they are not current',
  'npm run bench': 'benchmarks: minutes of measurement, figures in docs/performance.md',
  'npm run bench -- page --open 0.5': 'the page benchmark alone, with half the items open: minutes',
  'npm run bench -- analysis [--items 5000,50000]':
    'the analysis benchmark alone: writes a 810 MB log and analyses it, minutes',
  'model-gate import promptfoo': 'the command’s name in prose; run above with a suite',
  'npm run oc':
    'the gate rules’ operating characteristics: hours of simulation (docs/gate-validity*.md)',
  'npm run oc -- --runs 400': 'the same simulation at another size',
  'npm run oc -- --runs 800': 'the same simulation at another size',
  'npx tsx bench/inputs.ts items-jsonl-limit':
    'a benchmark of reading the largest items file allowed; minutes on a small machine',
  'npx tsx bench/adaptive.ts 48':
    'a simulation of adaptive sampling (docs/adaptive-sampling.md): minutes',
  'npx tsx bench/adaptive.ts 480 shipped': 'the same simulation at another size',
  'npx tsx bench/adaptive.ts 960 shipped 61000,52000,73000,84000':
    'the same simulation at another size',
  'npx tsx bench/adaptive.ts 24 shipped': 'the same simulation at another size',
  'npx tsx bench/adaptive.ts 48 up-to-20': 'the same simulation with the designs up to 20',
  'npx tsx bench/adaptiveLevel.ts 100000 20000':
    'a simulation of the efficacy stop’s level (docs/adaptive-sampling.md): minutes',
  'node --import tsx bench/oc/churnDefault.ts --runs 60 --effect-runs 30 --open-runs 10':
    'a simulation of the churn default through the real gate: half an hour',
  'node --import tsx bench/oc/churnDefault.ts --runs 200 --effect-runs 1 --open-runs 1 --seed 2':
    'the same simulation at another size and seed: tens of minutes',
  'node --import tsx bench/oc/churnDefault.ts --runs 20 --effect-runs 30 --open-runs 10':
    'the same simulation at another size: tens of minutes',
  'node --import tsx bench/oc/churnDefault.ts --runs 100 --effect-runs 0 --open-runs 0 --seed 7':
    'the same simulation at another size and seed: tens of minutes',
  'npx tsx bench/adaptiveDemo.ts': 'the demo pair against the simulator three times: a minute',
  'npm run bench -- adaptiveDemo': 'the same benchmark through npm run bench: a minute',
  'npx tsx bench/adaptiveMoving.ts 200':
    'a simulation of adaptive sampling on a pair where most items move: minutes',
  'npm run bench -- throughput': 'a benchmark: minutes, and timings that depend on the machine',
  'npm run bench -- throughput --mixed-only':
    'the mixed job of the throughput benchmark alone: about a minute',
  'npx tsx bench/bigLog.ts DIR 5000':
    'writes a generated log of 5,000 items for the analysis benchmark: a minute and 80 MB',
  'npx tsx bench/throughput.ts --mixed-only':
    'a benchmark: about a minute, and timings that depend on the machine',
  'npx tsx bench/embedded.ts':
    'a benchmark of the embedded provider: needs node-llama-cpp and minutes',
  'node --import tsx bench/oc/churnOnly.ts --runs N --effect-runs N --variant-runs N':
    'a form with placeholders (N)',
  'node --import tsx bench/oc/churnOnly.ts --runs 300 --effect-runs 100 --variant-runs 20':
    'a simulation of the churn rules: minutes',
  'npm i -D model-gate': 'the registry form: the package is not published yet',
  'npx model-gate@0.1.0 …':
    'the registry form, with a placeholder: the package is not published yet',
  'npm i -D node-llama-cpp@3.21.1':
    'the native engine of the embedded provider, from the registry: scripts/check-package.sh installs and runs it',
  "npm pkg delete 'overrides.node-llama-cpp[@node-llama-cpp/linux-x64-cuda]' 'overrides.node-llama-cpp[@node-llama-cpp/linux-x64-cuda-ext]'":
    'a GPU runner’s install of the CUDA builds (docs/embedded.md): needs the registry and a GPU',
  'npm install --no-audit --no-fund': 'the same GPU runner’s install',
  'npx -p ajv-cli@5.0.0 -p ajv-formats@3.0.1 ajv validate --spec=draft2020 -c ajv-formats --allow-union-types -s schema/report.schema.json -d report.json':
    'fetches ajv-cli and ajv-formats from the registry; test/report/schema.test.ts validates reports against the schema with ajv',
  'model-gate dragon maze --seed N': 'a form with a placeholder (N); run above with --seed 3',
  'model-gate analyze --log …': 'a form with a placeholder; run above with real logs',
  'model-gate analyze --log shard-1/… shard-2/…':
    'a form with placeholders; the merge of two shards runs above with real logs',
  'node --import tsx bench/oc/nightlyOnly.ts --runs N --seed S':
    'a simulation of nightly runs with a history, with placeholders (N, S): minutes',
  'node --import tsx bench/oc/personasOnly.ts --runs N --seed S --scenario TEXT':
    'a simulation of the personas rules, with placeholders: minutes',
  'node --import tsx bench/oc/personasOnly.ts --nightly --runs N --seed 43':
    'a simulation of nightly personas, with a placeholder (N): minutes',
  'model-gate view [dir]': 'a form with an optional argument; run above with the demo’s folder',
};

/** Inline names of commands and tools in prose, not commands to type. */
const NAMES = new Set([
  'model-gate run',
  'model-gate analyze',
  'model-gate demo',
  'model-gate init',
]);

describe('a newcomer with the packed tarball, in an empty folder outside the repository', () => {
  it('starts from the tarball alone, under 2 MB packed', () => {
    expect(readdirSync(project)).toEqual([TARBALL]);
    expect(statSync(path.join(project, TARBALL)).size).toBeLessThan(2 * 1024 * 1024);
  });

  for (const step of PLAN) {
    it(step.command, { timeout: step.timeout ?? 180_000 }, async () => {
      await step.before?.();
      const result = await sh(
        step.command,
        step.in === 'project' ? project : examples,
        step.stopWhen,
        step.viaNpm,
      );
      const ended = result.code ?? result.signal;
      expect(step.exit ?? [0], `${step.command}\n${result.stdout}\n${result.stderr}`).toContain(
        ended,
      );
      expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
      await step.check?.(result);
    });
  }

  it('an interrupted demo says it starts over, not that its verdict is the expected one', {
    timeout: 180_000,
  }, async () => {
    // `exec`: Ctrl-C reaches model-gate itself, not a shell around it.
    const result = await sh(
      'exec node_modules/.bin/model-gate demo --out interrupted',
      project,
      'calls (',
    );
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('the demo starts over when run again');
    expect(result.stdout).toContain('verdict: INCONCLUSIVE (interrupted: partial report)');
    expect(result.stdout).toContain('The demo was interrupted');
    expect(result.stdout).not.toContain('expected result');
    expect(result.stdout).not.toContain('a run resumes from its sample log');
  });

  it('the port the simulator was stopped on is free again', async () => {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(11435, '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});

describe('the commands of README.md and docs/', () => {
  const documented = documentedCommands(repo);
  const planned = new Set(PLAN.map((s) => s.command));

  it('are each run above, or listed with the reason they are not', () => {
    const unplanned = documented.filter(
      ({ command }) =>
        !planned.has(command) &&
        !planned.has(SAME_AS[command] ?? '') &&
        !(command in NOT_RUN) &&
        !NAMES.has(command),
    );
    expect(unplanned.map((c) => `${c.where}: ${c.command}`)).toEqual([]);
  });

  it('lists nothing the docs no longer give', () => {
    const given = new Set(documented.map((c) => c.command));
    const stale = [...planned, ...Object.keys(SAME_AS), ...Object.keys(NOT_RUN), ...NAMES].filter(
      (command) => !given.has(command),
    );
    expect(stale).toEqual([]);
  });

  it('name commands the CLI has, and run the README’s npm script as the CLI', () => {
    expect(pkg.scripts.demo).toBe('node dist/cli.js demo');
    const help = spawnSync(process.execPath, ['dist/cli.js', '--help'], {
      encoding: 'utf8',
    }).stdout;
    for (const name of NAMES) {
      const command = /^model-gate (\w+)$/.exec(name)?.[1];
      if (command) expect(help).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    }
  });
});
