/**
 * A server URL with a user name or password is refused as bad input wherever it comes from
 * (flag, config file, OLLAMA_HOST, action input), and the password is printed nowhere.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { handlers } from '../../src/cli/handlers.js';
import { runCli } from '../../src/cli/program.js';
import { getInputs } from '../../src/config/actionInputs.js';
import { loadConfig } from '../../src/config/load.js';
import { ExitCode, InputError } from '../../src/errors.js';

const SECRET = 'hunter2';

async function cli(argv: string[]) {
  let output = '';
  const code = await runCli(argv, handlers, {
    stdout: (t) => {
      output += t;
    },
    stderr: (t) => {
      output += t;
    },
  });
  return { code, output };
}

function thrown(work: () => unknown): InputError {
  try {
    work();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

const text = (error: InputError) => [error.message, ...error.details].join('\n');

describe('server URL with credentials', () => {
  it('is refused from --ollama-host with exit 2, the password not echoed', async () => {
    for (const json of [false, true]) {
      const { code, output } = await cli([
        'run',
        '--baseline',
        'a:1b',
        '--ollama-host',
        `http://alice:${SECRET}@127.0.0.1:9`,
        ...(json ? ['--json'] : []),
      ]);
      expect(code).toBe(ExitCode.badInput);
      expect(output).toContain('user name or password');
      expect(output).not.toContain(SECRET);
      expect(output).not.toContain('alice');
    }
  });

  it('is refused from provider.host in the config file, the line named', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-cred-'));
    const file = path.join(dir, 'model-gate.yml');
    writeFileSync(
      file,
      `models:\n  baseline: a:1b\nprovider:\n  kind: openai\n  host: https://bob:${SECRET}@llm.example/v1\n`,
    );
    const error = thrown(() => loadConfig({ checks: CHECKS, file, env: {} }));
    expect(text(error)).toContain('line 5: provider.host');
    expect(text(error)).not.toContain(SECRET);
  });

  it('is refused from OLLAMA_HOST, well formed or not', () => {
    for (const value of [
      `http://alice:${SECRET}@gpu:11434`,
      `alice:${SECRET}@gpu:11434`,
      `:${SECRET}@[bad`,
    ]) {
      const error = thrown(() =>
        loadConfig({ checks: CHECKS, file: null, env: { OLLAMA_HOST: value } }),
      );
      expect(text(error)).toContain('OLLAMA_HOST');
      expect(text(error)).not.toContain(SECRET);
    }
  });

  it('is refused from the action input with the other inputs', () => {
    const inputs: Record<string, string> = {
      baseline: 'a:1b',
      'ollama-host': `http://alice:${SECRET}@gpu:11434`,
    };
    const error = thrown(() =>
      getInputs(
        {
          getInput: (name: string) => inputs[name] ?? '',
          getBooleanInput: () => true,
          setSecret: () => {},
        },
        { checks: CHECKS },
      ),
    );
    expect(text(error)).toContain("input 'ollama-host'");
    expect(text(error)).not.toContain(SECRET);
  });

  it('a URL without credentials still loads', () => {
    const loaded = loadConfig({
      checks: CHECKS,
      file: null,
      env: { OLLAMA_HOST: 'gpu:11434' },
      overrides: [{ path: ['models', 'baseline'], value: 'a:1b', source: 'test' }],
    });
    expect(loaded.config.provider.host).toBe('http://gpu:11434');
  });
});
