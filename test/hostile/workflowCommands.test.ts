/**
 * In a workflow the runner reads the step's output for commands: `::add-mask::` lines tell it
 * what to hide. A multi-line secret written raw after `::add-mask::` is masked on its first
 * line only, and its other lines are printed in clear, as ordinary log lines. And text from
 * outside — a server's error body, an item id — that reaches the log with a line of its own
 * starting with `::` is taken as a command (`::add-mask::`, `::stop-commands::`, `::error::`).
 *
 * The runner is emulated here as it reads a log: line by line, a command when the line starts
 * with `::` after white space, its data percent-decoded, every masked value hidden in the
 * lines that follow.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetSecrets, onSecret, registerSecret } from '../../src/text/secrets.js';
import { forLog, forStream } from '../../src/text/sinks.js';
import { sourceCli } from '../support/bundled.js';
import { cli } from '../support/smallRun.js';

const run = promisify(execFile);

/** What the runner makes of a log: the commands it ran and the lines it shows, masked. */
function runnerReads(log: string): { commands: string[]; shown: string[] } {
  const masks: string[] = [];
  const commands: string[] = [];
  const shown: string[] = [];
  for (const line of log.split('\n')) {
    const command = /^\s*::([a-z-]+)(?: [^:]*)?::(.*)$/.exec(line);
    if (command) {
      commands.push(command[1] as string);
      const data = (command[2] as string)
        .replace(/%0D/g, '\r')
        .replace(/%0A/g, '\n')
        .replace(/%25/g, '%');
      if (command[1] === 'add-mask') masks.push(data);
      continue;
    }
    let text = line;
    for (const mask of masks) text = text.split(mask).join('***');
    shown.push(text);
  }
  return { commands, shown };
}

const LINES = [
  '-----BEGIN TEST KEY-----',
  'c2VjcmV0LWxpbmUtdHdvLXZhbHVl',
  '-----END TEST KEY-----',
];
const MULTI_LINE_KEY = LINES.join('\n');

afterEach(() => forgetSecrets());

describe('a multi-line secret announced to the runner', () => {
  it('the CLI in a workflow masks every line of it, and prints none in clear', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-mask-'));
    const config = path.join(dir, 'model-gate.yml');
    writeFileSync(
      config,
      'models: {baseline: "a:1b"}\nprovider: {kind: openai, host: "http://127.0.0.1:9", api-key-env: MODEL_GATE_TEST_KEY}\nchecks: [dragon]\n',
    );
    // validate creates the provider, which reads (and registers) the key.
    const { stdout, stderr } = await run(
      process.execPath,
      [sourceCli(), 'validate', '--config', config],
      {
        env: { ...process.env, GITHUB_ACTIONS: 'true', MODEL_GATE_TEST_KEY: MULTI_LINE_KEY },
      },
    );
    const log = runnerReads(`${stderr}${stdout}`);
    expect(log.commands.filter((c) => c === 'add-mask').length).toBeGreaterThanOrEqual(
      LINES.length,
    );
    for (const line of LINES) {
      expect(log.shown.filter((shown) => shown.includes(line))).toEqual([]);
    }
  });

  it('registers each line as a secret of its own, so the action masks each line too', () => {
    const heard: string[] = [];
    onSecret((secret) => heard.push(secret));
    registerSecret(MULTI_LINE_KEY);
    expect(heard).toEqual([MULTI_LINE_KEY, ...LINES]);
  });
});

describe('text from outside in the log', () => {
  it('a model tag with line breaks starts no workflow command in the CLI output', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-commands-'));
    const config = path.join(dir, 'model-gate.yml');
    const tag = 'a:1b\n::stop-commands::pwned\n  ::error::forged\n##[warning]old form';
    writeFileSync(config, `models: {baseline: ${JSON.stringify(tag)}}\nchecks: [dragon]\n`);
    const result = await cli(['validate', '--config', config]);
    expect(result.code).toBe(0);
    const log = runnerReads(`${result.stdout}${result.stderr}`);
    expect(log.commands).toEqual([]);
    expect(`${result.stdout}${result.stderr}`).not.toContain('##[');
    // What was written is still there to read.
    expect(log.shown.join('\n').replace(/\u200b/g, '')).toContain('::stop-commands::pwned');
  });

  it("what a run streams keeps the progress line's own controls, and starts no command", () => {
    const streamed = forStream('\rmodel-gate: 3/12 calls\x1b[K\n::add-mask::x\nnote: ##[error]y\n');
    expect(runnerReads(streamed).commands).toEqual([]);
    expect(streamed.startsWith('\rmodel-gate: 3/12 calls\x1b[K\n')).toBe(true);
  });

  it('the log sink leaves ordinary text as it is', () => {
    const text = 'model a:1b: 3 of 4 right\n  see ::this, ## [that]\n';
    expect(forLog(text)).toBe(text);
  });
});
