/**
 * The demo is the whole job against the simulator: its scenario is built so that every check
 * finds its planted regression. The same report must come back from the sample log alone
 * (`model-gate analyze`). The A/A scenario's pass is checked where a newcomer runs it, from
 * the packed package (test/package/newcomer.test.ts).
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ExitCode } from '../../src/errors.js';
import type { SpeedSection } from '../../src/checks/speed/section.js';
import { scenarioPath } from '../../src/packageRoot.js';
import { loadScenario } from '../../src/simulator/scenario.js';
import { analyseLogs } from '../../src/pipeline/analyse.js';
import { COMMENT_LIMIT, commentBody, commentMarker } from '../../src/github/comment.js';
import { renderSummary } from '../../src/report/summary.js';
import { utf8Size } from '../../src/report/trim.js';
import { rawHtml, tableLinePipes, tables } from '../report/gfm.js';
import { type SharedDemo, sharedDemo } from '../support/sharedDemo.js';

describe('model-gate demo (regression scenario)', () => {
  // The run the page test (test/browser/demoPage.test.ts) reads too, made once.
  let outcome: SharedDemo;
  let dir: string;
  beforeAll(async () => {
    outcome = await sharedDemo();
    dir = outcome.dir;
  }, 200_000);

  it('fails, naming each planted regression', () => {
    expect(outcome.report.verdict.status).toBe('fail');
    expect(outcome.exitCode).toBe(ExitCode.regression);
    const failed = outcome.report.verdict.reasons.filter((r) => r.severity === 'fail');
    const text = failed.map((r) => `${r.check}/${r.rule}: ${r.message}`).join('\n');
    expect(text).toMatch(/churn\/domain-loss: law: accuracy fell \d+(\.\d)? points/);
    expect(text).toMatch(/dragon\/.*ECE/);
    expect(text).toMatch(/personas\/.*merges technique and sourcing/);
    expect(text).toMatch(/speed\/slowdown: decode time per token: the candidate's is ×1\.5 /);
    expect(outcome.report.headline.reversals).toEqual(['law']);
  });

  it("measures the candidate's slowdown within 5% of the scenario's decode rates", () => {
    const [base, cand] = loadScenario(scenarioPath('demo')).models;
    const truth = (base?.timing?.decodeTps ?? 0) / (cand?.timing?.decodeTps ?? 1);
    expect(truth).toBe(1.5);
    const speed = outcome.report.checks.speed as SpeedSection | undefined;
    const decode = speed?.comparison?.decode;
    expect(Math.abs((decode?.ratio ?? 0) / truth - 1)).toBeLessThan(0.05);
    expect(decode?.low).toBeGreaterThan(1.25);
    // Only the decode rate differs: prompt rate and answer length pass.
    const speedRules = outcome.report.verdict.reasons
      .filter((r) => r.check === 'speed' && r.severity === 'fail')
      .map((r) => r.rule);
    expect(speedRules).toEqual(['slowdown']);
  });

  it('counts its calls against a total fixed at the start, which no line passes', () => {
    const counts = outcome.progress.flatMap((line) => {
      const found = /^model-gate: (\d+)(?:\/| of up to )(\d+) calls/.exec(line);
      return found ? [{ done: Number(found[1]), total: Number(found[2]) }] : [];
    });
    expect(counts.length).toBeGreaterThanOrEqual(2);
    expect(counts[0]?.done).toBe(0);
    expect(new Set(counts.map((c) => c.total)).size).toBe(1);
    for (const { done, total } of counts) expect(done).toBeLessThanOrEqual(total);
  });

  it('writes the report, the summary, the charts and the log it names', () => {
    for (const file of [
      outcome.files.report,
      outcome.files.summary,
      ...outcome.files.charts,
      ...outcome.files.logs,
    ]) {
      expect(existsSync(file), file).toBe(true);
    }
    expect(outcome.files.charts.map((c) => path.basename(c))).toEqual(
      expect.arrayContaining([
        'churn-domains.svg',
        'dragon-reliability.svg',
        'personas-confusion-candidate.svg',
      ]),
    );
    expect(outcome.report.run.provider.simulated).toBe(true);
    expect(outcome.report.run.models.candidate?.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('carries every dragon metric and provenance field of the spec for a 10-game series', () => {
    const dragon = outcome.report.checks.dragon;
    expect(dragon?.seeds).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(dragon?.promptSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(dragon?.protocol).toBe('dragon-calibration/1');
    expect(dragon?.walls).toBe(40);
    for (const series of [dragon?.baseline, dragon?.candidate]) {
      expect(series).toBeDefined();
      for (const metric of [
        'meanConfidence',
        'success',
        'gap',
        'brier',
        'decomposition',
        'ece',
        'resolution',
        'distinctConfidences',
        'knownWallRepeatRate',
        'invalidRate',
        'timeoutRate',
        'meanLatencyMs',
        'wins',
        'bins',
      ]) {
        expect(series, metric).toHaveProperty(metric);
      }
      expect(series?.games).toHaveLength(10);
      for (const game of series?.games ?? []) {
        expect(game.fingerprint).toMatch(/^[0-9a-f]{64}$/);
        expect(game).toHaveProperty('cellsVisited');
        expect(game).toHaveProperty('wounds');
      }
    }
    const { run } = outcome.report;
    expect(run.provider.version).toContain('simulated');
    for (const model of [run.models.baseline, run.models.candidate]) {
      expect(model?.quantization).toBe('Q4_K_M');
      expect(model?.parameterSize).toBe('1B');
    }
  });

  it('covers open items: the support desk is graded from the logged answers, and does not move', () => {
    const churn = outcome.report.checks.churn;
    if (churn?.estimator !== 'sampled') throw new Error('sampled churn expected');
    expect(churn.openItems?.items).toBe(12);
    expect(churn.openItems?.graders.map((g) => g.type).sort()).toEqual([
      'contains',
      'exact',
      'json',
      'label',
      'number',
      'regex',
    ]);
    const support = churn.comparison?.domains.find((d) => d.domain === 'support');
    expect(support?.items).toBe(12);
    expect(support?.loss).toBe(false);
    const rows = churn.comparison?.items.filter((r) => r.domain === 'support') ?? [];
    expect(rows.every((r) => r.graderFingerprint?.startsWith('graders/1:'))).toBe(true);
    const answers = readFileSync(outcome.files.logs[0] as string, 'utf8')
      .split('\n')
      .filter((line) => line.includes('"item":"support-09"') && line.includes('"status":"ok"'))
      .map((line) => JSON.parse(line) as { text: string; correct: boolean });
    // The simulated model answers open items in words, kept verbatim: JSON, fenced or not.
    expect(answers.length).toBe(22);
    expect(answers.some((a) => a.correct && a.text.includes('"order":4471'))).toBe(true);
  });

  it('renders a summary whose every table parses with the right column count', () => {
    const summary = readFileSync(outcome.files.summary, 'utf8');
    const parsed = tables(summary);
    expect(parsed.length).toBeGreaterThan(10);
    for (const table of parsed) {
      for (const width of table.rowWidths) expect(width).toBe(table.columns);
    }
    // GFM silently drops extra cells: count the unescaped pipes of every table line too.
    for (const block of tableLinePipes(summary)) {
      const first = block[0];
      for (const pipes of block) expect(pipes).toBe(first);
    }
    expect(
      rawHtml(summary, /^<\/?(details|summary)>|^<details><summary>|^<\/summary>|^<\/details>/),
    ).toEqual([]);
  });

  it('analyze rebuilds the same report from the sample log alone', async () => {
    const loaded = loadConfig({
      checks: CHECKS,
      file: 'fixtures/demo/model-gate.yml',
      env: {},
      overrides: [{ path: ['models', 'candidate'], value: 'demo-cand:1b', source: 'test' }],
    });
    const again = await analyseLogs({
      loaded: { ...loaded, config: outcome.report.run.config },
      logs: outcome.files.logs,
      outDir: path.join(dir, 'again'),
    });
    // Both as written to report.json.
    const rebuilt = JSON.parse(readFileSync(again.files.report, 'utf8')) as typeof outcome.report;
    expect(rebuilt.checks).toEqual(outcome.report.checks);
    expect(rebuilt.verdict).toEqual(outcome.report.verdict);
  });

  it('a 2,400-item summary fits a comment uncut, every section and verdict line kept', () => {
    const report = structuredClone(outcome.report);
    const churn = report.checks.churn as unknown as {
      comparison: { items: { id: string; fisherBh: string; rciClass: string }[] };
    };
    const template = churn.comparison.items.find((r) => r.fisherBh === 'deteriorated');
    expect(template).toBeDefined();
    churn.comparison.items = Array.from({ length: 2400 }, (_, i) => ({
      ...template!,
      id: `longitem${String(i).padStart(4, '0')}identifier`,
    }));
    const markdown = renderSummary(report);
    // The item lists are report.html's: the summary keeps the top deteriorations only.
    expect(utf8Size(markdown)).toBeLessThan(COMMENT_LIMIT);
    const body = commentBody(commentMarker('default'), markdown, 'Cut to fit: see the run.');
    expect(body).not.toContain('Cut to fit');
    expect(body).toContain('Measurement provenance');
    for (const reason of report.verdict.reasons) expect(body).toContain(`\`${reason.rule}\``);
    expect(body).toContain('longitem0000identifier');
    expect(body).not.toContain('longitem2399identifier');
    expect((body.match(/<details>/g) ?? []).length).toBe((body.match(/<\/details>/g) ?? []).length);
  });
});
