import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/sequencer.js';

/**
 * Most test files share one module graph per worker (isolate: false): loading the source tree
 * again for every file was a third of the suite's time. A file that changes what the files
 * after it would see — environment variables, spies on process streams, module mocks, the
 * check registry — runs in a process of its own instead.
 */
const OWN_PROCESS = [
  // The action in this process: INPUT_* and GITHUB_* variables, a spy on stdout.
  'test/action/nightlyHistory.test.ts',
  'test/hostile/secrets.test.ts',
  'test/hostile/staleComment.test.ts',
  // @actions/core keeps the job summary file of its first use in the process.
  'test/github/publish.test.ts',
  'test/github/summary.test.ts',
  // Module mocks of node:fs.
  'test/hostile/atomicWrites.test.ts',
  // Registers a fourth check.
  'test/checks/fourthCheck.test.ts',
];

const common = {
  // Variables a test stubs are put back after it, whichever file runs next in the worker.
  unstubEnvs: true,
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
  // A folder for runs that several files read (the demo): test/support/sharedDemo.ts.
  globalSetup: ['./test/support/sharedFolder.ts'],
};

export default defineConfig({
  test: {
    // One worker per core, two at least: the end-to-end files spend much of their time waiting
    // on child processes and loopback servers, which a single worker would leave a core idle on.
    maxWorkers: Math.max(2, availableParallelism()),
    reporters: ['default', './test/support/closingLine.ts'],
    sequence: { sequencer: LongestFirst },
    // Transformed source kept on disk (node_modules/.experimental-vitest-cache, keyed by each
    // file's path and content, Vitest's version and the config): the files with a process of
    // their own are a second project, which would otherwise transform the whole source tree
    // again (2-3 s of CPU on two cores).
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: {
          ...common,
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: [...OWN_PROCESS, '**/node_modules/**'],
          isolate: false,
        },
      },
      { test: { ...common, name: 'own-process', include: OWN_PROCESS } },
    ],
  },
});
