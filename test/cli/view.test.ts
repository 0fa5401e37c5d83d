/**
 * `model-gate view`: the page is opened by the platform's opener with its path as one argument
 * (a real opener script records what it received), never through a shell; where no browser can
 * be opened the path is printed instead.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openerFor, openFile, pageFile } from '../../src/cli/view.js';
import { ExitCode } from '../../src/errors.js';
import { cli } from '../support/smallRun.js';

const root = mkdtempSync(path.join(tmpdir(), 'model-gate-view-'));

/** A folder whose name a shell would act on, holding a report.html. */
function hostileFolder(): string {
  const dir = path.join(root, 'out $(touch PWNED); touch PWNED2 `id`');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'report.html'), '<!doctype html>');
  return dir;
}

describe('openerFor', () => {
  it('picks the platform’s opener, and none in CI or without a display', () => {
    expect(openerFor('linux', { DISPLAY: ':0' })).toBe('xdg-open');
    expect(openerFor('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBe('xdg-open');
    expect(openerFor('linux', {})).toBeNull();
    expect(openerFor('darwin', {})).toBe('open');
    expect(openerFor('win32', {})).toBe('explorer.exe');
    expect(openerFor('darwin', { CI: 'true' })).toBeNull();
    expect(openerFor('linux', { DISPLAY: ':0', GITHUB_ACTIONS: 'true' })).toBeNull();
  });
});

describe('openFile', () => {
  it('hands the opener the path as one argument, which no shell ever reads', async () => {
    const page = path.join(hostileFolder(), 'report.html');
    const received = path.join(root, 'received.txt');
    const opener = path.join(root, 'opener.sh');
    // Written beside, then renamed: the test polls for the file and must never read it half written.
    writeFileSync(
      opener,
      `#!/bin/sh\nprintf '%s\\n' "$#" "$1" > "${received}.part" && mv "${received}.part" "${received}"\n`,
    );
    chmodSync(opener, 0o755);
    expect(await openFile(page, opener)).toBe(true);
    for (let i = 0; i < 250 && !existsSync(received); i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(readFileSync(received, 'utf8')).toBe(`1\n${page}\n`);
    expect(existsSync(path.join(root, 'PWNED'))).toBe(false);
    expect(existsSync(path.join(process.cwd(), 'PWNED2'))).toBe(false);
  });

  it('says false when the opener cannot be started', async () => {
    await expect(openFile('/x/report.html', path.join(root, 'no-such-opener'))).resolves.toBe(
      false,
    );
  });
});

describe('model-gate view', () => {
  it('prints the path of a folder’s report.html with --print', async () => {
    const dir = hostileFolder();
    const { code, stdout } = await cli(['view', dir, '--print']);
    expect(code).toBe(ExitCode.pass);
    expect(stdout).toBe(`${path.join(dir, 'report.html')}\n`);
  });

  it('refuses a folder without a report.html (bad input, exit 2)', async () => {
    const { code, stderr } = await cli(['view', root, '--print']);
    expect(code).toBe(ExitCode.badInput);
    expect(stderr).toContain('no report.html here');
    expect(() => pageFile(path.join(root, 'missing'))).toThrow(/no report\.html here/);
  });
});
