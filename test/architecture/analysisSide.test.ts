/**
 * The analysis is a function of the sample log and the check definitions: it reads what a run
 * wrote, never how the runner decided what to write. Nothing it imports, directly or through
 * other modules, is a module of `src/runner/` — type-only imports included. What the runner
 * and the analysis both need (the plan read against a log, adaptive sampling's stage
 * decisions, shards) lives before both, in `src/plan/` and in the checks.
 */
import { describe, expect, it } from 'vitest';
import { type ImportEdge, importEdges, sourceFiles } from './sourceGraph.js';

/** Where the analysis starts: `model-gate analyze` and a run's report both go through it. */
const ANALYSIS_ENTRY = 'pipeline/analyse.ts';

/** Every file `entry` imports, directly or not, each with the chain of imports that reaches it. */
function reachable(entry: string, edges: readonly ImportEdge[]): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const edge of edges) next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
  const chains = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const target of next.get(file) ?? []) {
      if (chains.has(target)) continue;
      chains.set(target, [...(chains.get(file) ?? []), target]);
      queue.push(target);
    }
  }
  return chains;
}

/** The runner's modules the analysis reaches, each as its chain of imports. */
function runnerModulesReached(entry: string, edges: readonly ImportEdge[]): string[] {
  return [...reachable(entry, edges)]
    .filter(([file]) => file.startsWith('runner/'))
    .map(([, chain]) => chain.join(' → '));
}

describe('the analysis side of src/', () => {
  const files = sourceFiles();
  const edges = importEdges(files);

  it('imports nothing from src/runner, directly or through other modules', () => {
    expect(files).toContain(ANALYSIS_ENTRY);
    expect(runnerModulesReached(ANALYSIS_ENTRY, edges)).toEqual([]);
  });

  it('reaches the modules the analysis is made of (the walk is not blind)', () => {
    const reached = reachable(ANALYSIS_ENTRY, edges);
    for (const file of [
      'checks/churn/adaptive.ts',
      'checks/churn/adaptiveAnalysis.ts',
      'plan/resumePlan.ts',
      'sampleLog/index.ts',
    ]) {
      expect(reached.has(file), file).toBe(true);
    }
    // The run itself does reach the runner: the rule sees an import where there is one.
    expect(runnerModulesReached('pipeline/run.ts', edges).length).toBeGreaterThan(0);
  });

  it('finds an import of the runner through a chain (the rule is not blind)', () => {
    const toy: ImportEdge[] = [
      { from: 'pipeline/analyse.ts', to: 'report/x.ts', typeOnly: false },
      { from: 'report/x.ts', to: 'runner/y.ts', typeOnly: true },
    ];
    expect(runnerModulesReached('pipeline/analyse.ts', toy)).toEqual([
      'pipeline/analyse.ts → report/x.ts → runner/y.ts',
    ]);
  });
});
