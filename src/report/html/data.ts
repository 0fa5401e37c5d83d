/**
 * report.html's data, from report.json and the checks' parts (each check's `page`, built
 * from its section, definitions and records). Pure. Every text in it passes through
 * `neutraliseLines` last: a control or bidi character from a model answer or a user file
 * reaches the page as a visible \uXXXX, never as a character a browser acts on.
 */
import { CHECKS } from '../../checks/builtIn.js';
import { type CheckList, nightlyColumns, sectionOf } from '../../checks/list.js';
import type { CheckPage } from '../../checks/types.js';
import { trendCharts, trendSentences } from '../../history/trend.js';
import { gpuChart, parseGpuCsv } from '../../operations/gpuChart.js';
import type { Chart } from '../../render/svg.js';
import { neutraliseLines } from '../../text/neutralise.js';
import { num } from '../../text/format.js';
import { chartsOf } from '../charts.js';
import { checkSettings, isSimulated, sectionMarkdown } from '../summary.js';
import type { Report } from '../types.js';
import type { PageChart } from '../../render/page/types.js';
import { PAGE_FORMAT, type PageCheck, type PageData } from './pageTypes.js';

/** What the page shows besides report.json. */
export interface PageEvidence {
  /** The checks' parts (`Check.page`); a check without one shows its summary section. */
  parts: readonly CheckPage[];
  /** gpu.csv of the run, when the GPU was sampled. */
  gpuCsv: string | null;
}

export const NO_EVIDENCE: PageEvidence = { parts: [], gpuCsv: null };

function chartUri(chart: Chart): string {
  return `data:image/svg+xml;base64,${Buffer.from(chart.svg, 'utf8').toString('base64')}`;
}

function pageCharts(report: Report, gpuCsv: string | null, checks: CheckList): PageChart[] {
  const trends = report.history ? trendCharts(report.history, checks).flatMap((t) => t.draw()) : [];
  const trendFiles = new Set(trends.map((chart) => chart.file));
  const charts: PageChart[] = chartsOf(report, checks)
    .charts.filter((chart) => !trendFiles.has(chart.file))
    .map((chart) => ({ part: chart.check, title: chart.title, uri: chartUri(chart) }));
  for (const trend of trends)
    charts.push({ part: 'history', title: trend.title, uri: chartUri(trend) });
  const gpu = gpuCsv ? gpuChart(parseGpuCsv(gpuCsv)) : null;
  if (gpu) charts.push({ part: 'runner', title: gpu.title, uri: chartUri(gpu) });
  return charts;
}

/** Each check of the report: its own part, or its summary section as text. */
function pageChecks(report: Report, parts: readonly CheckPage[], checks: CheckList): PageCheck[] {
  const out: PageCheck[] = [];
  for (const check of checks) {
    const section = sectionOf(report.checks, check.name);
    if (!section) continue;
    const part = parts.find((p) => p.check === check.name);
    if (part) {
      out.push(part as PageCheck);
      continue;
    }
    out.push({ check: check.name, markdown: sectionMarkdown(check, section, (text) => text) });
  }
  return out;
}

function runnerPart(report: Report): PageData['runner'] {
  const ops = report.run.operations;
  if (!ops) return null;
  const gpu = new Map(ops.gpu.series.map((g) => [g.model, g]));
  const rows = ops.series.map((s) => {
    const g = gpu.get(s.model);
    return [
      s.model,
      s.othersLoaded === null ? 'unknown' : s.othersLoaded.join(', ') || 'none',
      s.contextLength === null ? '–' : String(s.contextLength),
      g ? String(g.samples) : '–',
      g?.peakMemoryMiB != null ? `${num(g.peakMemoryMiB / 1024, 1)} GiB` : '–',
      g?.meanUtilization != null ? `${Math.round(g.meanUtilization)}%` : '–',
      g ? g.foreign.join(', ') || 'none' : '–',
    ];
  });
  return {
    series: {
      columns: [
        'series',
        'other models loaded before',
        'context',
        'GPU samples',
        'peak GPU memory',
        'mean GPU use',
        'other GPU processes',
      ],
      rows,
    },
    notes: [ops.gpu.note, `Parallel requests: ${ops.concurrency} (runner.concurrency).`],
  };
}

function historyPart(report: Report, checks: CheckList): PageData['history'] {
  const history = report.history;
  if (!history) return null;
  const columns = nightlyColumns(checks);
  return {
    model: history.model,
    nights: {
      columns: ['night', 'commit', 'digest', ...columns.map((c) => c.header), 'verdict'],
      rows: history.nights.map((n) => [
        n.date.slice(0, 10),
        n.commit ? n.commit.slice(0, 7) : '–',
        `${n.digest ? n.digest.slice(0, 12) : '–'}${n.rePulled ? ' (model re-pulled)' : ''}`,
        ...columns.map((c) => c.cell(n)),
        n.verdict,
      ]),
    },
    drift: trendSentences(history, checks),
  };
}

function provenance(report: Report, checks: CheckList): PageData['provenance'] {
  const { run } = report;
  const rows: string[][] = [
    [
      'server',
      `${run.provider.provider} at ${run.provider.host}, version ${run.provider.version ?? 'unknown'}${run.provider.simulated ? ' (simulated)' : ''}`,
    ],
  ];
  for (const role of ['baseline', 'candidate'] as const) {
    const m = run.models[role];
    if (m)
      rows.push([
        role,
        `${m.model} · digest ${m.digest ?? 'unknown'} · ${m.quantization ?? 'quantization unknown'} · ${m.parameterSize ?? 'size unknown'}`,
      ]);
  }
  rows.push(...checkSettings(run.config, checks));
  rows.push(
    ['tool', `${report.tool.name} ${report.tool.version}`],
    ['report created', report.createdAt],
  );
  if (run.logs.length > 0) rows.push(['sample logs', run.logs.join(', ')]);
  return { rows, warnings: run.warnings };
}

/** Every string of a JSON value (keys included) through `neutraliseLines`. */
function neutralised<T>(value: T): T {
  if (typeof value === 'string') return neutraliseLines(value) as T;
  if (Array.isArray(value)) return value.map((item) => neutralised(item)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[neutraliseLines(key)] = neutralised(item);
    return out as T;
  }
  return value;
}

export function pageData(
  report: Report,
  evidence: PageEvidence = NO_EVIDENCE,
  checks: CheckList = CHECKS,
): PageData {
  const { verdict, run } = report;
  const finding = (f: Report['verdict']['reasons'][number]) => ({
    check: f.check,
    rule: f.rule,
    severity: f.severity,
    message: f.message,
  });
  const data: PageData = {
    format: PAGE_FORMAT,
    tool: `${report.tool.name} ${report.tool.version}`,
    createdAt: report.createdAt,
    models: {
      baseline: run.models.baseline?.model ?? null,
      candidate: run.models.candidate?.model ?? null,
    },
    simulated: isSimulated(run),
    verdict: {
      status: verdict.status,
      reasons: verdict.reasons.map(finding),
      suppressed: verdict.suppressed.map(finding),
      rules: (verdict.rules ?? []).map((r) => ({
        check: r.check,
        rule: r.rule,
        outcome: r.outcome,
        tests: r.tests,
        falseAlarmRate: r.falseAlarmRate,
        falseAlarmBasis: r.falseAlarmBasis,
        detects: r.detects,
      })),
    },
    missing: run.coverage?.missing ?? null,
    charts: pageCharts(report, evidence.gpuCsv, checks),
    checks: pageChecks(report, evidence.parts, checks),
    runner: runnerPart(report),
    history: historyPart(report, checks),
    provenance: provenance(report, checks),
  };
  return neutralised(data);
}
