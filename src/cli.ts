import { handlers } from './cli/handlers.js';
import { runCli } from './cli/program.js';

const code = await runCli(process.argv.slice(2), handlers, {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.exitCode = code;
