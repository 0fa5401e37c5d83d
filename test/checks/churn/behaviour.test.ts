import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { churnCheck } from '../../../src/checks/churn/index.js';
import type { CheckContext } from '../../../src/checks/types.js';
import { CHECKS, type BuiltInConfig } from '../../../src/checks/builtIn.js';
import { configSchema } from '../../../src/config/schema.js';
import type { SampleRecord } from '../../../src/sampleLog/index.js';
import type { UnitContext } from '../../../src/checks/workUnit.js';
import type { SimulatedChat } from '../../../src/simulator/behaviour.js';
import {
  churnBehaviour,
  latentAccuracy,
  parseChurnParams,
} from '../../../src/simulator/behaviours/churn.js';
import { behaviours } from '../../../src/simulator/behaviours/index.js';
import { foldRecords } from '../../../src/checks/fold.js';

describe('latentAccuracy', () => {
  it('follows the logit formula of the block', () => {
    // spread 0: logit(p) = logit(0.6) + shifts. logit(0.6) = ln 1.5; law −1 and item +0.5:
    // p = 1/(1 + exp(−(ln 1.5 − 0.5))) = 1/(1 + e^0.5/1.5) = 0.476362…
    const params = parseChurnParams({
      accuracy: 0.6,
      spread: 0,
      domains: { law: -1 },
      'item-shifts': { x: 0.5 },
    });
    const p = latentAccuracy(params, { id: 'x', domain: 'law' });
    expect(p).toBeCloseTo(1 / (1 + Math.exp(0.5) / 1.5), 12);
    expect(latentAccuracy(params, { id: 'y', domain: 'physics' })).toBeCloseTo(0.6, 12);
  });

  it('gives the same item difficulties to models sharing a difficulty seed', () => {
    const a = parseChurnParams({ 'difficulty-seed': 3 });
    const b = parseChurnParams({ 'difficulty-seed': 3, accuracy: 0.7 });
    const items = Array.from({ length: 20 }, (_, i) => ({ id: `i${i}`, domain: 'd' }));
    const pa = items.map((item) => latentAccuracy(a, item));
    const pb = items.map((item) => latentAccuracy(b, item));
    // The same z per item: the order of difficulty is the same.
    const rank = (values: number[]) => values.map((v) => values.filter((w) => w < v).length);
    expect(rank(pa)).toEqual(rank(pb));
  });

  it('rejects a wrong block with the field named', () => {
    expect(() => parseChurnParams({ accuracy: 1.2 })).toThrow(
      'churn.accuracy: expected a probability strictly between 0 and 1, got 1.2',
    );
    expect(() => parseChurnParams({ acuracy: 0.5 })).toThrow(/^churn.acuracy: unknown field/);
    expect(() => parseChurnParams({ domains: { law: 'low' } })).toThrow(
      'churn.domains.law: expected a number (logit shift), got "low"',
    );
  });

  it('is registered with the simulator', () => {
    expect(behaviours).toContain(churnBehaviour);
  });
});

function chatOf(
  model: string,
  request: {
    messages: { role: string; content: string }[];
    options: { temperature: number; seed: number };
  },
): SimulatedChat {
  return {
    model,
    system: request.messages.find((m) => m.role === 'system')?.content ?? null,
    user: request.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '',
    format: null,
    temperature: request.options.temperature,
    seed: request.options.seed,
  };
}

/** Plans, "runs" against the behaviour and analyses, as the runner and the CLI would. */
async function runScenario(file: string) {
  const scenario = parse(readFileSync(file, 'utf8')) as {
    models: { name: string; churn: unknown }[];
  };
  const [base, cand] = scenario.models as [
    { name: string; churn: unknown },
    { name: string; churn: unknown },
  ];
  const config = configSchema(CHECKS).parse({
    models: { baseline: base.name, candidate: cand.name },
    checks: ['churn'],
    churn: { samples: 10 },
  });
  const ctx: CheckContext<BuiltInConfig> = {
    config,
    baseDir: process.cwd(),
    models: { baseline: base.name, candidate: cand.name },
  };
  const definitions = await churnCheck.load(ctx);
  const records: SampleRecord[] = [];
  for (const model of [base, cand]) {
    for (const unit of churnCheck.plan(definitions, ctx, model.name)) {
      const unitCtx: UnitContext = {
        prior: [],
        digest: null,
        signal: new AbortController().signal,
        async call(spec) {
          const content =
            churnBehaviour.answer(chatOf(model.name, spec.request), model.churn) ?? '';
          return {
            status: 'ok',
            response: {
              content,
              thinking: null,
              doneReason: 'stop',
              promptTokens: null,
              completionTokens: null,
              latencyMs: 1,
            },
            attempts: 1,
            latencyMs: 1,
          };
        },
        async emit(record) {
          records.push(record);
        },
      };
      await unit.execute(unitCtx);
    }
  }
  const section = foldRecords(churnCheck.fold, records, definitions, ctx);
  if (section.estimator === 'logprobs') throw new Error('sampled section expected');
  return { section, findings: churnCheck.gate(section, ctx), records, definitions, ctx };
}

describe('simulated scenarios through the real prompt and the fixture items', () => {
  it('demo: the candidate gains overall, loses law, and the gate fails on the reversal', async () => {
    const { section, findings, records } = await runScenario('fixtures/simulator/churn-demo.yml');
    expect(records).toHaveLength(2 * 63 * 11);
    expect(section.comparison?.delta.mean).toBeGreaterThan(0);
    const loss = findings.filter((f) => f.rule === 'domain-loss');
    expect(loss.map((f) => [f.values?.domain, f.severity])).toEqual([['law', 'fail']]);
    expect(loss[0]?.message).toMatch(/^law: accuracy fell \d+(\.\d)? points \(net loss over/);
    expect(section.comparison?.reversals).toEqual(
      section.comparison?.domainTest.overall.direction === 'up' ? ['law'] : [],
    );
  });

  it('A/A: nothing flagged by method B, no gate rule fails', async () => {
    const { section, findings } = await runScenario('fixtures/simulator/churn-aa.yml');
    expect(section.comparison?.fisherBh.improved).toBe(0);
    expect(section.comparison?.fisherBh.deteriorated).toBe(0);
    expect(section.comparison?.reversals).toEqual([]);
    // The aggregate-Δ warning is a 95% interval: between identical models it may still fire
    // one time in twenty, so only failures are ruled out here.
    expect(findings.filter((f) => f.severity === 'fail' || f.severity === 'inconclusive')).toEqual(
      [],
    );
  });

  it('reproduces the same section from the log alone, after a JSON round trip', async () => {
    const { section, records, definitions, ctx } = await runScenario(
      'fixtures/simulator/churn-aa.yml',
    );
    const fromLog = JSON.parse(JSON.stringify(records)) as SampleRecord[];
    const again = foldRecords(churnCheck.fold, [...fromLog].reverse(), definitions, ctx);
    expect(JSON.parse(JSON.stringify(again))).toEqual(JSON.parse(JSON.stringify(section)));
  });
});
