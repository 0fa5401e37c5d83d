import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { samplingOf } from '../../src/checks/churn/settings.js';
import { describe, expect, it } from 'vitest';
// The checks hand their settings blocks to the config when the registry loads.
import '../../src/checks/builtIn.js';
import { loadConfig } from '../../src/config/load.js';
import { toOverrides } from '../../src/config/overrides.js';
import { ExitCode, formatGateError, InputError } from '../../src/errors.js';

const bad = (name: string) => path.join('fixtures/config/bad', name);

function failure(file: string, overrides = toOverrides({}, (n) => n, CHECKS)): string {
  try {
    loadConfig({ checks: CHECKS, file, overrides, env: {} });
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).exitCode).toBe(ExitCode.badInput);
    return formatGateError(error as InputError);
  }
  throw new Error(`${file} loaded without error`);
}

describe('loadConfig — the documented example', () => {
  it('loads model-gate.yml with every default filled in', () => {
    const { config, file } = loadConfig({ checks: CHECKS, file: 'model-gate.yml', env: {} });
    expect(file).toBe(path.resolve('model-gate.yml'));
    expect(config.models).toEqual({ baseline: 'qwen2.5:7b', candidate: 'qwen2.5:14b' });
    // Nothing set: adaptive sampling up to samples-max (setting samples would choose fixed K).
    expect(config.churn.samples).toBeUndefined();
    expect(samplingOf(config.churn)).toBe('adaptive');
    expect(config.churn.samplesMax).toBe(20);
    expect(config.churn.gate.maxDeteriorated).toBe('5%');
    expect(config.dragon.seeds).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(config.runner.timeoutS).toBe(30);
    expect(config.checks).toEqual(['churn', 'dragon', 'personas']);
  });

  it('applies overrides over the file, and OLLAMA_HOST only when no host is set', () => {
    const overrides = toOverrides(
      { samples: '4', candidate: 'x:2', checks: 'churn, dragon' },
      (n) => `flag --${n}`,
      CHECKS,
    );
    const { config } = loadConfig({
      checks: CHECKS,
      file: 'model-gate.yml',
      overrides,
      env: { OLLAMA_HOST: '0.0.0.0:11500' },
    });
    expect(config.churn.samples).toBe(4);
    expect(config.models.candidate).toBe('x:2');
    expect(config.checks).toEqual(['churn', 'dragon']);
    expect(config.provider.host).toBe('http://127.0.0.1:11500');
  });

  it('refuses an OLLAMA_HOST that is not an address, as bad input naming the variable', () => {
    const load = () =>
      loadConfig({ checks: CHECKS, file: 'model-gate.yml', env: { OLLAMA_HOST: 'http://[bad' } });
    expect(load).toThrow(InputError);
    expect(load).toThrow('environment OLLAMA_HOST: not a server address: "http://[bad"');
  });

  it('runs on defaults and overrides alone when the default file is absent', () => {
    const overrides = toOverrides({ baseline: 'a:1' }, (n) => `input '${n}'`, CHECKS);
    const { config, file } = loadConfig({ checks: CHECKS, cwd: 'fixtures', overrides, env: {} });
    expect(file).toBeNull();
    expect(config.models.baseline).toBe('a:1');
    expect(config.models.candidate).toBeUndefined();
  });

  it('names the flag when an override is wrong', () => {
    const overrides = toOverrides({ samples: '-2' }, (n) => `flag --${n}`, CHECKS);
    expect(failure('model-gate.yml', overrides)).toContain(
      'churn.samples (from flag --samples): expected ≥ 2, got -2',
    );
  });
});

describe('loadConfig — bad configs give one clear message with line and field', () => {
  const cases: [string, string[]][] = [
    ['wrong-type.yml', ['line 5', 'churn.samples', 'expected number, got "ten"']],
    ['unknown-key.yml', ['line 6', 'churn.sampels', 'unknown setting']],
    ['missing-models.yml', ['models: missing: expected a mapping']],
    ['negative-k.yml', ['line 5', 'churn.samples', 'expected ≥ 2, got -3']],
    [
      'unknown-check.yml',
      [
        'line 4',
        'checks[1]',
        'expected one of "churn", "dragon", "personas", "speed", got "latency"',
      ],
    ],
    ['bad-url.yml', ['line 2', 'provider.host', 'http:// or https:// URL']],
    ['empty.yml', ['empty.yml: the file is empty', 'models:']],
    ['not-yaml.yml', ['not-yaml.yml: not valid YAML', 'line ']],
    ['duplicate-key.yml', ['not valid YAML', 'line 3', 'unique']],
    ['top-level-list.yml', ['expected a mapping of settings at the top level', 'a list']],
    ['bad-seeds.yml', ['line 5', 'dragon.seeds', 'a range such as "0-9", got "nine to five"']],
    ['renamed-estimator.yml', ['line 5: churn.estimator: "exact" was renamed: write logprobs']],
    ['renamed-method.yml', ['line 5: churn.method: "exact" was renamed: write fisher-bh']],
    [
      'bad-threshold.yml',
      ['line 6', 'churn.gate.max-deteriorated', 'a share of items such as "5%"'],
    ],
    [
      'runner-token-key.yml',
      ['line 5', 'provider.api-key-env', '"ACTIONS_RUNTIME_TOKEN" is refused', '_API_KEY'],
    ],
  ];
  for (const [file, fragments] of cases) {
    it(file, () => {
      const message = failure(bad(file));
      for (const fragment of fragments) expect(message).toContain(fragment);
      expect(message).not.toMatch(/\n\s+at /); // no stack trace
    });
  }

  it('a named config file that does not exist is bad input', () => {
    expect(failure('nowhere/model-gate.yml')).toContain(
      'nowhere/model-gate.yml: config file not found',
    );
  });
});

describe('loadConfig — a typo names the word meant', () => {
  function typo(yaml: string): string {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'model-gate-typo-')), 'model-gate.yml');
    writeFileSync(file, `models:\n  baseline: a:1\n  candidate: b:1\n${yaml}`);
    return failure(file);
  }

  const cases: [string, string][] = [
    [
      'runner:\n  concurency: 2\n',
      'line 5: unknown setting runner.concurency; did you mean runner.concurrency?',
    ],
    [
      'churn:\n  sampels: 4\n',
      'line 5: unknown setting churn.sampels; did you mean churn.samples?',
    ],
    [
      'churn:\n  gate:\n    max-deterioated: 3\n',
      'line 6: unknown setting churn.gate.max-deterioated; did you mean churn.gate.max-deteriorated?',
    ],
    [
      'provider:\n  kidn: openai\n',
      'line 5: unknown setting provider.kidn; did you mean provider.kind?',
    ],
    ['dragon:\n  wals: 30\n', 'line 5: unknown setting dragon.wals; did you mean dragon.walls?'],
    [
      'personas:\n  gate:\n    min-recogniton: 0.4\n',
      'line 6: unknown setting personas.gate.min-recogniton; did you mean personas.gate.min-recognition?',
    ],
    ['ouput:\n  dir: out\n', 'line 4: unknown setting ouput; did you mean output?'],
    [
      'fail-on: regresion\n',
      'line 4: fail-on: expected one of "regression", "never", "inconclusive", got "regresion"; did you mean "regression"?',
    ],
    ['checks: [churn, dragn]\n', 'did you mean "dragon"?'],
    ['provider:\n  kind: olama\n', 'got "olama"; did you mean "ollama"?'],
  ];
  for (const [yaml, expected] of cases) {
    it(expected, () => expect(typo(yaml)).toContain(expected));
  }

  it('lists the settings of a block when none is near the word written', () => {
    expect(typo('models2: {}\n')).toContain(
      'line 4: unknown setting models2; did you mean models?',
    );
    expect(typo('runner:\n  speed: 2\n')).toContain(
      'line 5: unknown setting runner.speed (known: concurrency, timeout-s, retries, num-ctx, warmup, keep-alive, perturbed-timeout-share, max-reply-bytes, max-embedding-bytes, unload-others, gpu-sample-s, gpu-contention-share)',
    );
    expect(typo('output:\n  colour: red\n')).toContain(
      'unknown setting output.colour (known: dir, log, history)',
    );
  });
});
