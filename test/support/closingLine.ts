/**
 * Ends a test run with one plain line, "tests: N passed, N failed[, N skipped]", that any CI
 * log reader understands, whatever the test runner's own summary looks like.
 */
import type { Reporter, TestModule } from 'vitest/node';

export default class ClosingLineReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const browserSkipped: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else {
          skipped++;
          if (module.moduleId.includes('/test/browser/')) browserSkipped.push(test.fullName);
        }
      }
      // A file that failed to load has no tests but must not read as a clean run.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed++;
    }
    if (browserSkipped.length > 0) {
      process.stdout.write(
        `\nbrowser tests not run (no Chromium; install Debian's chromium package or set MODEL_GATE_CHROMIUM):\n${browserSkipped.map((name) => `  - ${name}`).join('\n')}\n`,
      );
    }
    process.stdout.write(
      `\ntests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}\n`,
    );
  }
}
