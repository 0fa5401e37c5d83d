/**
 * Which Node model-gate runs on, said once and kept true: `engines` names the oldest Node the
 * CLI supports, CI runs the whole test suite on that one and on `.node-version`, which is the
 * Node the action runs on (`runs: using: nodeNN`), and the README names both.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Job {
  steps: { uses?: string; run?: string; with?: Record<string, unknown> }[];
}

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { engines: { node: string } };
const ci = parse(readFileSync('.github/workflows/ci.yml', 'utf8')) as {
  jobs: Record<string, Job>;
};
const action = parse(readFileSync('action.yml', 'utf8')) as { runs: { using: string } };
const nodeVersionFile = readFileSync('.node-version', 'utf8').trim();
const readme = readFileSync('README.md', 'utf8');

/** The Node major a CI job sets up, from its setup-node step. */
function nodeOf(job: Job): string | null {
  const setup = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
  if (!setup?.with) return null;
  if (setup.with['node-version-file'] === '.node-version')
    return nodeVersionFile.split('.')[0] ?? null;
  return setup.with['node-version'] === undefined ? null : String(setup.with['node-version']);
}

const testedOn = Object.values(ci.jobs)
  .filter((job) => job.steps.some((s) => s.run === 'npm test'))
  .map(nodeOf);

describe('the Node versions model-gate claims', () => {
  const oldest = /^>=\s*(\d+)$/.exec(pkg.engines.node)?.[1];

  it('CI runs the tests on the oldest Node engines allows', () => {
    expect(oldest).toBeDefined();
    expect(testedOn).toContain(oldest);
  });

  it('CI runs them on .node-version too, which is the Node the action runs on', () => {
    const major = nodeVersionFile.split('.')[0];
    expect(action.runs.using).toBe(`node${major}`);
    expect(testedOn).toContain(major);
  });

  it('the README names both', () => {
    expect(readme).toContain(
      `The CLI is tested on Node ${oldest}, the oldest version \`engines\` allows`,
    );
    expect(readme).toContain(
      `and on Node ${nodeVersionFile.split('.')[0]}, the version of \`.node-version\``,
    );
  });

  it('this run is on a Node engines allows', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(Number(oldest));
  });
});
