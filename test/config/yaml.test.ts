import { describe, expect, it } from 'vitest';
import { parseYamlDocument } from '../../src/config/yaml.js';
import { formatGateError, InputError } from '../../src/errors.js';
import { parseScenario } from '../../src/simulator/scenario.js';

function message(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return formatGateError(error as InputError);
  }
  throw new Error('parsed without error');
}

describe('YAML syntax errors name the file, line and column', () => {
  it('a duplicated key', () => {
    expect(message(() => parseYamlDocument('a: 1\nb: 2\na: 3\n', 'x.yml'))).toBe(
      'x.yml: not valid YAML\n  - line 3, column 1: map keys must be unique: "a" is written again (first on line 1)',
    );
  });

  it('the same in a simulator scenario', () => {
    const text = 'seed: 1\nmodels:\n  - name: a\n    name: b\n';
    expect(message(() => parseScenario(text, 'scenario.yml'))).toContain(
      'scenario.yml: not valid YAML\n  - line 4, column 5: map keys must be unique: "name" is written again (first on line 3)',
    );
  });
});
