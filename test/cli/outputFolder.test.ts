/**
 * An output folder that cannot be written is bad input, said before anything runs, with the flag
 * to change: a folder without write permission, and a file in the way, read alike (exit 2).
 * Permissions do not bind root: as root the CLI runs as the unprivileged user 65534.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { sourceCli } from '../support/bundled.js';

const asRoot = process.getuid?.() === 0;

function demo(out: string) {
  return spawnSync(process.execPath, [sourceCli(), 'demo', '--out', out], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: tmpdir(), NO_COLOR: '1' },
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    timeout: 60_000,
  });
}

describe('an output folder that cannot be written', () => {
  it('without write permission: exit 2, naming the folder and the flag, nothing run', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-readonly-'));
    chmodSync(dir, 0o755);
    const locked = path.join(dir, 'locked');
    mkdirSync(locked, { mode: 0o555 });
    const result = demo(path.join(locked, 'out'));
    expect(result.status, result.stderr).toBe(ExitCode.badInput);
    expect(result.stderr).toContain(
      `model-gate: ${path.join(locked, 'out')}: cannot write the output folder: permission denied`,
    );
    expect(result.stderr).toContain('--out DIR for demo and analyze');
    expect(result.stderr).not.toContain('calls (');
  });

  it('a file where the folder should be: the same message, the same code', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-file-in-the-way-'));
    chmodSync(dir, 0o755);
    const file = path.join(dir, 'taken');
    writeFileSync(file, '');
    const result = demo(path.join(file, 'out'));
    expect(result.status, result.stderr).toBe(ExitCode.badInput);
    expect(result.stderr).toContain(
      'cannot write the output folder: a part of the path is a file, not a folder',
    );
    expect(result.stderr).toContain('--output-dir DIR for run');
  });
});
