/**
 * What the personas check asks: every assistant answers every probe, once, under its own
 * system prompt, in free text. One work unit per (model, assistant, probe); the answer is kept
 * verbatim in the sample log because the analysis reads the words.
 */
import { createHash } from 'node:crypto';
import type { ChatMessage, ChatOptions, ChatResponse } from '../../providers/types.js';
import {
  type RecordedOptions,
  recordedOptions,
  replyFields,
  SAMPLE_LOG_VERSION,
  type SampleRecord,
  sameRecordedOptions,
} from '../../sampleLog/index.js';
import { isCall } from '../../sampleLog/schema.js';
import type { CallOutcome, UnitContext, WorkUnit } from '../workUnit.js';
import type { PersonasCatalogue } from './catalogue.js';
import type { PersonasCallRecord } from './records.js';
import type { PersonasSettings } from './settings.js';

export function messagesFor(systemPrompt: string, probe: string): ChatMessage[] {
  return [
    { role: 'system', content: systemPrompt },
    { role: 'user', content: probe },
  ];
}

/** SHA-256 of the messages as sent: a changed prompt or probe never resumes an old answer. */
export function promptHash(messages: readonly ChatMessage[]): string {
  return createHash('sha256').update(JSON.stringify(messages)).digest('hex');
}

/** Sample 0 keeps the key of logs written before repeated samples existed, so they resume. */
export function unitKey(assistant: string, probe: number, sample = 0): string {
  return sample === 0 ? `${assistant}/probe-${probe}` : `${assistant}/probe-${probe}#${sample}`;
}

/** Sample s is asked with seed + s: one shared seed would give the same answer every time. */
export function chatOptions(settings: PersonasSettings, numCtx: number, sample = 0): ChatOptions {
  return {
    temperature: settings.temperature,
    seed: settings.seed + sample,
    numCtx,
    numPredict: settings.maxTokens,
    think: settings.think,
  };
}

export function planPersonas(
  catalogue: PersonasCatalogue,
  settings: PersonasSettings,
  numCtx: number,
  model: string,
): WorkUnit[] {
  const embedModel = settings.vectors === 'embed' ? (settings.embedModel ?? model) : null;
  const samples = Array.from({ length: settings.samples }, (_, s) => s);
  return catalogue.assistants.flatMap((assistant) =>
    catalogue.probes.flatMap((probeText, probe) =>
      samples.map((sample): WorkUnit => {
        const options = chatOptions(settings, numCtx, sample);
        const messages = messagesFor(assistant.prompt, probeText);
        const hash = promptHash(messages);
        const key = unitKey(assistant.name, probe, sample);
        const base = {
          model,
          key,
          sample,
          persona: assistant.name,
          probe,
          prompt_sha256: hash,
          options: recordedOptions(options),
        };
        return {
          check: 'personas',
          model,
          key,
          expectedCalls: 1,
          expected: { promptSha256: hash, options: base.options },
          isComplete: (prior) => prior.some((r) => completes(r, base, embedModel)),
          current: (records) => records.filter((r) => answers(r, base)),
          async execute(ctx: UnitContext): Promise<void> {
            const outcome = await ctx.call({
              request: { model, messages, options },
              promptSha256: hash,
            });
            const record = scoreAnswer(outcome, { ...base, digest: ctx.digest });
            if (record.status === 'ok' && embedModel !== null && ctx.embed) {
              try {
                const [vector] = await ctx.embed(embedModel, [record.text]);
                if (vector && vector.length > 0) {
                  record.vector = vector;
                  record.embed_model = embedModel;
                }
              } catch {
                // The answer stays usable: without a vector the analysis falls back to TF-IDF
                // for this model and says so, and a resumed run asks for the vector again.
              }
            }
            await ctx.emit(record);
          },
        };
      }),
    ),
  );
}

interface RecordIdentity {
  model: string;
  key: string;
  sample: number;
  persona: string;
  probe: number;
  prompt_sha256: string;
  options: RecordedOptions;
}

/** A record of this unit under the current settings: same model, prompt and options. */
function answers(record: SampleRecord, unit: RecordIdentity): boolean {
  if (!isCall(record) || record.check !== 'personas') return false;
  if (record.model !== unit.model || record.key !== unit.key) return false;
  return (
    record.prompt_sha256 === unit.prompt_sha256 && sameRecordedOptions(record.options, unit.options)
  );
}

/** A prior record that settles the unit: same prompt and options, not an error. */
function completes(record: SampleRecord, unit: RecordIdentity, embedModel: string | null): boolean {
  if (!answers(record, unit) || !isCall(record) || record.check !== 'personas') return false;
  if (record.status === 'error') return false;
  if (embedModel !== null && record.status === 'ok') return record.embed_model === embedModel;
  return true;
}

/** One call outcome → its sample-log record. An empty answer is invalid: nothing to attribute. */
export function scoreAnswer(
  outcome: CallOutcome,
  unit: RecordIdentity & { digest: string | null },
): PersonasCallRecord {
  const response = outcome.response;
  const text = outcome.status === 'ok' && response ? response.content : '';
  let status: PersonasCallRecord['status'] = outcome.status;
  let reason = outcome.reason;
  if (outcome.status === 'ok' && text.trim() === '') {
    status = 'invalid';
    reason = emptyAnswerReason(response);
  }
  const record: PersonasCallRecord = {
    v: SAMPLE_LOG_VERSION,
    kind: 'call',
    check: 'personas',
    model: unit.model,
    digest: unit.digest,
    key: unit.key,
    sample: unit.sample,
    options: unit.options,
    prompt_sha256: unit.prompt_sha256,
    status,
    latency_ms: outcome.latencyMs,
    attempts: outcome.attempts,
    persona: unit.persona,
    probe: unit.probe,
    text,
  };
  if (reason !== undefined) record.reason = reason;
  Object.assign(record, replyFields(response));
  return record;
}

function emptyAnswerReason(response: ChatResponse | null): string {
  if (response?.thinking && response.doneReason === 'length') {
    return 'empty answer: the token budget went to thinking (done_reason length); keep think false or raise max-tokens';
  }
  if (response?.doneReason === 'length') return 'empty answer: stopped by the token budget';
  return 'empty answer';
}
