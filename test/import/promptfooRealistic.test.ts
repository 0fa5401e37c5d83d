/**
 * A suite shaped like real public ones (bare and pattern prompt paths, a JSON chat, tests by
 * pattern and CSV, negations, inline and file JavaScript of the three kinds of return, an
 * undefined variable, a judge, embeddings and per-call limits in defaultTest) imports with
 * exit 0, validates, and converts every assertion that checks the answer without a model.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ExitCode } from '../../src/errors.js';
import { cli } from '../support/smallRun.js';

const CONFIG = path.resolve('test/fixtures/promptfoo/realistic/promptfooconfig.yaml');

describe('a realistic promptfoo suite', () => {
  it('imports whole, validates, and says what it left out once per test', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mg-pf-real-'));
    const items = path.join(dir, 'library.yml');
    const imported = await cli(['import', 'promptfoo', CONFIG, '--out', items]);
    expect(imported.code, imported.stderr).toBe(ExitCode.pass);
    expect(imported.stdout).toMatch(/^wrote .*library\.yml: 12 open items/);
    expect(imported.stderr).toContain(
      '18 of 37 assertions converted (49%); 18 of the 18 that check the answer without a model (100%; model-graded ones and per-call limits set apart)',
    );
    expect(imported.stderr).toContain(
      'model-gate import: {{ signature }}: no value in 6 tests: rendered empty, as promptfoo renders it',
    );
    // defaultTest's judge is named once per test, not once per prompt.
    const judged = imported.stderr
      .split('\n')
      .filter((l) => l.includes('"Card": not converted: llm-rubric'));
    expect(judged).toHaveLength(1);
    const config = path.join(dir, 'model-gate.yml');
    writeFileSync(
      config,
      stringify({
        models: { baseline: 'base', candidate: 'next' },
        checks: ['churn'],
        provider: { kind: 'openai', host: 'http://127.0.0.1:9' },
        churn: { items: 'library.yml', samples: 3 },
      }),
    );
    const validated = await cli(['validate', '--config', config]);
    expect(validated.code, validated.stdout + validated.stderr).toBe(ExitCode.pass);
  });
});
