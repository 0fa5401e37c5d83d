import { handlers } from './cli/handlers.js';
import { pipeWriter } from './cli/pipe.js';
import { runCli } from './cli/program.js';
import { onSecret } from './text/secrets.js';
import { maskCommand } from './text/sinks.js';

// In a workflow step the runner masks what it is told to: each secret is announced on stderr
// (stdout may be read by a script, `--json`), where the runner reads commands too; escaped, so
// that a secret with a line break stays one command (each of its lines is announced too).
if (process.env.GITHUB_ACTIONS === 'true') {
  onSecret((secret) => process.stderr.write(maskCommand(secret)));
}

const code = await runCli(process.argv.slice(2), handlers, {
  stdout: pipeWriter(process.stdout),
  stderr: pipeWriter(process.stderr),
});
process.exitCode = code;
