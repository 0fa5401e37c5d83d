/**
 * On a colour terminal the CLI keeps the colours it paints itself and nothing else: a clear
 * screen, a cursor move, a concealed line or a window title from outside text is shown
 * escaped. Without colour (a pipe, a CI log), no escape sequence passes at all.
 */
import { describe, expect, it } from 'vitest';
import { handlers } from '../../src/cli/handlers.js';
import { ansi } from '../../src/cli/colour.js';
import { type CommandHandlers, runCli } from '../../src/cli/program.js';
import { ExitCode } from '../../src/errors.js';

const HOSTILE = '\x1b[2J\x1b[8mhidden\x1b]0;title\x07\u202E';

const printing: CommandHandlers = {
  ...handlers,
  async validate(_options, io) {
    io.stdout(`verdict: ${ansi('FAIL', 'fail')} ${HOSTILE}\n`);
    return ExitCode.pass;
  },
};

async function output(colour: boolean): Promise<string> {
  let text = '';
  await runCli(['validate'], printing, {
    stdout: (t) => {
      text += t;
    },
    stderr: () => {},
    colour,
  });
  return text;
}

describe('terminal output', () => {
  it('keeps its own colours on a colour terminal, escapes everything else', async () => {
    const text = await output(true);
    expect(text).toContain('verdict: \x1b[1;31mFAIL\x1b[0m ');
    expect(text).toContain('\\u001B[2J\\u001B[8mhidden\\u001B]0;title\\u0007\\u202E');
  });

  it('lets no escape sequence through without colour', async () => {
    const text = await output(false);
    expect(text).not.toContain('\x1b');
    expect(text).toContain('verdict: \\u001B[1;31mFAIL');
  });
});
