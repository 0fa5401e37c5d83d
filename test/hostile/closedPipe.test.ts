/**
 * Output piped to a reader that has gone (`model-gate --help | true`): the command ends
 * quietly with its own exit code, no EPIPE stack trace, no exit code 1.
 */
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { pipeWriter } from '../../src/cli/pipe.js';
import { sourceCli } from '../support/bundled.js';

describe('a closed output pipe', () => {
  it('drops the rest of the output once the stream failed', () => {
    const written: string[] = [];
    const stream = Object.assign(new EventEmitter(), {
      write: (text: string) => written.push(text),
    });
    const write = pipeWriter(stream);
    write('a');
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    write('b');
    expect(written).toEqual(['a']);
  });

  it('ends help, maze and play output quietly with code 0', { timeout: 60_000 }, () => {
    const cli = `node ${sourceCli()}`;
    const script = [
      `(${cli} --help | true; echo "help=\${PIPESTATUS[0]}" >&3) 3>&1 &`,
      `(${cli} dragon maze --seed 1 | true; echo "maze=\${PIPESTATUS[0]}" >&3) 3>&1 &`,
      `(${cli} dragon play --player random --seeds 0-3 | true; echo "play=\${PIPESTATUS[0]}" >&3) 3>&1 &`,
      'wait',
    ].join('\n');
    const result = spawnSync('bash', ['--noprofile', '--norc', '-c', script], { encoding: 'utf8' });
    expect(result.stdout.trim().split('\n').sort()).toEqual(['help=0', 'maze=0', 'play=0']);
    expect(result.stderr).not.toMatch(/EPIPE|Error|at /);
  });
});
