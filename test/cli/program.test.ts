import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handlers } from '../../src/cli/handlers.js';
import { type CommandHandlers, runCli } from '../../src/cli/program.js';
import { ExitCode } from '../../src/errors.js';

/** Runs the CLI in-process and captures what it prints. */
async function cli(argv: string[], using: CommandHandlers = handlers) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, using, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
  });
  return { code, stdout, stderr };
}

describe('model-gate --help', () => {
  it('lists every command and the exit codes', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(ExitCode.pass);
    for (const command of ['run', 'analyze', 'demo', 'simulate', 'dragon'])
      expect(stdout).toContain(command);
    expect(stdout).toContain('2  bad input');
    expect(stdout).toContain('3  infrastructure');
  });

  const helps: [string[], string[]][] = [
    [
      ['run', '--help'],
      [
        '--config',
        '--baseline',
        '--candidate',
        '--samples',
        '--concurrency',
        '--shard',
        '--cache-dir',
        'Example',
      ],
    ],
    [
      ['analyze', '--help'],
      ['--log', '--out', '--previous', 'merge shards'],
    ],
    [
      ['demo', '--help'],
      ['--scenario', 'aa'],
    ],
    [
      ['simulate', '--help'],
      ['--port', '--scenario'],
    ],
    [
      ['dragon', 'maze', '--help'],
      ['--seed', '--walls', '--json'],
    ],
    [
      ['dragon', 'play', '--help'],
      ['--player', 'careful', '--seeds'],
    ],
  ];
  for (const [argv, fragments] of helps) {
    it(`${argv.join(' ')} explains its flags`, async () => {
      const { code, stdout } = await cli(argv);
      expect(code).toBe(ExitCode.pass);
      for (const f of fragments) expect(stdout).toContain(f);
    });
  }
});

describe('bad input exits 2 with one clear message and no stack trace', () => {
  it('an unknown flag', async () => {
    const { code, stderr } = await cli(['run', '--sample', '3']);
    expect(code).toBe(ExitCode.badInput);
    expect(stderr).toContain("unknown option '--sample'");
  });

  it('an unknown command', async () => {
    const { code } = await cli(['upgrade']);
    expect(code).toBe(ExitCode.badInput);
  });

  it('a bad config names the file, line and field', async () => {
    const { code, stderr } = await cli(['run', '--config', 'fixtures/config/bad/negative-k.yml']);
    expect(code).toBe(ExitCode.badInput);
    expect(stderr).toBe(
      'model-gate: fixtures/config/bad/negative-k.yml: invalid value\n  - line 5: churn.samples: expected ≥ 2, got -3\n',
    );
  });

  it('a bad flag value is reported against the flag', async () => {
    const { code, stderr } = await cli([
      'run',
      '--config',
      'model-gate.yml',
      '--concurrency',
      'many',
    ]);
    expect(code).toBe(ExitCode.badInput);
    expect(stderr).toContain(
      'runner.concurrency (from flag --concurrency): expected number, got "many"',
    );
  });

  it('a bad shard', async () => {
    const { code, stderr } = await cli(['run', '--config', 'model-gate.yml', '--shard', '5/4']);
    expect(code).toBe(ExitCode.badInput);
    expect(stderr).toContain('flag --shard: expected a shard "i/n" with 1 ≤ i ≤ n');
  });

  it('a missing sample log for analyze', async () => {
    const { code, stderr } = await cli([
      'analyze',
      '--log',
      'nowhere.jsonl',
      '--config',
      'model-gate.yml',
    ]);
    expect(code).toBe(ExitCode.badInput);
    expect(stderr).toContain('nowhere.jsonl: sample log not found');
  });

  it('an internal error is one line, not a stack trace, and exits 3', async () => {
    const broken: CommandHandlers = {
      ...handlers,
      run: async () => {
        throw new TypeError('boom');
      },
    };
    const { code, stderr } = await cli(['run'], broken);
    expect(code).toBe(ExitCode.infrastructure);
    expect(stderr).toContain('model-gate: internal error: boom');
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});

describe('errors of the machine are one line naming the path or port, not an internal error', () => {
  it('an output folder that is a file, a sample log that is a folder, a port in use', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-cli-'));
    const file = path.join(dir, 'taken');
    writeFileSync(file, '');
    const asFolder = await cli([
      'analyze',
      '--config',
      'fixtures/demo/model-gate.yml',
      '--log',
      'fixtures/simulator/../../fixtures',
      '--out',
      path.join(dir, 'out'),
    ]);
    expect(asFolder.code).toBe(ExitCode.badInput);
    expect(asFolder.stderr).toBe(
      'model-gate: fixtures/simulator/../../fixtures: a folder, not a sample log\n  - give the samples.jsonl file a run wrote\n',
    );
    // An output folder that is a file is said before the logs are read, with where to choose one.
    const fileAsOut = await cli([
      'analyze',
      '--config',
      'fixtures/demo/model-gate.yml',
      '--log',
      'docs/examples/harness/samples.jsonl',
      '--out',
      file,
    ]);
    expect(fileAsOut.code).toBe(ExitCode.badInput);
    expect(fileAsOut.stderr).toContain(
      ': cannot write the output folder: a file of that name is in the way\n  - choose a folder this user can write: --output-dir DIR for run',
    );

    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const taken = await cli(['simulate', '--port', String(port)]);
      expect(taken.code).toBe(ExitCode.infrastructure);
      expect(taken.stderr).toContain(
        `model-gate: cannot listen 127.0.0.1:${port}: the port is already in use`,
      );
      expect(taken.stderr).not.toContain('internal error');
    } finally {
      busy.close();
    }

    const broken: CommandHandlers = {
      ...handlers,
      run: async () => {
        mkdirSync(file, { recursive: true });
        return ExitCode.pass;
      },
    };
    const inTheWay = await cli(['run'], broken);
    expect(inTheWay.code).toBe(ExitCode.badInput);
    expect(inTheWay.stderr).toBe(
      `model-gate: cannot mkdir ${file}: a file of that name is in the way of a folder (EEXIST)\n`,
    );
  });
});

describe('model-gate run against an unreachable server', () => {
  it('with --json still answers on stdout: no verdict, the exit code and the error', async () => {
    const { code, stdout, stderr } = await cli([
      'run',
      '--config',
      'model-gate.yml',
      '--ollama-host',
      'http://127.0.0.1:9',
      '--checks',
      'personas',
      '--output-dir',
      'model-gate-out/test-unreachable',
      '--json',
    ]);
    expect(code).toBe(ExitCode.infrastructure);
    const answer = JSON.parse(stdout);
    expect(answer).toMatchObject({ verdict: null, exitCode: 3 });
    expect(answer.error.message).toMatch(
      /^cannot reach the model server at http:\/\/127\.0\.0\.1:9/,
    );
    expect(answer.error.hint).toContain('ollama serve');
    // People still read stderr.
    expect(stderr).toContain('cannot reach the model server');
  });

  it('exits 3 and says which server', async () => {
    const { code, stderr } = await cli([
      'run',
      '--config',
      'model-gate.yml',
      '--ollama-host',
      'http://127.0.0.1:9',
      '--checks',
      'personas',
      '--output-dir',
      'model-gate-out/test-unreachable',
    ]);
    expect(code).toBe(ExitCode.infrastructure);
    expect(stderr).toContain('127.0.0.1:9');
  });
});

describe('model-gate dragon', () => {
  it('maze --json gives the facts of a seed', async () => {
    const { code, stdout } = await cli(['dragon', 'maze', '--seed', '3', '--json']);
    expect(code).toBe(ExitCode.pass);
    const maze = JSON.parse(stdout) as { seed: number; wallCount: number };
    expect(maze.seed).toBe(3);
    expect(maze.wallCount).toBe(40);
  });

  it('maze refuses more walls than a connected maze can hold', async () => {
    const { code, stderr } = await cli(['dragon', 'maze', '--seed', '3', '--walls', '60']);
    expect(code).toBe(ExitCode.badInput);
    expect(stderr).toContain('at most 49');
  });

  it('play --json measures a reference player without a model', async () => {
    const { code, stdout } = await cli([
      'dragon',
      'play',
      '--player',
      'overconfident',
      '--seeds',
      '0-4',
      '--json',
    ]);
    expect(code).toBe(ExitCode.pass);
    const section = JSON.parse(stdout) as { baseline: { player: string; ece: { value: number } } };
    // Uniform moves at stated confidence 0.95 advance about 55% of the time.
    expect(section.baseline.player).toBe('overconfident');
    expect(section.baseline.ece.value).toBeGreaterThan(0.3);
  });
});
