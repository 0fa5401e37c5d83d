/**
 * Test files in the order that ends the run soonest on two workers: the longest first, so
 * that none of them starts last and runs alone. Vitest orders by the durations of the previous
 * run when it has them, and by file size on a fresh clone (CI), where a short file with a long
 * run could start last; the files known to be long go first either way, longest first
 * (durations measured on a 2-core machine), then the rest in Vitest's own order; the files
 * that each need a process of their own come after all the others.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONGEST_FIRST = [
  'test/package/newcomer.test.ts', // ~75 s
  'test/pipeline/killRerun.test.ts',
  'test/action/bundledAction.test.ts',
  'test/action/integrity.test.ts',
  'test/browser/demoPage.test.ts',
  'test/providers/embedded/provider.test.ts',
  'test/pipeline/rerunRepairs.test.ts',
  'test/hostile/hostileStrings.test.ts',
  'test/runner/killAdaptive.test.ts',
  'test/pipeline/embeddedSeries.test.ts',
  'test/gpu/sampler.test.ts',
  'test/providers/embedded/exact.test.ts', // ~5 s
  // Files with a process of their own, which run after the others (below), longest first.
  'test/action/nightlyHistory.test.ts',
  'test/hostile/secrets.test.ts',
];

/** The project (vitest.config.ts) of the files that each get a process of their own. */
const OWN_PROCESS = 'own-process';

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const at = LONGEST_FIRST.indexOf(path.relative(process.cwd(), spec.moduleId));
      return at === -1 ? LONGEST_FIRST.length : at;
    };
    // The files with a process of their own go last: a worker whose modules are shared is
    // stopped whenever the next file in the queue is one of those, and the next shared file
    // then loads every module again in a new worker.
    const ownProcess = (spec: TestSpecification) => (spec.project.name === OWN_PROCESS ? 1 : 0);
    // Array.prototype.sort is stable: the unlisted files keep Vitest's order.
    return [...ordered].sort((a, b) => ownProcess(a) - ownProcess(b) || rank(a) - rank(b));
  }
}
