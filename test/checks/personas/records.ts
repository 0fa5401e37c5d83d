/** Builds personas sample-log records from hand-written answers, as the collection would. */
import { analysePersonas } from '../../../src/checks/personas/analyse.js';
import { type PersonasCatalogue, parseCatalogue } from '../../../src/checks/personas/catalogue.js';
import { messagesFor, promptHash, unitKey } from '../../../src/checks/personas/plan.js';
import type { PersonasSection } from '../../../src/checks/personas/section.js';
import type { SampleStatus } from '../../../src/sampleLog/index.js';
import type { PersonasCallRecord } from '../../../src/checks/personas/records.js';

/** The personas check's share of the default false-alarm budget (three checks). */
export const BUDGET = 0.05 / 3;

/** The gate settings the hand-worked expectations were computed at. */
export const gate = {
  minRecognition: 0.5,
  maxAccuracyDrop: 0.15,
  maxTimeoutShare: 0.05,
  minCrossingRise: 0.15,
  maxInvalidShare: 0.1,
};

export function catalogueFrom(yaml: string): PersonasCatalogue {
  return parseCatalogue(yaml, 'test-catalogue.yml');
}

export interface AnswerSpec {
  persona: string;
  probe: number;
  text: string;
  status?: SampleStatus;
  vector?: number[];
}

export function answerRecord(
  catalogue: PersonasCatalogue,
  model: string,
  spec: AnswerSpec,
): PersonasCallRecord {
  const assistant = catalogue.assistants.find((a) => a.name === spec.persona);
  const probe = catalogue.probes[spec.probe];
  if (!assistant || probe === undefined) throw new Error(`no ${spec.persona}/${spec.probe}`);
  const record: PersonasCallRecord = {
    v: 1,
    kind: 'call',
    check: 'personas',
    model,
    digest: null,
    key: unitKey(spec.persona, spec.probe),
    sample: 0,
    options: { temperature: 0.3, seed: 7, num_ctx: 4096, num_predict: 320, think: false },
    prompt_sha256: promptHash(messagesFor(assistant.prompt, probe)),
    status: spec.status ?? 'ok',
    latency_ms: 1,
    attempts: 1,
    persona: spec.persona,
    probe: spec.probe,
    text: spec.status && spec.status !== 'ok' ? '' : spec.text,
  };
  if (spec.vector) record.vector = spec.vector;
  return record;
}

/** answers[persona][probe] = text → records of one model. */
export function recordsFor(
  catalogue: PersonasCatalogue,
  model: string,
  answers: Record<string, readonly string[]>,
): PersonasCallRecord[] {
  return Object.entries(answers).flatMap(([persona, texts]) =>
    texts.map((text, probe) => answerRecord(catalogue, model, { persona, probe, text })),
  );
}

/** Records analysed as the check does, at the default budget: one model, or a pair. */
export function analyse(
  records: Parameters<typeof analysePersonas>[0],
  catalogue: PersonasCatalogue,
  settings: Parameters<typeof analysePersonas>[2],
  baseline = 'm',
  candidate: string | null = null,
): PersonasSection {
  return analysePersonas(records, catalogue, settings, { baseline, candidate }, BUDGET);
}
