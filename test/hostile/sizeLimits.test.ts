/**
 * Every file a user gives has a documented size limit (docs/limits.md), said as bad input
 * (exit 2) naming the file before it is read: a 50 MB YAML items file took 2 minutes and
 * 4.3 GB to refuse, a 1 MB model tag was accepted and echoed three times. The sizes here are
 * sparse files (their length is set, their bytes are not written), so the tests stay fast:
 * the limits are checked on the file's size, before any byte is read.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadItemsFile, parseItems } from '../../src/checks/churn/items.js';
import { readCatalogue } from '../../src/checks/personas/catalogue.js';
import {
  MAX_CATALOGUE_BYTES,
  MAX_CONFIG_BYTES,
  MAX_HISTORY_BYTES,
  MAX_JSON_ITEMS_BYTES,
  MAX_LINE_BYTES,
  MAX_REPORT_BYTES,
  MAX_YAML_ITEMS_BYTES,
} from '../../src/config/limits.js';
import { loadConfig } from '../../src/config/load.js';
import { MAX_MODEL_TAG } from '../../src/config/schema.js';
import { ExitCode, formatGateError, InputError } from '../../src/errors.js';
import { readHistory } from '../../src/history/file.js';
import { readReport } from '../../src/report/read.js';
import { cli } from '../support/smallRun.js';

function dir(): string {
  return mkdtempSync(path.join(tmpdir(), 'model-gate-size-'));
}

/** A file of `bytes` bytes, sparse: nothing is written but its length. */
function sparse(folder: string, name: string, bytes: number, head = ''): string {
  const file = path.join(folder, name);
  writeFileSync(file, head);
  truncateSync(file, bytes);
  return file;
}

async function refusal(work: () => unknown): Promise<string> {
  try {
    await work();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).exitCode).toBe(ExitCode.badInput);
    return formatGateError(error as InputError);
  }
  throw new Error('accepted');
}

describe('files over their limit are refused before they are read', () => {
  it('model-gate.yml over 1 MiB: exit 2 from validate, naming the file and the limit', async () => {
    const folder = dir();
    const config = sparse(folder, 'model-gate.yml', MAX_CONFIG_BYTES + 1, 'models:\n');
    const run = await cli(['validate', '--config', config]);
    expect(run.code).toBe(ExitCode.badInput);
    expect(run.stderr).toContain(`${config}: 1 MiB is more than a config file may hold (1 MiB)`);
    // At the limit it is read (and found wanting for another reason).
    truncateSync(config, MAX_CONFIG_BYTES);
    expect(
      await refusal(() => loadConfig({ checks: CHECKS, file: config, env: {} })),
    ).not.toContain('may hold');
  });

  it('items: YAML over 8 MiB, JSON over 64 MiB', async () => {
    const folder = dir();
    const yaml = sparse(folder, 'items.yml', MAX_YAML_ITEMS_BYTES + 1);
    expect(await refusal(() => loadItemsFile(yaml))).toContain(
      'is more than a YAML items file may hold (8 MiB)',
    );
    expect(await refusal(() => loadItemsFile(yaml))).toContain('JSON Lines (.jsonl)');
    for (const name of ['items.jsonl', 'items.json']) {
      const json = sparse(folder, name, MAX_JSON_ITEMS_BYTES + 1);
      expect(await refusal(() => loadItemsFile(json))).toContain(
        'is more than a JSON items file may hold (64 MiB)',
      );
    }
  });

  it('items through the config: validate exits 2 naming the items file', async () => {
    const folder = dir();
    sparse(folder, 'big.yml', 50 * 1024 * 1024);
    const config = path.join(folder, 'model-gate.yml');
    writeFileSync(
      config,
      'models:\n  baseline: a:1b\n  candidate: b:1b\nchecks: [churn]\nchurn:\n  items: big.yml\n',
    );
    const run = await cli(['validate', '--config', config]);
    expect(run.code).toBe(ExitCode.badInput);
    expect(run.stderr).toContain('big.yml: 50 MiB is more than a YAML items file may hold');
  });

  it('a .json items file that is not JSON is read as YAML only within the YAML limit', async () => {
    const text = `[{"id": "q1",}]${' '.repeat(MAX_YAML_ITEMS_BYTES)}`;
    expect(await refusal(() => parseItems(text, 'items.json'))).toContain(
      'not valid JSON, and at 8 MiB too large to read as YAML',
    );
  });

  it('the persona catalogue over 8 MiB, the history over 64 MiB, a previous report over 256 MiB', async () => {
    const folder = dir();
    const catalogue = sparse(folder, 'personas.yml', MAX_CATALOGUE_BYTES + 1);
    expect(await refusal(() => readCatalogue(catalogue, 'personas.yml'))).toContain(
      'personas.yml: 8 MiB is more than a persona catalogue may hold (8 MiB)',
    );
    const history = sparse(folder, 'history.jsonl', MAX_HISTORY_BYTES + 1);
    expect(await refusal(() => readHistory(history, CHECKS))).toContain(
      'more than a history may hold',
    );
    const report = sparse(folder, 'report.json', MAX_REPORT_BYTES + 1);
    expect(await refusal(() => readReport(report))).toContain('more than a report.json may hold');
  });
});

describe('lines and model tags', () => {
  it('a line over 1 MiB is refused with its file and line number, in every user file', async () => {
    const long = 'x'.repeat(MAX_LINE_BYTES + 1);
    const items = `{"id": "q1", "question": "?", "choices": ["a", "b"], "answer": "A"}\n{"id": "q2", "question": "${long}", "choices": ["a", "b"], "answer": "A"}\n`;
    const folder = dir();
    writeFileSync(path.join(folder, 'items.jsonl'), items);
    expect(
      await refusal(() => loadItemsFile(path.join(folder, 'items.jsonl'), 'items.jsonl')),
    ).toContain('items.jsonl:2: a line of 1 MiB; a line may hold at most 1 MiB');
    // A YAML file (the config's own limit is 1 MiB, so the catalogue shows it).
    writeFileSync(path.join(folder, 'personas.yml'), `language: en\n# ${long}\n`);
    expect(
      await refusal(() => readCatalogue(path.join(folder, 'personas.yml'), 'personas.yml')),
    ).toContain('personas.yml:2: a line of 1 MiB');
  });

  it(`a model tag over ${MAX_MODEL_TAG} characters is refused, from the file or a flag, and not echoed`, async () => {
    const tag = `m${'a'.repeat(1024 * 1024)}:1b`;
    const run = await cli(['validate', '--baseline', tag]);
    expect(run.code).toBe(ExitCode.badInput);
    expect(run.stderr).toContain(
      `models.baseline (from flag --baseline): expected at most ${MAX_MODEL_TAG} characters, got ${tag.length}`,
    );
    expect(run.stderr.length).toBeLessThan(2000);
    const folder = dir();
    const config = path.join(folder, 'model-gate.yml');
    writeFileSync(
      config,
      `models:\n  baseline: a:1b\n  candidate: ${'b'.repeat(MAX_MODEL_TAG + 1)}\n`,
    );
    expect(await refusal(() => loadConfig({ checks: CHECKS, file: config, env: {} }))).toContain(
      `line 3: models.candidate: expected at most ${MAX_MODEL_TAG} characters`,
    );
    // A long but real tag (registry host, namespace, name, tag) passes.
    const real = 'registry.example.com:5000/team-models/qwen2.5-coder-32b-instruct:q4_K_M';
    expect(
      loadConfig({
        checks: CHECKS,
        file: null,
        env: {},
        overrides: [{ path: ['models', 'baseline'], value: real, source: 'test' }],
      }).config.models.baseline,
    ).toBe(real);
  });
});
