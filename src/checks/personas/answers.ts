/**
 * From the sample log to the answers the analysis reads: for one model, one answer per
 * (assistant, probe, sample) of the current catalogue. Records written for another prompt (the
 * catalogue changed since) are left out and counted, never mixed in; so are samples beyond
 * the configured count (a run with fewer samples reads the first ones).
 */
import type { SampleRecord } from '../../sampleLog/index.js';
import type { PersonasCatalogue } from './catalogue.js';
import { messagesFor, promptHash } from './plan.js';
import { isPersonasCall, type PersonasCallRecord } from './records.js';
import type { AnswerTally } from './section.js';

export interface CollectedAnswer {
  /** Index of the assistant in the catalogue. */
  assistant: number;
  probe: number;
  /** Repeat index of the answer (0 … samples − 1). */
  sample: number;
  text: string;
  /** Embedding stored with the answer, when collected in `vectors: embed` mode. */
  vector: number[] | null;
}

export interface ModelAnswers {
  /** Valid answers (status ok, non-empty), catalogue order then probe order. */
  answers: CollectedAnswer[];
  tally: AnswerTally;
  /** Records of this model whose prompt no longer matches the catalogue. */
  stale: number;
  /** Records of samples beyond the configured count, left out. */
  extra: number;
}

export function collectAnswers(
  records: readonly SampleRecord[],
  catalogue: PersonasCatalogue,
  model: string,
  samples = 1,
): ModelAnswers {
  const expected = new Map<string, string>();
  catalogue.assistants.forEach((assistant, a) => {
    catalogue.probes.forEach((probe, p) => {
      const hash = promptHash(messagesFor(assistant.prompt, probe));
      for (let s = 0; s < samples; s++) expected.set(`${a}/${p}/${s}`, hash);
    });
  });
  const index = new Map(catalogue.assistants.map((a, i) => [a.name, i]));

  const chosen = new Map<string, PersonasCallRecord>();
  let stale = 0;
  let extra = 0;
  for (const record of records) {
    if (!isPersonasCall(record) || record.model !== model) continue;
    const a = index.get(record.persona);
    const slot = `${a}/${record.probe}/${record.sample}`;
    if (a !== undefined && record.sample >= samples && expected.has(`${a}/${record.probe}/0`)) {
      extra++;
      continue;
    }
    if (a === undefined || expected.get(slot) !== record.prompt_sha256) {
      stale++;
      continue;
    }
    // The sample log's rule chose one record per request; a slot asked under other options
    // too keeps the latest.
    chosen.set(slot, record);
  }

  const tally: AnswerTally = {
    expected: expected.size,
    found: chosen.size,
    ok: 0,
    invalid: 0,
    timeout: 0,
    error: 0,
  };
  const answers: CollectedAnswer[] = [];
  for (const [slot, record] of chosen) {
    const usable = record.status === 'ok' && record.text.trim() !== '';
    // An ok record with an empty text is counted as the scorer would have: invalid.
    tally[usable ? 'ok' : record.status === 'ok' ? 'invalid' : record.status]++;
    if (!usable) continue;
    const [a, p, s] = slot.split('/').map(Number);
    answers.push({
      assistant: a ?? 0,
      probe: p ?? 0,
      sample: s ?? 0,
      text: record.text,
      vector: record.vector && record.vector.length > 0 ? record.vector : null,
    });
  }
  answers.sort((x, y) => x.assistant - y.assistant || x.probe - y.probe || x.sample - y.sample);
  return { answers, tally, stale, extra };
}
