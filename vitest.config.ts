import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One worker per core, two at least: the end-to-end files spend much of their time waiting
    // on child processes and loopback servers, which a single worker would leave a core idle on.
    maxWorkers: Math.max(2, availableParallelism()),
    reporters: ['default', './test/support/closingLine.ts'],
  },
});
