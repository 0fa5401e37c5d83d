import { describe, expect, it } from 'vitest';
import { planPersonas } from '../../../src/checks/personas/plan.js';
import { personasSettingsSchema } from '../../../src/checks/personas/settings.js';
import type { ChatResponse } from '../../../src/providers/types.js';
import type { SampleRecord } from '../../../src/sampleLog/index.js';
import type { CallOutcome, CallSpec, UnitContext } from '../../../src/checks/workUnit.js';
import { catalogueFrom } from './records.js';
import type { PersonasCallRecord } from '../../../src/checks/personas/records.js';

const catalogue = catalogueFrom(`
language: en
assistants:
  plot: "You shape the story."
  style: "You shape the sentence."
probes: ["first question", "second question", "third question"]
`);
const settings = personasSettingsSchema.parse({ samples: 1 });

function response(content: string, extra: Partial<ChatResponse> = {}): ChatResponse {
  return {
    content,
    thinking: null,
    doneReason: 'stop',
    promptTokens: 12,
    completionTokens: 34,
    latencyMs: 5,
    ...extra,
  };
}

function fakeContext(
  outcome: CallOutcome,
  embed?: UnitContext['embed'],
): { ctx: UnitContext; sent: CallSpec[]; emitted: SampleRecord[] } {
  const sent: CallSpec[] = [];
  const emitted: SampleRecord[] = [];
  const ctx: UnitContext = {
    prior: [],
    digest: 'abc',
    call: async (spec) => {
      sent.push(spec);
      return outcome;
    },
    emit: async (record) => {
      emitted.push(record);
    },
    signal: new AbortController().signal,
  };
  if (embed) ctx.embed = embed;
  return { ctx, sent, emitted };
}

const ok = (content: string, extra?: Partial<ChatResponse>): CallOutcome => ({
  status: 'ok',
  response: response(content, extra),
  attempts: 1,
  latencyMs: 5,
});

describe('planPersonas', () => {
  const units = planPersonas(catalogue, settings, 4096, 'm:1b');

  it('plans one unit per assistant and probe, with stable keys', () => {
    expect(units.map((u) => u.key)).toEqual([
      'plot/probe-0',
      'plot/probe-1',
      'plot/probe-2',
      'style/probe-0',
      'style/probe-1',
      'style/probe-2',
    ]);
    expect(units.every((u) => u.check === 'personas' && u.model === 'm:1b')).toBe(true);
    expect(units.every((u) => u.expectedCalls === 1)).toBe(true);
  });

  it('asks each probe `samples` times, with seeds seed, seed + 1, … and the old key for sample 0', () => {
    const three = planPersonas(
      catalogue,
      personasSettingsSchema.parse({ samples: 3 }),
      4096,
      'm:1b',
    );
    expect(three.slice(0, 4).map((u) => u.key)).toEqual([
      'plot/probe-0',
      'plot/probe-0#1',
      'plot/probe-0#2',
      'plot/probe-1',
    ]);
    expect(three).toHaveLength(18);
    expect(personasSettingsSchema.parse({}).samples).toBe(4);
  });

  it('sends the system prompt and the probe with the collection defaults', async () => {
    const { ctx, sent, emitted } = fakeContext(ok('  An answer, kept *verbatim*.\n'));
    await units[4]?.execute(ctx);
    expect(sent[0]?.request).toEqual({
      model: 'm:1b',
      messages: [
        { role: 'system', content: 'You shape the sentence.' },
        { role: 'user', content: 'second question' },
      ],
      options: { temperature: 0.3, seed: 7, numCtx: 4096, numPredict: 320, think: false },
    });
    expect(sent[0]?.request.format).toBeUndefined();
    const record = emitted[0] as PersonasCallRecord;
    expect(record).toMatchObject({
      check: 'personas',
      model: 'm:1b',
      digest: 'abc',
      key: 'style/probe-1',
      persona: 'style',
      probe: 1,
      status: 'ok',
      text: '  An answer, kept *verbatim*.\n',
      options: { temperature: 0.3, seed: 7, num_ctx: 4096, num_predict: 320, think: false },
      prompt_sha256: sent[0]?.promptSha256,
      prompt_tokens: 12,
      completion_tokens: 34,
    });
    expect(record.prompt_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('records an empty answer as invalid, with the reason', async () => {
    const { ctx, emitted } = fakeContext(
      ok('', { thinking: 'long reasoning', doneReason: 'length' }),
    );
    await units[0]?.execute(ctx);
    expect(emitted[0]).toMatchObject({ status: 'invalid', text: '' });
    expect((emitted[0] as PersonasCallRecord).reason).toMatch(/token budget went to thinking/);
  });

  it('records a timeout with an empty text', async () => {
    const { ctx, emitted } = fakeContext({
      status: 'timeout',
      response: null,
      reason: 'timed out after 30 s, twice',
      attempts: 2,
      latencyMs: 60000,
    });
    await units[0]?.execute(ctx);
    expect(emitted[0]).toMatchObject({ status: 'timeout', text: '', attempts: 2 });
  });

  it('is complete only with a non-error record of the same prompt and options', async () => {
    const unit = units[0];
    const { ctx, emitted } = fakeContext(ok('text'));
    await unit?.execute(ctx);
    const done = emitted[0] as PersonasCallRecord;
    expect(unit?.isComplete([done])).toBe(true);
    expect(unit?.isComplete([{ ...done, status: 'invalid' }])).toBe(true);
    expect(unit?.isComplete([{ ...done, status: 'error' }])).toBe(false);
    expect(unit?.isComplete([{ ...done, prompt_sha256: 'f'.repeat(64) }])).toBe(false);
    expect(unit?.isComplete([{ ...done, options: { ...done.options, temperature: 0 } }])).toBe(
      false,
    );
    expect(unit?.isComplete([])).toBe(false);
  });
});

describe('planPersonas with vectors: embed', () => {
  const embedSettings = personasSettingsSchema.parse({ vectors: 'embed', embedModel: 'embedder' });
  const [unit] = planPersonas(catalogue, embedSettings, 4096, 'm:1b');

  it('stores the embedding with the answer, so the analysis stays a function of the log', async () => {
    const asked: string[][] = [];
    const { ctx, emitted } = fakeContext(ok('some answer'), async (model, texts) => {
      asked.push([model, ...texts]);
      return [[0.6, 0.8]];
    });
    await unit?.execute(ctx);
    expect(asked).toEqual([['embedder', 'some answer']]);
    const record = emitted[0] as PersonasCallRecord;
    expect(record.vector).toEqual([0.6, 0.8]);
    expect(record.embed_model).toBe('embedder');
    expect(unit?.isComplete([record])).toBe(true);
    // an answer without its vector is asked again on resume
    const { vector: _vector, embed_model: _model, ...withoutVector } = record;
    expect(unit?.isComplete([withoutVector])).toBe(false);
  });

  it('keeps the answer when the embedding fails', async () => {
    const { ctx, emitted } = fakeContext(ok('some answer'), async () => {
      throw new Error('no embedding endpoint');
    });
    await unit?.execute(ctx);
    expect(emitted[0]).toMatchObject({ status: 'ok', text: 'some answer' });
    expect((emitted[0] as PersonasCallRecord).vector).toBeUndefined();
  });
});
