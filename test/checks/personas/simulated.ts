/** Answers of simulated assistants (the simulator's personas behaviour), as sample-log records. */
import type { PersonasCatalogue } from '../../../src/checks/personas/catalogue.js';
import { personasAnswer, readPersonasParams } from '../../../src/simulator/behaviours/personas.js';
import { answerRecord } from './records.js';
import type { PersonasCallRecord } from '../../../src/checks/personas/records.js';

export function simulatedRecords(
  catalogue: PersonasCatalogue,
  model: string,
  block: Record<string, unknown>,
): PersonasCallRecord[] {
  const params = readPersonasParams(block);
  return catalogue.assistants.flatMap((assistant) =>
    catalogue.probes.map((probe, index) => {
      const text = personasAnswer(
        { model, system: assistant.prompt, user: probe, format: null, temperature: 0.3, seed: 7 },
        params,
      );
      if (text === null) throw new Error(`the behaviour did not recognise ${assistant.name}`);
      return answerRecord(catalogue, model, { persona: assistant.name, probe: index, text });
    }),
  );
}
