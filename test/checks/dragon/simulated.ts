/**
 * Games of simulated players for the analysis and gate tests: the simulator's dragon behaviour
 * answers each rendered prompt, the engine plays it, records come out as from a real run.
 */
import { dragonDefinitions } from '../../../src/checks/dragon/definitions.js';
import { decisionFrom } from '../../../src/checks/dragon/plan.js';
import { recordedOptions } from '../../../src/sampleLog/index.js';
import { renderPrompt } from '../../../src/checks/dragon/prompt.js';
import { GameSession } from '../../../src/checks/dragon/session.js';
import { dragonSettingsSchema } from '../../../src/checks/dragon/settings.js';
import type { SampleRecord } from '../../../src/sampleLog/index.js';
import { dragonBehaviour } from '../../../src/simulator/behaviours/dragon.js';

export function definitionsFor(settings: Record<string, unknown>) {
  return dragonDefinitions(dragonSettingsSchema.parse(settings));
}

const OPTIONS = recordedOptions({
  temperature: 0,
  seed: 42,
  numCtx: 4096,
  numPredict: 64,
  think: false,
});

export function simulatedGames(
  model: string,
  params: Record<string, unknown>,
  seeds: readonly number[],
  settings: Record<string, unknown> = {},
  latencyMs = 40,
): SampleRecord[] {
  const definitions = definitionsFor({ ...settings, seeds: [...seeds] });
  const records: SampleRecord[] = [];
  for (const seed of seeds) {
    const session = new GameSession({
      seed,
      walls: definitions.walls,
      model,
      digest: 'sha256:feed',
      promptSha256: definitions.promptSha256,
    });
    while (!session.finished) {
      const user = renderPrompt(session.observation(), definitions.hints);
      const content = dragonBehaviour.answer(
        { model, system: null, user, format: null, temperature: 0, seed: 42 },
        params,
      );
      const input = decisionFrom(
        {
          status: 'ok',
          attempts: 1,
          latencyMs,
          response: {
            content: content ?? '',
            thinking: null,
            doneReason: 'stop',
            promptTokens: null,
            completionTokens: null,
            latencyMs,
          },
        },
        OPTIONS,
      );
      records.push(session.play(input));
    }
    records.push(session.gameRecord());
  }
  return records;
}
