/**
 * An exact-estimator series end to end: plan, runner and the Ollama client against the
 * simulator (the churn demo pair: the candidate gains in four domains and loses law), then
 * the analysis, the gate and the summary. Each simulated item's p(correct) is known from its
 * latent logit, so the Δp of all 63 items is checked against values computed here.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { churnCheck } from '../../../../src/checks/churn/index.js';
import type { ChurnItem } from '../../../../src/checks/churn/items.js';
import type { CheckContext } from '../../../../src/checks/types.js';
import { CHECKS, type BuiltInConfig } from '../../../../src/checks/builtIn.js';
import { configSchema } from '../../../../src/config/schema.js';
import { OllamaProvider } from '../../../../src/providers/ollama.js';
import { renderChurnSection } from '../../../../src/checks/churn/report/markdown.js';
import { runPlan } from '../../../../src/runner/run.js';
import { latentLogit, parseChurnParams } from '../../../../src/simulator/behaviours/churn.js';
import { parseScenario } from '../../../../src/simulator/scenario.js';
import { type RunningSimulator, startSimulator } from '../../../../src/simulator/server.js';
import { foldRecords } from '../../../../src/checks/fold.js';

const DEMO = 'fixtures/simulator/churn-demo.yml';
// At 1 the estimator reads the simulated p itself, the quantity the demo's shifts were chosen
// for (at 0.7 the sharper probabilities of the easy items make law's losses outweigh the
// gains elsewhere, and there is no reversal left to find).
const T = 1;
const MIN_EFFECT = 0.2;

/**
 * The simulated model puts p on the correct letter and (1 − p)/3 on each of the three others
 * at temperature 1; at temperature T each is raised to 1/T and renormalised.
 */
function pAtTemperature(logit: number): number {
  const p = 1 / (1 + Math.exp(-logit));
  const right = p ** (1 / T);
  const wrong = ((1 - p) / 3) ** (1 / T);
  return right / (right + 3 * wrong);
}

let simulator: RunningSimulator;
let dir: string;

beforeAll(async () => {
  // Token logprobs exist from Ollama 0.12.11 on; the demo file leaves the version default.
  const yaml = `version: 0.12.11-simulated\nparallel: 4\n${readFileSync(DEMO, 'utf8')}`;
  simulator = await startSimulator({ scenario: parseScenario(yaml, DEMO) });
  dir = mkdtempSync(path.join(tmpdir(), 'churn-exact-series-'));
});

afterAll(async () => {
  await simulator?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('exact series over the simulator', () => {
  it('finds the known Δp of every item, names the law reversal, and resumes', async () => {
    const demo = parse(readFileSync(DEMO, 'utf8')) as {
      models: { name: string; churn: unknown }[];
    };
    const [base, cand] = demo.models as [
      { name: string; churn: unknown },
      { name: string; churn: unknown },
    ];
    const config = configSchema(CHECKS).parse({
      models: { baseline: base.name, candidate: cand.name },
      provider: { kind: 'ollama', host: simulator.url },
      checks: ['churn'],
      churn: { estimator: 'logprobs', temperature: T, minEffect: MIN_EFFECT },
    });
    const ctx: CheckContext<BuiltInConfig> = {
      config,
      baseDir: process.cwd(),
      models: { baseline: base.name, candidate: cand.name },
    };
    const definitions = await churnCheck.load(ctx);
    const models = [base.name, cand.name];
    const units = models.flatMap((model) => churnCheck.plan(definitions, ctx, model));
    expect(units).toHaveLength(2 * 63);
    const provider = new OllamaProvider({ host: simulator.url, timeoutMs: 5000, keepAlive: '1m' });
    const logPath = path.join(dir, 'samples.jsonl');
    const run = () =>
      runPlan({ provider, units, models, logPath, concurrency: 4, warmup: false, numCtx: 4096 });

    const first = await run();
    expect(first.calls).toBe(126);
    const section = foldRecords(churnCheck.fold, first.records, definitions, ctx);
    if (section.estimator !== 'logprobs') throw new Error('exact section expected');
    const comparison = section.comparison;
    if (!comparison) throw new Error('comparison expected');

    const baseParams = parseChurnParams(base.churn);
    const candParams = parseChurnParams(cand.churn);
    const known = definitions.items.map((item: ChurnItem) => {
      const delta =
        pAtTemperature(latentLogit(candParams, item)) -
        pAtTemperature(latentLogit(baseParams, item));
      return { id: item.id, domain: item.domain, delta };
    });
    // No item sits within rounding of the threshold, so the expected classes are unambiguous.
    expect(known.every((k) => Math.abs(Math.abs(k.delta) - MIN_EFFECT) > 1e-6)).toBe(true);
    for (const [i, row] of comparison.items.entries()) {
      const truth = known[i] as (typeof known)[number];
      expect(row.id).toBe(truth.id);
      expect(row.delta).toBeCloseTo(truth.delta, 9);
      const expected =
        truth.delta >= MIN_EFFECT
          ? 'improved'
          : truth.delta <= -MIN_EFFECT
            ? 'deteriorated'
            : 'unchanged';
      expect(row.effect).toBe(expected);
    }
    const lawLosses = known.filter((k) => k.domain === 'law' && k.delta <= -MIN_EFFECT).length;
    expect(lawLosses).toBeGreaterThanOrEqual(3);
    expect(comparison.effect.deteriorated).toBe(lawLosses);
    expect(comparison.delta.mean).toBeGreaterThan(0);
    // A reversal needs the overall rise to be significant (its interval above 0).
    expect(comparison.reversals).toEqual(comparison.overallDirection === 'up' ? ['law'] : []);
    expect(section.baseline.sources).toEqual(['ollama-logprobs']);

    const findings = churnCheck.gate(section, ctx);
    expect(findings.find((f) => f.rule === 'domain-loss')).toMatchObject({
      severity: 'fail',
      message: expect.stringMatching(
        new RegExp(
          `^law: accuracy fell [0-9.]+ points \\(mean of p\\(correct\\) over \\d+ items, no sampling noise; ${lawLosses} items lost and 0 gained at least 20 points\\), at or above the limit of 5 points`,
        ),
      ),
    });
    expect(renderChurnSection(section)).toContain('**Domains that lost accuracy:** law');

    const again = await run();
    expect(again.units).toMatchObject({ planned: 126, skipped: 126, executed: 0 });
    expect(again.calls).toBe(0);
  });
});
