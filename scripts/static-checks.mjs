// The static checks of `npm run all`, side by side: they read the same files and none writes,
// so on two cores they end in about the time of the longest instead of the sum. Each check's
// output is printed whole when it ends, in the order below; the exit code is 1 when any
// failed, and the last line names them.
import { spawn } from 'node:child_process';

const tsc = 'node_modules/typescript-native/bin/tsc';
// One thread each: beside the other checks the cores are taken anyway, and tsc's own threads
// only add their overhead (8.3 s for the whole group instead of 10.5 s on two cores).
const tscArgs = ['--noEmit', '--singleThreaded'];
const CHECKS = [
  // Format and lint in one pass over the files (what `npm run format:check` and `npm run lint`
  // check); Biome's assist actions (import sorting) are not part of this project's style.
  {
    name: 'format and lint (biome check)',
    argv: ['node_modules/@biomejs/biome/bin/biome', 'check', '--assist-enabled=false', '.'],
  },
  { name: 'types (tsc, Node code)', argv: [tsc, '-p', 'tsconfig.json', ...tscArgs] },
  { name: 'types (tsc, page script)', argv: [tsc, '-p', 'src/report/html/client', ...tscArgs] },
  { name: 'unused code (knip)', argv: ['node_modules/knip/bin/knip.js'] },
];

function run({ name, argv }) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (error) => resolve({ name, ok: false, output: `${error.message}\n`, ms: 0 }));
    child.on('close', (code, signal) =>
      resolve({
        name,
        ok: code === 0,
        output: Buffer.concat(output).toString() + (signal ? `ended by ${signal}\n` : ''),
        ms: Date.now() - started,
      }),
    );
  });
}

const results = await Promise.all(CHECKS.map(run));
for (const { name, ok, output, ms } of results) {
  process.stdout.write(`\n> ${name}: ${ok ? 'passed' : 'FAILED'} (${(ms / 1000).toFixed(1)} s)\n`);
  if (output.trim() !== '') process.stdout.write(output.endsWith('\n') ? output : `${output}\n`);
}
const failed = results.filter((r) => !r.ok).map((r) => r.name);
if (failed.length > 0) {
  process.stderr.write(`\nstatic checks failed: ${failed.join(', ')}\n`);
  process.exit(1);
}
process.stdout.write('\nstatic checks passed: format, lint, types, unused code\n');
