/**
 * `validate` refuses exactly what `run` refuses, with the same message, without a server;
 * `init` writes a starter project that validates, and never overwrites.
 */
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { handlers } from '../../src/cli/handlers.js';
import { runCli } from '../../src/cli/program.js';
import { ExitCode } from '../../src/errors.js';

async function cli(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, handlers, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr };
}

/** Nothing listens on port 9 (discard): a run that got past its input checks would exit 3. */
const NO_SERVER = ['--ollama-host', 'http://127.0.0.1:9'];

const corpus = ['fixtures/config/bad', 'fixtures/config/held-out'].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .map((f) => path.join(dir, f)),
);

describe('validate catches every bad input run catches, with the same message', () => {
  it('covers both folders of bad configs', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(18);
  });

  for (const file of corpus) {
    it(file, async () => {
      // The server through the environment, as a user's shell gives it: a flag would override
      // a bad provider.host in the file and hide the error under test.
      vi.stubEnv('OLLAMA_HOST', 'http://127.0.0.1:9');
      const run = await cli(['run', '--config', file]);
      const validate = await cli(['validate', '--config', file]);
      vi.unstubAllEnvs();
      expect(run.code, run.stderr).toBe(ExitCode.badInput);
      expect(validate.code).toBe(ExitCode.badInput);
      expect(validate.stderr).toBe(run.stderr);
      expect(validate.stderr).toMatch(/^model-gate: \S/);
      expect(validate.stdout).toBe('');
    });
  }

  it('a good config validates without a server and prints the plan', async () => {
    const { code, stdout, stderr } = await cli([
      'validate',
      '--config',
      'fixtures/demo/model-gate.yml',
      ...NO_SERVER,
    ]);
    expect(stderr).toBe('');
    expect(code).toBe(ExitCode.pass);
    // 75 items (63 multiple-choice, 12 open) × (10 samples + 1 greedy) per model; 6 assistants ×
    // 8 probes × 4 samples per model.
    expect(stdout).toContain('churn: 1650 units, calls 825 for demo-base:1b, 825 for demo-cand:1b');
    expect(stdout).toContain(
      'personas: 384 units, calls 192 for demo-base:1b, 192 for demo-cand:1b',
    );
    // 10 maze games: at most 300 decisions each; expected, the random player's 972 in all.
    expect(stdout).toContain(
      'dragon: 20 units, calls about 972 (at most 3000) for demo-base:1b, about 972 (at most 3000) for demo-cand:1b',
    );
    expect(stdout).toContain('plan: about 3978 calls expected, 8034 at most');
  });

  it('with adaptive churn sampling, says the plan is the first stage and gives the most a run asks', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-validate-'));
    const file = path.join(dir, 'model-gate.yml');
    writeFileSync(
      file,
      `models: { baseline: base:1b, candidate: cand:1b }
checks: [churn]
churn:
  items: ${path.resolve('fixtures/items/general.yml')}
  sampling: adaptive
`,
    );
    const { code, stdout, stderr } = await cli(['validate', '--config', file, ...NO_SERVER]);
    expect(stderr).toBe('');
    expect(code).toBe(ExitCode.pass);
    // 63 items × (4 first-stage samples + 1 greedy) per model now; at most 63 × (20 + 1).
    expect(stdout).toContain('churn: 630 units, calls 315 for base:1b, 315 for cand:1b');
    expect(stdout).toContain(
      'churn: adaptive sampling: the counts above are the first stage (4 samples per item); later stages follow the answers, up to 1323 calls per model (63 items × 20 samples + greedy)',
    );
  });
});

describe('init', () => {
  it('writes a config, items, catalogue and workflow that validate', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-init-'));
    const { code, stdout } = await cli(['init', '--dir', dir, '--baseline', 'llama3.2:3b']);
    expect(code).toBe(ExitCode.pass);
    for (const file of [
      'model-gate.yml',
      'items/items.yml',
      'personas/catalogue.yml',
      '.github/workflows/model-gate.yml',
    ]) {
      expect(existsSync(path.join(dir, file)), file).toBe(true);
    }
    expect(stdout).toContain('npx model-gate validate');
    expect(stdout).toContain(
      'the workflow runs the action from .github/actions/model-gate of your repository: copy it there (README: Where the action lives)',
    );
    const config = readFileSync(path.join(dir, 'model-gate.yml'), 'utf8');
    expect(config.split('\n')[0]).toMatch(
      /^# yaml-language-server: \$schema=https:\/\/unpkg\.com\/model-gate@\d+\.\d+\.\d+\/schema\/config\.schema\.json$/,
    );
    expect(parse(config).models.baseline).toBe('llama3.2:3b');
    const workflow = parse(
      readFileSync(path.join(dir, '.github/workflows/model-gate.yml'), 'utf8'),
    );
    expect(
      workflow.jobs.gate.steps.some((s: { uses?: string }) => s.uses?.includes('cache/save')),
    ).toBe(true);
    expect(readFileSync(path.join(dir, '.github/workflows/model-gate.yml'), 'utf8')).toContain(
      'uses: ./.github/actions/model-gate # the copy in this repository (README: Where the action lives)',
    );

    const validate = await cli([
      'validate',
      '--config',
      path.join(dir, 'model-gate.yml'),
      ...NO_SERVER,
    ]);
    expect(validate.stderr).toBe('');
    expect(validate.code).toBe(ExitCode.pass);
  });

  it('refuses to overwrite, names the file, and writes nothing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-init-'));
    writeFileSync(path.join(dir, 'model-gate.yml'), 'mine\n');
    const { code, stderr } = await cli(['init', '--dir', dir]);
    expect(code).toBe(ExitCode.badInput);
    expect(stderr).toContain(
      'model-gate: model-gate.yml: already exists; model-gate init never overwrites a file',
    );
    expect(readFileSync(path.join(dir, 'model-gate.yml'), 'utf8')).toBe('mine\n');
    expect(existsSync(path.join(dir, 'items'))).toBe(false);
  });
});

describe('analyze --baseline/--candidate', () => {
  it('are accepted and land in the config (a model the logs lack is named)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-analyze-'));
    const log = path.join(dir, 'samples.jsonl');
    writeFileSync(log, '');
    const { code, stderr } = await cli([
      'analyze',
      '--log',
      log,
      '--config',
      'fixtures/demo/model-gate.yml',
      '--baseline',
      'other:1b',
      '--candidate',
      'next:1b',
    ]);
    expect(code).toBe(ExitCode.badInput);
    expect(stderr).toContain('no record of other:1b (models.baseline)');
    expect(stderr).toContain('no record of next:1b (models.candidate)');
  });
});

/** Runs the CLI with `dir` as the working folder, as a user typing there would. */
async function cliIn(dir: string, argv: string[]) {
  const home = process.cwd();
  process.chdir(dir);
  try {
    return await cli(argv);
  } finally {
    process.chdir(home);
  }
}

describe('what the CLI says to a newcomer', () => {
  it('in a folder without a config: the missing file, model-gate init, and the flags that need none', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-empty-'));
    const bare = await cliIn(dir, ['validate']);
    expect(bare.code).toBe(ExitCode.badInput);
    expect(bare.stderr).toContain(
      `model-gate: model-gate.yml: config file not found in ${dir}, and no model named`,
    );
    expect(bare.stderr).toContain('npx model-gate init writes a starter model-gate.yml');
    expect(bare.stderr).toContain('--baseline TAG --candidate TAG');

    const missing = await cliIn(dir, ['validate', '-c', 'missing.yml']);
    expect(missing.code).toBe(ExitCode.badInput);
    expect(missing.stderr).toContain('missing.yml: config file not found');
    expect(missing.stderr).toContain('npx model-gate init');

    // Only the model tags: the built-in items and catalogue, read from the package.
    const tags = await cliIn(dir, [
      'validate',
      '--baseline',
      'a:1b',
      '--candidate',
      'b:1b',
      ...NO_SERVER,
    ]);
    expect(tags.stderr).toBe('');
    expect(tags.code).toBe(ExitCode.pass);
    // No config: adaptive sampling, the default; 63 items × (4 first-stage samples + 1 greedy)
    // × 2 models planned up front.
    expect(tags.stdout).toContain('churn: 630 units');
    expect(tags.stdout).toContain('churn: adaptive sampling: the counts above are the first stage');
    expect(tags.stdout).toContain(
      'next: a smoke run against the server: npx model-gate run --baseline a:1b --candidate b:1b --ollama-host http://127.0.0.1:9 --limit 3',
    );
  });

  it('names the config it read, not model-gate.yml, when an items file is missing', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-other-'));
    writeFileSync(
      path.join(dir, 'other.yml'),
      'models: { baseline: a:1b }\nchurn: { items: x.yml }\n',
    );
    const { code, stderr } = await cliIn(dir, ['validate', '-c', 'other.yml']);
    expect(code).toBe(ExitCode.badInput);
    expect(stderr).toContain(
      `model-gate: x.yml: items file not found (looked for ${path.join(dir, 'x.yml')})`,
    );
    expect(stderr).toContain('set churn.items in other.yml to a .jsonl, .json or .yaml file');
    expect(stderr).not.toContain('model-gate.yml');
  });

  it('shows the warnings of an items file in validate, and run prints them before its first request', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-warned-'));
    writeFileSync(
      path.join(dir, 'items.yml'),
      [
        '- {id: q1, domain: law, question: "Q1?", choices: [a, b], answer: A, source: web}',
        '- {id: q2, domain: law, question: "Q2?", choices: [a, b], answer: B}',
      ].join('\n'),
    );
    writeFileSync(
      path.join(dir, 'model-gate.yml'),
      'models: { baseline: a:1b, candidate: b:1b }\nchecks: [churn]\nchurn: { items: items.yml, samples: 2 }\n',
    );
    const validate = await cliIn(dir, ['validate', ...NO_SERVER]);
    expect(validate.code).toBe(ExitCode.pass);
    expect(validate.stdout).toContain('model-gate.yml: valid, with 1 warning');
    expect(validate.stdout).toMatch(
      / {2}warning: churn: items\.yml:1: unknown field source \(ignored\)/,
    );

    let progress = '';
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      progress += String(chunk);
      return true;
    });
    try {
      const run = await cliIn(dir, ['run', ...NO_SERVER]);
      expect(run.code).toBe(ExitCode.infrastructure);
    } finally {
      write.mockRestore();
    }
    expect(progress).toMatch(/model-gate: warning: churn: items\.yml:1: unknown field source/);
  });

  it('analyze without --log reads the config’s own sample log, or says how to give one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-own-log-'));
    const none = await cliIn(dir, ['analyze', '--baseline', 'a:1b', '--candidate', 'b:1b']);
    expect(none.code).toBe(ExitCode.badInput);
    expect(none.stderr).toContain(
      `model-gate: ${path.join('model-gate-out', 'samples.jsonl')}: no sample log there (output.log of the built-in defaults), and no --log given`,
    );
    expect(none.stderr).toContain('name the logs to analyse: --log FILE');

    const harness = path.resolve('docs/examples/harness');
    cpSync(harness, path.join(dir, 'harness'), { recursive: true });
    cpSync(path.resolve('docs/examples/items.yml'), path.join(dir, 'items.yml'));
    const config = readFileSync(path.join(dir, 'harness', 'model-gate.yml'), 'utf8');
    writeFileSync(
      path.join(dir, 'harness', 'model-gate.yml'),
      `${config}output:\n  log: harness/samples.jsonl\n  dir: out\n`,
    );
    const own = await cliIn(dir, ['analyze', '-c', 'harness/model-gate.yml']);
    expect(own.stderr).toBe('');
    expect(own.code).toBe(ExitCode.pass);
    expect(own.stdout).toContain(
      `log:     ${path.join(realpathSync(dir), 'harness', 'samples.jsonl')}`,
    );
  });
});
