import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/simulator/scenario.js';

const folder = new URL('../../fixtures/simulator/', import.meta.url);

describe('scenario fixtures', () => {
  it.each(readdirSync(folder).filter((f) => f.endsWith('.yml')))('%s loads', (file) => {
    const scenario = loadScenario(new URL(file, folder).pathname);
    expect(scenario.models.length).toBeGreaterThan(0);
    expect(scenario.version).toContain('simulated');
  });
});
