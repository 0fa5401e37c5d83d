/**
 * The example workflows in docs/workflows/ are what users copy: they must be valid YAML,
 * least-privilege, pinned, and speak the action's real input and output names.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CHECKS } from '../../src/checks/builtIn.js';
import { checkOutputs } from '../../src/checks/list.js';
import { actionOutputNames } from '../../src/github/outputs.js';

const DIR = new URL('../../docs/workflows/', import.meta.url);
/** Where the examples take the action from: a copy in the user's repository (README). */
const ACTION = './.github/actions/model-gate';

interface Step {
  id?: string;
  uses?: string;
  with?: Record<string, unknown>;
}
interface Workflow {
  on: unknown;
  permissions: Record<string, string>;
  jobs: Record<string, { permissions?: Record<string, string>; steps: Step[] }>;
}

const actionYml = parse(readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')) as {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
};
const files = readdirSync(DIR).filter((f) => f.endsWith('.yml'));

describe('example workflows', () => {
  it('cover the pull-request gate, nightly calibration, churn comment and a sharded run', () => {
    expect(files.sort()).toEqual([
      'churn-comment.yml',
      'model-upgrade-gate.yml',
      'nightly-calibration.yml',
      'sharded.yml',
    ]);
  });

  it('the action publishes exactly the outputs publishing sets, in the same order', () => {
    expect(Object.keys(actionYml.outputs)).toEqual(actionOutputNames());
  });

  it("describes each check's outputs as the check declares them", () => {
    const outputs = actionYml.outputs as Record<string, { description: string }>;
    const declared = checkOutputs(CHECKS);
    expect(declared.map((o) => o.name)).toContain('churn-rate');
    for (const output of declared) {
      expect(outputs[output.name]?.description, output.name).toBe(output.description);
    }
  });

  for (const file of files) {
    describe(file, () => {
      const text = readFileSync(new URL(file, DIR), 'utf8');
      const workflow = parse(text) as Workflow;
      const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);

      it('declares read-only contents at the top, before any job', () => {
        expect(workflow.permissions.contents).toBe('read');
        const keys = text
          .split('\n')
          .filter((l) => /^[a-z]/.test(l))
          .map((l) => l.split(':')[0]);
        expect(keys.indexOf('permissions')).toBeLessThan(keys.indexOf('jobs'));
        for (const [name, job] of Object.entries(workflow.jobs)) {
          for (const [scope, level] of Object.entries(job.permissions ?? {})) {
            // Only the nightly's small job that commits the history branch may write, and it
            // runs no model and no third-party code but checkout and cache.
            const allowed =
              file === 'nightly-calibration.yml' && name === 'keep-history'
                ? /^contents: write$/
                : /^(contents: read|pull-requests: write)$/;
            expect(`${scope}: ${level}`).toMatch(allowed);
          }
        }
      });

      it('pins every third-party action to a commit SHA with its version', () => {
        const lines = text.split('\n').filter((l) => /^\s*-?\s*uses:/.test(l));
        expect(lines.length).toBeGreaterThan(0);
        for (const line of lines) {
          const uses = line.replace(/^\s*-?\s*uses:\s*/, '');
          if (uses.startsWith(ACTION)) continue;
          expect(uses).toMatch(/^[\w-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/);
        }
      });

      it("uses only the action's inputs, and only its outputs", () => {
        const gateSteps = steps.filter((s) => s.uses?.startsWith(ACTION));
        expect(gateSteps.length).toBeGreaterThan(0);
        for (const step of gateSteps) {
          for (const input of Object.keys(step.with ?? {})) {
            expect(Object.keys(actionYml.inputs)).toContain(input);
          }
        }
        const ids = new Set(gateSteps.map((s) => s.id).filter(Boolean));
        for (const match of text.matchAll(/steps\.([\w-]+)\.outputs\.([\w-]+)/g)) {
          if (!ids.has(match[1])) continue;
          expect(actionOutputNames()).toContain(match[2]);
        }
      });

      it('restores and saves a cache in two steps, the save even when the gate fails', () => {
        // The combined actions/cache saves only after a successful job: a failing gate would
        // throw away the sample log it paid for.
        expect(steps.filter((s) => /^actions\/cache@/.test(s.uses ?? ''))).toEqual([]);
        const saves = steps.filter((s) => s.uses?.startsWith('actions/cache/save@'));
        // A job that restores exactly what an earlier job of the same run saved (no
        // restore-keys) is a hand-off between jobs, not a cache of its own to save again.
        const handOff = (s: Step) =>
          s.with?.['restore-keys'] === undefined && String(s.with?.key).includes('github.run_id');
        const restores = steps.filter(
          (s) => s.uses?.startsWith('actions/cache/restore@') && !handOff(s),
        );
        expect(saves.length).toBe(restores.length);
        for (const save of saves) {
          expect(String((save as { if?: unknown }).if)).toMatch(/^always\(\)/);
        }
      });
    });
  }

  it('the gate in the README splits its cache the same way', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).not.toMatch(/uses: actions\/cache@/);
    expect(readme).toMatch(/uses: actions\/cache\/restore@/);
    expect(readme).toMatch(/uses: actions\/cache\/save@[^\n]*\n\s+if: always\(\)/);
  });

  it('every example and the README take the action from the copy the README tells how to make', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const texts = [readme, ...files.map((f) => readFileSync(new URL(f, DIR), 'utf8'))];
    for (const text of texts) {
      const gates = [...text.matchAll(/^\s*-?\s*uses: (\S*model-gate\S*)/gm)].map((m) => m[1]);
      expect(gates.length).toBeGreaterThan(0);
      expect(new Set(gates)).toEqual(new Set([ACTION]));
    }
    expect(readme).toContain('## Where the action lives');
    expect(readme).toContain('mkdir -p "$dest/dist"');
  });

  it('the copy the README makes runs as the action and as the command-line tool', () => {
    // The README's commands, run from this repository: only the files they copy are there.
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const commands =
      /dest=\.\.\/your-repo\/\.github\/actions\/model-gate[^\n]*\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(commands).toBeDefined();
    const repo = mkdtempSync(path.join(tmpdir(), 'model-gate-vendored-'));
    const dest = path.join(repo, ACTION);
    execFileSync('bash', ['-c', `set -e; dest=${JSON.stringify(dest)}\n${commands}`]);
    const cli = spawnSync(
      process.execPath,
      [path.join(dest, 'dist/cli.js'), 'validate', '--baseline', 'a:1', '--candidate', 'b:1'],
      { cwd: repo, encoding: 'utf8' },
    );
    expect(cli.status, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/^no config file, built-in defaults and flags: valid/);
    const main = (actionYml as unknown as { runs: { main: string } }).runs.main;
    const action = spawnSync(process.execPath, [path.join(dest, main)], {
      cwd: repo,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH,
        INPUT_BASELINE: 'a:1',
        INPUT_CANDIDATE: 'b:1',
        'INPUT_OLLAMA-HOST': 'http://127.0.0.1:9',
        'INPUT_OUTPUT-DIR': 'out',
      },
    });
    // It read its inputs and the built-in items, and stopped at the server: there is none.
    expect(action.stdout).toContain('cannot reach the model server at http://127.0.0.1:9');
  });

  it('churn-comment.yml says it is an alternative to the gate, not a companion', () => {
    const text = readFileSync(new URL('churn-comment.yml', DIR), 'utf8');
    expect(text).toContain('An alternative to model-upgrade-gate.yml, not a companion');
  });
});
