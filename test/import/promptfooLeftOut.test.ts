/**
 * What a promptfoo import leaves out says why, one reason per way: per-call limits (and what
 * gates speed here), judge-graded assertions, embeddings, Python, web services; and the closing
 * table counts, per assertion type, what was converted and what was left out.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importSuite } from '../../src/checks/churn/commands.js';
import { promptfoo } from '../../src/import/promptfoo.js';
import { cli } from '../support/smallRun.js';

const CONFIG = path.resolve('test/fixtures/promptfoo/limits/promptfooconfig.yaml');

describe('promptfoo assertions left out', () => {
  const result = importSuite(promptfoo, CONFIG, 'promptfooconfig.yaml');
  const reasonOf = (type: string) =>
    result.report.find((line) => line.includes(`not converted: ${type}: `));

  it('says a latency or cost limit is per call, and what gates relative speed', () => {
    for (const type of ['latency', 'cost']) {
      expect(reasonOf(type)).toContain(`${type}: a per-call limit, not converted`);
      expect(reasonOf(type)).toContain('relative speed is for the planned speed check to gate');
    }
  });

  it('says llm-rubric, model-graded-* and factuality need a judge', () => {
    for (const type of ['llm-rubric', 'model-graded-closedqa', 'factuality']) {
      expect(reasonOf(type)).toBe(
        `test ${type === 'llm-rubric' ? '1 "Watering"' : '2 "Frost"'}: not converted: ${type}: needs a judge model (model-graded)`,
      );
    }
  });

  it('says similar needs embeddings, not a judge', () => {
    expect(reasonOf('similar')).toBe(
      'test 2 "Frost": not converted: similar: needs embeddings (the answer\'s similarity to the value is measured on embedding vectors)',
    );
  });

  it('says python is code model-gate does not run, webhook asks a service', () => {
    expect(reasonOf('python')).toContain(
      'python: Python code, which model-gate does not run (it runs only JavaScript modules of the repository)',
    );
    expect(reasonOf('webhook')).toContain('webhook: asks a web service for the verdict');
    expect(result.report).toContain(
      'test 3 "Only scripts": left out: no deterministic assertion to grade the answer with',
    );
  });

  it('closes with a table per assertion type on stderr', async () => {
    expect(result.summary).toEqual([
      'promptfoo assertion    converted  left out',
      'cost                           0         1',
      'factuality                     0         1',
      'icontains                      1         0',
      'latency                        0         1',
      'llm-rubric                     0         1',
      'model-graded-closedqa          0         1',
      'not-icontains                  1         0',
      'python                         0         1',
      'similar                        0         1',
      'webhook                        0         1',
      'total                          2         8',
      '2 of 10 assertions converted (20%); 2 of the 4 that check the answer without a model (50%; model-graded ones and per-call limits set apart)',
    ]);
    const run = await cli(['import', 'promptfoo', CONFIG]);
    expect(run.stderr).toContain('\ntotal                          2         8\n');
  });
});
