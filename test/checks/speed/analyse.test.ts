import { describe, expect, it } from 'vitest';
import { type BuiltInConfig, CHECKS } from '../../../src/checks/builtIn.js';
import { foldRecords } from '../../../src/checks/fold.js';
import { speedCheck } from '../../../src/checks/speed/index.js';
import { SPEED_PROMPTS } from '../../../src/checks/speed/plan.js';
import type { SpeedSection } from '../../../src/checks/speed/section.js';
import type { CheckContext, GateFinding } from '../../../src/checks/types.js';
import { configSchema } from '../../../src/config/schema.js';
import type { SampleRecord } from '../../../src/sampleLog/index.js';
import { createRng } from '../../../src/stats/prng.js';
import { SPEED_MODELS, type SpeedTruth, speedLog } from '../../../bench/oc/speedGenerator.js';

function context(speed: object = {}, checks = ['speed']): CheckContext<BuiltInConfig> {
  const config = configSchema(CHECKS).parse({ models: SPEED_MODELS, checks, speed });
  return { config, baseDir: process.cwd(), models: { ...SPEED_MODELS } };
}

function analyse(
  records: readonly SampleRecord[],
  ctx = context(),
): { section: SpeedSection; findings: GateFinding[] } {
  const section = foldRecords(speedCheck.fold, records, SPEED_PROMPTS, ctx);
  return { section, findings: speedCheck.gate(section, ctx) };
}

const failed = (findings: readonly GateFinding[]) =>
  findings.filter((f) => f.severity === 'fail').map((f) => f.rule);

const truth = (overrides: Partial<SpeedTruth>): SpeedTruth => ({
  items: 50,
  samples: 4,
  sigma: 0.25,
  ...overrides,
});

describe('speed: paired ratios and gate', () => {
  it('fails a 1.5× slower decode with the ratio within 5% of the truth', () => {
    const { section, findings } = analyse(speedLog(truth({ decodeRatio: 1.5 }), createRng(1)));
    expect(failed(findings)).toEqual(['slowdown']);
    const decode = section.comparison?.decode;
    expect(decode?.ratio).toBeGreaterThan(1.5 * 0.95);
    expect(decode?.ratio).toBeLessThan(1.5 * 1.05);
    expect(decode?.low).toBeGreaterThan(1.25);
  });

  it('passes two identical models and reports rates near the truth (50 tokens/s)', () => {
    const { section, findings } = analyse(speedLog(truth({}), createRng(2)));
    expect(failed(findings)).toEqual([]);
    const [base, cand] = section.models;
    expect(base?.decodeTokensPerSecond.median).toBeGreaterThan(45);
    expect(base?.decodeTokensPerSecond.median).toBeLessThan(55);
    expect(cand?.timed).toBe(200);
    expect(section.comparison?.decode?.low).toBeLessThan(1);
    expect(section.comparison?.decode?.high).toBeGreaterThan(1);
  });

  it('fails doubled answers on verbosity, and a prompt slowed 2× on prompt-slowdown', () => {
    expect(failed(analyse(speedLog(truth({ lengthRatio: 2 }), createRng(3))).findings)).toEqual([
      'verbosity',
    ]);
    expect(failed(analyse(speedLog(truth({ promptRatio: 2 }), createRng(4))).findings)).toEqual([
      'prompt-slowdown',
    ]);
  });

  it('does not fail identical models on a server slowing down 30% over the run (max-slowdown 0.10)', () => {
    const ctx = context({ gate: { maxSlowdown: 0.1 } });
    // In the runner's four blocks, and even one model after the other (one block), where the
    // candidate looks about 14% slower as measured: the fitted trend takes that out.
    for (const blocks of [4, 1]) {
      const records = speedLog(truth({ drift: 1.3, blocks }), createRng(5));
      const { section, findings } = analyse(records, ctx);
      expect(failed(findings)).toEqual([]);
      const drift = section.comparison?.decodeDrift;
      expect(drift?.method).toBe('trend');
      expect(Math.exp(drift?.slope ?? 0)).toBeGreaterThan(1.15);
      expect(Math.exp(drift?.slope ?? 0)).toBeLessThan(1.45);
      expect(drift?.separation).toBeCloseTo(blocks === 1 ? 0.5 : 0.125, 2);
    }
  });

  it('still catches a 1.5× slowdown under the same drift', () => {
    const records = speedLog(truth({ drift: 1.3, decodeRatio: 1.5 }), createRng(6));
    expect(failed(analyse(records).findings)).toEqual(['slowdown']);
  });

  it('says "no timings in this log" for a log without them, and fails nothing', () => {
    const records = speedLog(truth({ lengthRatio: 1 }), createRng(7)).map((r) => {
      const { timings: _, ...rest } = r as SampleRecord & { timings?: unknown };
      return rest as SampleRecord;
    });
    const { section, findings } = analyse(records);
    expect(section.notice).toMatch(/^no timings in this log/);
    expect(section.untimed).toBe(400);
    expect(section.comparison?.decode).toBeNull();
    // Token counts are still in the log: answer lengths compare.
    expect(section.comparison?.verbosity?.items).toBe(50);
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['slowdown', 'info']]);
  });

  it('leaves out and counts impossible timings', () => {
    const records = speedLog(truth({}), createRng(8));
    const hostile = [
      { eval_count: 10, eval_duration: 1 },
      { eval_count: 10, eval_duration: 9e15 },
      { eval_count: 10, eval_duration: 500, total_duration: 100 },
      { eval_count: 1e9, eval_duration: 1e12 },
    ];
    hostile.forEach((timings, i) => {
      Object.assign(records[i] as object, { timings });
    });
    const { section, findings } = analyse(records);
    expect(section.excluded).toBe(4);
    expect(section.models[0]?.timed).toBe(196);
    expect(findings.some((f) => f.severity === 'info' && f.values?.excluded === 4)).toBe(true);
  });

  it('fails a candidate partly in system memory (offload) and one above max-vram-mib (vram)', () => {
    const GIB = 2 ** 30;
    const records = speedLog(truth({}), createRng(10)).map((r) => ({
      ...r,
      residency:
        r.model === SPEED_MODELS.baseline
          ? { size: 4 * GIB, size_vram: 4 * GIB }
          : { size: 10 * GIB, size_vram: 6 * GIB },
    })) as SampleRecord[];
    const { section, findings } = analyse(records, context({ gate: { maxVramMib: 5000 } }));
    expect(section.models.map((m) => m.residency)).toEqual([
      { vramMib: 4096, offloadedShare: 0, readings: 1 },
      { vramMib: 6144, offloadedShare: 0.4, readings: 1 },
    ]);
    expect(failed(findings)).toEqual(['offload', 'vram']);
    const warned = analyse(records, context({ gate: { offload: 'warn' } })).findings;
    expect(warned.filter((f) => f.rule === 'offload').map((f) => f.severity)).toEqual(['warn']);
    expect(failed(analyse(records, context({ gate: { offload: 'off' } })).findings)).toEqual([]);
  });

  it('has no comparison in a single-model run', () => {
    const records = speedLog(truth({}), createRng(9)).filter(
      (r) => r.model === SPEED_MODELS.baseline,
    );
    const ctx = context();
    ctx.models = { baseline: SPEED_MODELS.baseline, candidate: null };
    const { section } = analyse(records, ctx);
    expect(section.comparison).toBeNull();
    expect(section.models.map((m) => m.model)).toEqual([SPEED_MODELS.baseline]);
  });
});

describe('speed: config and plan', () => {
  it('is not in the default checks, and plans only when it runs alone', () => {
    const config = configSchema(CHECKS).parse({ models: SPEED_MODELS });
    expect(config.checks).toEqual(['churn', 'dragon', 'personas']);
    expect(speedCheck.plan(SPEED_PROMPTS, context({}, ['churn', 'speed']), 'base:1b')).toEqual([]);
    const alone = speedCheck.plan(SPEED_PROMPTS, context(), 'base:1b');
    expect(alone).toHaveLength(SPEED_PROMPTS.length * 15);
    expect(new Set(alone.map((u) => u.key)).size).toBe(alone.length);
  });

  it('reads its limits in kebab-case and refuses a negative one', () => {
    expect(() => context({ gate: { maxSlowdown: -0.1 } })).toThrow();
    expect(context({ gate: { maxSlowdown: 0.1 } }).config.speed.gate.maxSlowdown).toBe(0.1);
  });
});
