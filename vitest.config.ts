import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Folders of pure, in-process tests: no child process, no registry or environment change, no
 * module mocks. Their files share one module graph per worker (isolate: false), which saves
 * loading the source tree again for every file — most of their time otherwise.
 */
const SHARED_MODULES = [
  'test/stats/**/*.test.ts',
  'test/checks/**/*.test.ts',
  'test/render/**/*.test.ts',
  'test/text/**/*.test.ts',
  'test/sampleLog/**/*.test.ts',
  'test/simulator/**/*.test.ts',
  'test/history/**/*.test.ts',
  'test/gpu/**/*.test.ts',
];
/** Files in those folders that change what other files would see: each gets a fresh graph. */
const CHANGES_SHARED_STATE = ['test/checks/fourthCheck.test.ts'];

const common = {
  testTimeout: 60_000,
  hookTimeout: 60_000,
  pool: 'forks' as const,
};

export default defineConfig({
  test: {
    // One worker per core, two at least: the end-to-end files spend much of their time waiting
    // on child processes and loopback servers, which a single worker would leave a core idle on.
    maxWorkers: Math.max(2, availableParallelism()),
    reporters: ['default', './test/support/closingLine.ts'],
    projects: [
      {
        test: {
          ...common,
          name: 'in-process',
          include: SHARED_MODULES,
          exclude: CHANGES_SHARED_STATE,
          isolate: false,
        },
      },
      {
        test: {
          ...common,
          name: 'isolated',
          include: ['test/**/*.test.ts'],
          exclude: [...SHARED_MODULES, '**/node_modules/**'],
        },
      },
      { test: { ...common, name: 'isolated-state', include: CHANGES_SHARED_STATE } },
    ],
  },
});
