import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import type { Behaviour } from '../../src/simulator/behaviour.js';
import { churnBehaviour } from '../../src/simulator/behaviours/churn.js';
import { dragonBehaviour } from '../../src/simulator/behaviours/dragon.js';
import { digestFromName, parseScenario } from '../../src/simulator/scenario.js';

const strict: Behaviour = {
  name: 'quiz',
  answer: () => null,
  validate(params) {
    if (typeof params !== 'object' || params === null || !('accuracy' in params)) {
      throw new Error('accuracy: required, a probability between 0 and 1');
    }
  },
};

function errorOf(text: string, behaviours: readonly Behaviour[] = [strict]): InputError {
  try {
    parseScenario(text, 'demo.yml', behaviours);
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('scenario files', () => {
  it('fills defaults, tags bare names, derives digests, and keeps behaviour blocks as written', () => {
    const scenario = parseScenario(
      `
seed: 5
parallel: 2
faults: [{kind: status, status: 503, rate: 0.1}]
models:
  - name: demo
    latency-ms: 20
    quiz: {accuracy: 0.8, per-item: {q-1: 0.5}}
    faults: [{kind: drop, requests: [3]}]
`,
      'demo.yml',
      [strict],
    );
    expect(scenario).toMatchObject({ seed: 5, parallel: 2, maxQueue: 512, maxLoaded: 1 });
    expect(scenario.version).toContain('simulated');
    const [model] = scenario.models;
    expect(model?.name).toBe('demo:latest');
    expect(model?.digest).toBe(digestFromName('demo:latest'));
    expect(model?.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(model?.family).toBe('simulated');
    // Data keys inside a behaviour block are not renamed to camelCase.
    expect(model?.behaviours).toEqual({ quiz: { accuracy: 0.8, 'per-item': { 'q-1': 0.5 } } });
    // The model's faults first, then the scenario-wide ones.
    expect(model?.faults.map((f) => f.kind)).toEqual(['drop', 'status']);
  });

  it('names the line and field of a wrong fault', () => {
    const error = errorOf(`models:
  - name: a
    faults:
      - kind: status
        status: 418
`);
    expect(error.message).toBe('demo.yml: invalid scenario');
    expect(error.details[0]).toMatch(/^line 5: models\[0\]\.faults\[0\]\.status: /);
  });

  it('rejects an unknown key in a model, listing the known ones', () => {
    const error = errorOf('models:\n  - name: a\n    latency: 3\n');
    expect(error.details[0]).toMatch(
      /^line 3: models\[0\]\.latency: unknown key \(known: name, digest,.*quiz\)$/,
    );
  });

  it('reports a behaviour block its behaviour rejects, with the model', () => {
    const error = errorOf('models:\n  - name: a\n    quiz: {}\n');
    expect(error.details[0]).toBe(
      'line 3: models[0].quiz: accuracy: required, a probability between 0 and 1',
    );
  });

  it('names the line and field of a wrong parameter deep in a behaviour block', () => {
    const churn = errorOf(
      'models:\n  - name: a\n    churn:\n      accuracy: 0.6\n      domains:\n        law: -1\n        tax: low\n',
      [churnBehaviour],
    );
    expect(churn.details).toEqual([
      'line 7: models[0].churn.domains.tax: expected a number (logit shift), got "low"',
    ]);
    const dragon = errorOf(
      'models:\n  - name: a\n  - name: b\n    dragon: {policy: careful, walls: -3}\n',
      [dragonBehaviour],
    );
    expect(dragon.details).toEqual(['line 4: models[1].dragon.walls: expected ≥ 0, got -3']);
  });

  it('insists on the simulated label and unique names', () => {
    expect(errorOf('version: 0.12.6\nmodels: [{name: a}]\n').details[0]).toMatch(
      /version: must contain "simulated"/,
    );
    expect(errorOf('models: [{name: a}, {name: "a:latest"}]\n').details[0]).toMatch(/listed twice/);
  });

  it('reports YAML syntax errors with their line', () => {
    expect(errorOf('models:\n  - name: [a\n').message).toBe('demo.yml: not valid YAML');
  });
});
