// Before anything else runs: see favourMemory.ts.
import './favourMemory.js';
import { handlers } from './cli/handlers.js';
import { pipeWriter } from './cli/pipe.js';
import { runCli } from './cli/program.js';

const code = await runCli(process.argv.slice(2), handlers, {
  stdout: pipeWriter(process.stdout),
  stderr: pipeWriter(process.stderr),
});
process.exitCode = code;
