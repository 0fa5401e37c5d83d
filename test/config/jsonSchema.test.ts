import { CHECKS } from '../../src/checks/builtIn.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { configSchema } from '../../src/config/schema.js';
import { configJsonSchema } from '../../src/config/jsonSchema.js';
import { loadConfig } from '../../src/config/load.js';

const SCHEMA_FILE = new URL('../../schema/config.schema.json', import.meta.url);

describe('schema/config.schema.json', () => {
  it('is the one generated from the zod config schema', () => {
    const generated = `${JSON.stringify(configJsonSchema(configSchema(CHECKS)), null, 2)}\n`;
    // Regenerate with: npm run schema
    if (process.env.UPDATE_CONFIG_SCHEMA === '1') writeFileSync(SCHEMA_FILE, generated);
    expect(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'))).toEqual(JSON.parse(generated));
  });

  const schema = JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'));
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
  const yamlFile = (file: string): unknown => parse(readFileSync(file, 'utf8'));

  it('speaks the kebab-case keys of the file, and model-gate.yml and the demo config pass', () => {
    expect(Object.keys(schema.properties)).toContain('fail-on');
    expect(Object.keys(schema.properties.churn.properties)).toContain('base-seed');
    expect(schema.properties.churn.properties.gate.properties['max-deteriorated'].default).toBe(
      '5%',
    );
    expect(schema.properties.runner.properties['num-ctx'].maximum).toBeUndefined();
    for (const file of ['model-gate.yml', 'fixtures/demo/model-gate.yml']) {
      expect(validate(yamlFile(file)), `${file}: ${JSON.stringify(validate.errors)}`).toBe(true);
      expect(() => loadConfig({ checks: CHECKS, file, env: {} })).not.toThrow();
    }
  });

  it('rejects what the loader rejects: an unknown key, a camelCase key, a value out of range', () => {
    const base = { models: { baseline: 'a:1' } };
    const bad: unknown[] = [
      { ...base, churn: { samplez: 3 } },
      { ...base, churn: { baseSeed: 3 } },
      { ...base, churn: { samples: 1 } },
      { ...base, 'fail-on': 'sometimes' },
      { models: {} },
    ];
    for (const config of bad) expect(validate(config), JSON.stringify(config)).toBe(false);
    expect(validate(base)).toBe(true);
  });

  it('model-gate.yml opens with the yaml-language-server modeline', () => {
    expect(readFileSync('model-gate.yml', 'utf8').split('\n')[0]).toBe(
      '# yaml-language-server: $schema=./schema/config.schema.json',
    );
  });
});
