/**
 * `validate` refuses exactly what `run` refuses, with the same message, without a server;
 * `init` writes a starter project that validates, and never overwrites.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
      const run = await cli(['run', '--config', file, ...NO_SERVER]);
      const validate = await cli(['validate', '--config', file, ...NO_SERVER]);
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
    // 63 items × (3 first-stage samples + 1 greedy) per model now; at most 63 × (23 + 1).
    expect(stdout).toContain('churn: 504 units, calls 252 for base:1b, 252 for cand:1b');
    expect(stdout).toContain(
      'churn: adaptive sampling: the counts above are the first stage (3 samples per item); later stages follow the answers, up to 1512 calls per model (63 items × 23 samples + greedy)',
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
