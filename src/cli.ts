import { handlers } from './cli/handlers.js';
import { runCli } from './cli/program.js';
import { neutraliseLines } from './text/neutralise.js';

const code = await runCli(process.argv.slice(2), handlers, {
  // Messages quote servers and user files: nothing reaches the terminal that it would act on.
  stdout: (text) => process.stdout.write(neutraliseLines(text)),
  stderr: (text) => process.stderr.write(neutraliseLines(text)),
});
process.exitCode = code;
