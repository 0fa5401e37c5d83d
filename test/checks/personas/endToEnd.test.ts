/**
 * The whole personas path over loopback: the plan, the runner and the real Ollama client
 * against the simulator, then the analysis of the sample log it wrote and the gate.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PersonasCatalogue, readCatalogue } from '../../../src/checks/personas/catalogue.js';
import { planPersonas } from '../../../src/checks/personas/plan.js';
import { gatePersonas } from '../../../src/checks/personas/gate.js';
import { personasSettingsSchema } from '../../../src/checks/personas/settings.js';
import { OllamaProvider } from '../../../src/providers/ollama.js';
import { runPlan } from '../../../src/runner/run.js';
import { parseScenario } from '../../../src/simulator/scenario.js';
import { type RunningSimulator, startSimulator } from '../../../src/simulator/server.js';
import { analyse, BUDGET } from './records.js';

// Assistants recognised by a phrase of their prompt: no file path in the scenario.
const voices = `
      assistants:
        technique: "Your field is technique"
        flavour: "Your field is flavour"
        sourcing: "Your field is ingredients"
        planning: "Your field is organisation"
        taste: "What interests you is how a dish"
        recipe-review: "People send you recipes"`;
const scenario = parseScenario(`
seed: 3
parallel: 4
models:
  - name: sim-base:1b
    personas:${voices}
      same-voice: [[flavour, taste]]
  - name: sim-next:2b
    personas:${voices}
      same-voice: [[flavour, taste], [technique, sourcing]]
`);

describe('personas over the simulator', () => {
  let simulator: RunningSimulator;
  let dir: string;
  let catalogue: PersonasCatalogue;
  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, host: '127.0.0.1', scenario });
    dir = await mkdtemp(path.join(tmpdir(), 'personas-e2e-'));
    catalogue = await readCatalogue(path.resolve('fixtures/personas/catalogue.yml'), 'catalogue');
  });
  afterAll(async () => {
    await simulator?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('collects every answer, finds the merged pair, and resumes without asking again', async () => {
    // One sample per probe keeps the simulated run short; repeated samples are planned in
    // collection.test.ts.
    const settings = personasSettingsSchema.parse({ permutations: 200, samples: 1 });
    const models = ['sim-base:1b', 'sim-next:2b'];
    const units = models.flatMap((m) => planPersonas(catalogue, settings, 4096, m));
    const provider = new OllamaProvider({ host: simulator.url, timeoutMs: 5000, keepAlive: '1m' });
    const logPath = path.join(dir, 'samples.jsonl');
    const run = () =>
      runPlan({ provider, units, models, logPath, concurrency: 4, warmup: false, numCtx: 4096 });

    const first = await run();
    expect(first.units).toEqual({ planned: 96, skipped: 0, executed: 96 });
    const section = analyse(first.records, catalogue, settings, 'sim-base:1b', 'sim-next:2b');
    expect(section.models.map((m) => m.answers.ok)).toEqual([48, 48]);
    expect(section.comparison?.newlyMerged.map((p) => `${p.a}/${p.b}`)).toEqual([
      'technique/sourcing',
    ]);
    const rules = gatePersonas(section, settings.gate, BUDGET).map(
      (f) => `${f.rule}:${f.severity}`,
    );
    expect(rules).toContain('merged-pair:fail');

    const again = await run();
    expect(again.units).toMatchObject({ planned: 96, skipped: 96, executed: 0 });
    const reanalysed = analyse(again.records, catalogue, settings, 'sim-base:1b', 'sim-next:2b');
    expect(reanalysed).toEqual(section);
  });
});
