/**
 * summary.md, rendered from report.json alone: the verdict and its reasons first, then one
 * section per check (each check renders its own), then the charts and, collapsed, the
 * provenance of the measurement.
 */
import { CHECKS } from '../checks/builtIn.js';
import { type CheckList, sectionOf } from '../checks/list.js';
import type {
  AnyCheck,
  EvaluatedGateRule,
  GateFinding,
  RuleOutcome,
  Severity,
  VerdictStatus,
} from '../checks/types.js';
import { renderHistorySection } from '../history/render.js';
import { renderOperations } from '../operations/render.js';
import type { ModelMetadata } from '../providers/types.js';
import {
  codeSpan,
  details,
  escapeText,
  escapeTextWithCode,
  link,
  relativeLink,
  table,
} from '../render/markdown.js';
import { errorMessage, percent, plural } from '../text/format.js';
import { neutralise, neutraliseLines } from '../text/neutralise.js';
import { chartsOf, type ReportChart } from './charts.js';
import { fitMarkdown, SUMMARY_LIMIT } from './fit.js';
import { trimMarkdown } from './trim.js';
import type { Report } from './types.js';

export interface SummaryOptions {
  /** The checks whose sections the report holds (default: the built-in ones). */
  checks?: CheckList;
  /**
   * Where a reader finds the chart files. Absent: relative links (summary.md sits beside the
   * charts). A URL (the workflow run, whose artifact holds them): every chart links there.
   */
  chartsUrl?: string;
  /** The commit measured (the pull request's head in a pull_request event). */
  commit?: string | null;
  /** The workflow run that measured it. */
  runUrl?: string | null;
  /**
   * Where report.html is. Absent: beside this summary (a relative link). A URL: the artifact
   * that holds it (the artifact's own link once uploaded, else the run whose artifacts list it).
   */
  pageUrl?: string;
  /**
   * Most UTF-8 bytes the summary may take (default SUMMARY_LIMIT, GitHub's 1 MiB job-summary
   * limit): long lists are cut to fit, each check's section kept (fit.ts).
   */
  limit?: number;
}

/** A server version or a digest longer than this is not one: shown cut. */
const VERSION_LIMIT = 100;

const STATUS_ICON: Record<VerdictStatus, string> = {
  pass: '✅',
  warn: '⚠️',
  fail: '❌',
  inconclusive: '❔',
};

const SEVERITY_LABEL: Record<Severity, string> = {
  fail: '❌ fail',
  inconclusive: '❔ inconclusive',
  warn: '⚠️ warn',
  info: 'ℹ️ info',
};

export function renderSummary(report: Report, options: SummaryOptions = {}): string {
  const checks = options.checks ?? CHECKS;
  const blocks = [
    verdictBlock(report, options),
    ...allFindings(report),
    ...gateRules(report.verdict.rules ?? []),
    ...simulatedNotice(report),
    ...atAGlance(report, checks),
    ...glanceCharts(report, checks),
    ...checkSections(report, checks, pagePointer(options)),
    ...(report.run.operations ? [renderOperations(report.run.operations)] : []),
    ...(report.history ? [renderHistorySection(report.history, checks)] : []),
    ...chartList(chartsOf(report, checks).charts, options),
    provenance(report, checks),
  ];
  // A last pass over the whole page: a control or bidi character that reached a block raw
  // (a message quoting a server) is shown escaped, never acted on.
  const text = neutraliseLines(`${blocks.join('\n\n')}\n`);
  const limit = options.limit ?? SUMMARY_LIMIT;
  const fitted = fitMarkdown(text, limit, pagePointer(options));
  // Only when not even the first rows of every list fit (a limit far below any suite's
  // summary): the sections that do not fit are cut, and the page says so.
  return trimMarkdown(fitted, limit, CUT_NOTICE);
}

const CUT_NOTICE =
  'This summary was cut to fit its size limit: report.html and report.json hold every section.';

/** Where a cut list's other rows are: report.html, beside the summary or in the artifact. */
function pagePointer(options: SummaryOptions): string {
  return options.pageUrl === undefined
    ? relativeLink('report.html', 'report.html')
    : `report.html in the ${link('artifact of this run', options.pageUrl)}`;
}

function modelsLine(report: Report): string {
  const { baseline, candidate } = report.run.models;
  const name = (m: ModelMetadata | null) => (m ? codeSpan(m.model) : '–');
  if (!candidate) return `Model ${name(baseline)} (single-model run)`;
  return `Baseline ${name(baseline)} → candidate ${name(candidate)}`;
}

/** "Commit `1a2b3c4` · [workflow run](url)": which code and which run the verdict is about. */
export function whereLine(options: Pick<SummaryOptions, 'commit' | 'runUrl'>): string | null {
  const parts: string[] = [];
  if (options.commit) parts.push(`Commit ${codeSpan(options.commit.slice(0, 12))}`);
  if (options.runUrl) parts.push(link('workflow run', options.runUrl));
  return parts.length > 0 ? parts.join(' · ') : null;
}

/** Where the page with every item, game and assistant behind the verdict is. */
function pageLine(options: SummaryOptions): string {
  const how =
    options.pageUrl === undefined
      ? `beside this summary (open it in a browser, or run ${codeSpan('model-gate view')})`
      : '(download, unzip, open it in a browser)';
  return `Every item, game and assistant behind this verdict: ${pagePointer(options)} ${how}.`;
}

/** The heading: the verdict, or for one shard's slice, that the shard was measured. */
function heading(report: Report): string {
  const { status } = report.verdict;
  const shard = report.run.coverage?.shard;
  if (shard && status !== 'inconclusive') {
    return `## 🧩 model-gate: shard ${escapeText(shard)} measured\n\nThis slice of the plan alone reads **${status}**; it is not the gate's verdict: \`model-gate analyze\` over every shard's log decides.`;
  }
  const of = shard ? ` (shard ${escapeText(shard)})` : '';
  return `## ${STATUS_ICON[status]} model-gate verdict: ${status}${of}`;
}

/** The most lines of the first screen: what a reviewer reads without scrolling or opening. */
export const FIRST_SCREEN_LINES = 15;
/** The widest line of the first screen. */
export const FIRST_SCREEN_WIDTH = 200;

/**
 * The first screen: the verdict, one short line per failing, inconclusive or warning finding,
 * and where the evidence is. Every finding in full, and everything else, follows collapsed.
 */
function verdictBlock(report: Report, options: SummaryOptions): string {
  const { reasons } = report.verdict;
  const count = (severity: Severity) => reasons.filter((r) => r.severity === severity).length;
  const counts = [
    // One rule can fail several times (once per assistant, per domain): count findings.
    countOf(count('fail'), 'failure', 'failures'),
    // Two inconclusive findings of one check (timeouts and invalid answers) are one check.
    countOf(
      new Set(reasons.filter((r) => r.severity === 'inconclusive').map((r) => r.check)).size,
      'check could not be measured',
      'checks could not be measured',
    ),
    countOf(count('warn'), 'warning', 'warnings'),
  ].filter((part) => part !== '');
  const head = [heading(report)];
  const missing = report.run.coverage?.missing;
  if (missing) head.push('', `**${escapeText(shortLine(missing))}**`);
  const where = whereLine(options);
  head.push(
    '',
    `${where ? `${where} · ` : ''}${modelsLine(report)}${counts.length > 0 ? ` · ${counts.join(', ')}` : ' · every gate rule passed'}`,
  );
  const tail = ['', pageLine(options)];
  const shown = reasons.filter((r) => r.severity !== 'info');
  // The lines left for findings once the head, a blank line and the tail are counted.
  const room = FIRST_SCREEN_LINES - head.length - 1 - tail.length;
  const tags = modelTags(report);
  const bullets = shown.length > room ? shown.slice(0, room - 1) : shown;
  const lines = [...head];
  if (bullets.length > 0) {
    lines.push('', ...bullets.map((f) => findingLine(f, tags)));
    if (bullets.length < shown.length)
      lines.push(`- … and ${shown.length - bullets.length} more, every one in full below`);
  }
  lines.push(...tail);
  return lines.join('\n');
}

/** Every finding with its whole sentence (tests, p-values, intervals), collapsed. */
function allFindings(report: Report): string[] {
  const { reasons, suppressed } = report.verdict;
  const tags = modelTags(report);
  const out: string[] = [];
  if (reasons.length > 0)
    out.push(details(`Every finding in full (${reasons.length})`, findingsTable(reasons, tags)));
  if (suppressed.length > 0) {
    const checks = [...new Set(suppressed.map((f) => f.check))].join(', ');
    out.push(
      details(
        `Not counted (${suppressed.length}): the measurement of ${checks} was inconclusive`,
        `Not counted, because the measurement of ${checks} was inconclusive (numbers from a perturbed run cannot claim a regression):\n\n${findingsTable(suppressed, tags)}`,
      ),
    );
  }
  return out;
}

/** "- ❌ churn `domain-loss`: law: accuracy fell 58.7 points, at or above the limit of 5 points". */
function findingLine(f: GateFinding, tags: readonly string[]): string {
  const icon = SEVERITY_LABEL[f.severity].split(' ')[0] ?? '';
  const line = (limit: number) =>
    `- ${icon} ${f.check} ${codeSpan(f.rule)}: ${escapeTextWithCode(shortLine(f.message, limit), tags)}`;
  // Escapes and code spans lengthen the text: shorten it until the whole line fits.
  let limit = SHORT_LIMIT;
  while (limit > 40 && [...line(limit)].length > FIRST_SCREEN_WIDTH) limit -= 10;
  return line(limit);
}

/** The longest a finding's short form may be before its markup, leaving room for it. */
const SHORT_LIMIT = 150;

/** A part of a parenthesis that states the rule's limit: kept in the short form. */
const LIMIT_WORDS = /\b(limit|allowed|required|warning above|warns above|fails above)\b/;

/**
 * A finding's sentence in short: what, how much, the limit. The parenthesised parts (the test,
 * its p-value, the interval) and the sentences after the first are left to the full finding,
 * except a limit said only in parentheses; a sentence still too long is cut at a word.
 */
export function shortLine(message: string, limit = SHORT_LIMIT): string {
  let text = message;
  const removed: string[] = [];
  // Innermost parentheses first, until none is left (nested ones hold intervals).
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(/\s*\(([^()]*)\)/g, (_, inner: string) => {
      removed.push(inner);
      return '';
    });
  }
  const first = (text.split(/(?<=[.!?])\s+(?=[A-Z`])/)[0] ?? text).trim();
  let stated = '';
  if (!LIMIT_WORDS.test(first)) {
    const part = removed
      .flatMap((inner) => inner.split(';'))
      .map((p) => p.trim())
      .find((p) => LIMIT_WORDS.test(p) && !p.includes('('));
    if (part) stated = `; ${part}.`;
  }
  const clean = tidy(stated ? first.replace(/\.$/, '') : first);
  // The limit is what the reader needs most: the sentence before it is what gets cut.
  return `${cutAtWord(clean, limit - [...stated].length)}${stated}`;
}

function tidy(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/\s+([,;:.])/g, '$1')
    .trim();
}

function cutAtWord(text: string, limit: number): string {
  if ([...text].length <= limit) return text;
  const cut = [...text].slice(0, Math.max(1, limit - 2)).join('');
  const space = cut.lastIndexOf(' ');
  return `${cut.slice(0, space > 0 ? space : cut.length).replace(/[,;:]$/, '')} …`;
}

const OUTCOME_LABEL: Record<RuleOutcome, string> = {
  pass: '✅ pass',
  ...SEVERITY_LABEL,
  'not-evaluated': '– not evaluated',
};

/**
 * Every rule as the test it is: a pass means "no change this large", and the reader needs to
 * know how large, and how often two identical models would have failed it instead.
 */
function gateRules(rules: readonly EvaluatedGateRule[]): string[] {
  if (rules.length === 0) return [];
  const body = table(
    ['', 'check', 'rule', 'tests', 'false alarms (identical models)', 'smallest change it can see'],
    rules.map((r) => [
      OUTCOME_LABEL[r.outcome],
      r.check,
      codeSpan(r.rule),
      escapeText(r.tests),
      `≤ ${percent(r.falseAlarmRate, r.falseAlarmRate < 0.01 ? 2 : 1)}`,
      escapeText(r.detects),
    ]),
  );
  const total = rules.reduce((sum, r) => sum + r.falseAlarmRate, 0);
  return [
    details(
      `Gate rules as tests: ${rules.length} rules, two identical models fail at most ${percent(Math.min(1, total), 1)} of runs`,
      `${body}\n\nHow each rate is known: docs/gate-validity.md.`,
    ),
  ];
}

/** The model tags of the run, shown as code wherever a sentence names them. */
function modelTags(report: Report): string[] {
  const { baseline, candidate } = report.run.models;
  return [baseline?.model, candidate?.model].filter((m): m is string => typeof m === 'string');
}

function findingsTable(findings: readonly GateFinding[], tags: readonly string[]): string {
  return table(
    ['', 'check', 'rule', 'finding'],
    findings.map((f) => [
      SEVERITY_LABEL[f.severity],
      f.check,
      codeSpan(f.rule),
      escapeTextWithCode(f.message, tags),
    ]),
  );
}

/** A count with its noun, nothing for none: the line lists only what happened. */
function countOf(n: number, one: string, many: string): string {
  return n === 0 ? '' : plural(n, one, many);
}

/** Whether the server or a model of the run was the built-in simulator. */
export function isSimulated({ provider, models }: Report['run']): boolean {
  return provider.simulated || Boolean(models.baseline?.simulated || models.candidate?.simulated);
}

function simulatedNotice(report: Report): string[] {
  if (!isSimulated(report.run)) return [];
  return [
    '> [!NOTE]\n> Simulated models: these numbers come from the built-in simulator, not from a real model. They show how the gate works, not how any model behaves.',
  ];
}

/**
 * Small inline charts (mermaid, drawn by GitHub in the job summary and the PR comment) of the
 * pictures a reviewer needs first, one per check that draws one (churn: where the candidate
 * got reliably worse or better by domain; dragon: whether stated confidence matches success).
 * The full SVG charts stay with each check. A chart that lacks its data is left out.
 */
export function glanceCharts(report: Report, checks: CheckList): string[] {
  return checks.flatMap((check) => {
    const section = sectionOf(report.checks, check.name);
    const chart = section ? check.report.glanceChart?.(section, report.run.config) : null;
    return typeof chart === 'string' ? [chart] : [];
  });
}

function atAGlance(report: Report, checks: CheckList): string[] {
  const context = {
    config: report.run.config,
    headline: report.headline,
    hasCandidate: Boolean(report.run.models.candidate),
  };
  const rows: string[][] = [];
  for (const check of checks) {
    const section = sectionOf(report.checks, check.name);
    if (section) rows.push(...(check.report.glance?.(section, context) ?? []));
  }
  if (rows.length === 0) return [];
  return [table(['at a glance', 'value'], rows, ['l', 'r'])];
}

/**
 * Each check's section, collapsed under its heading. The lists a section collapses itself
 * (every changed item, every game, every pair of assistants) are left to report.html: they are
 * what makes a summary long, and the page shows them sortable.
 */
function checkSections(report: Report, checks: CheckList, pointer: string): string[] {
  const out: string[] = [];
  for (const check of checks) {
    const section = sectionOf(report.checks, check.name);
    if (!section) continue;
    const markdown = sectionMarkdown(check, section, escapeText).trim();
    if (markdown) out.push(collapsedSection(check.name, markdown, pointer, modelTags(report)));
  }
  return out;
}

/** A check's section; one that cannot be rendered costs that section only, and says why. */
export function sectionMarkdown(
  check: AnyCheck,
  section: unknown,
  escaped: (text: string) => string,
): string {
  try {
    return check.report.section(section);
  } catch (error) {
    return `This section could not be rendered: ${escaped(errorMessage(error))}`;
  }
}

const DETAILS_OPEN = /^<details><summary>(.*)<\/summary>$/;

/** The section without its collapsed blocks (nested ones included), and their titles. */
function withoutDetails(markdown: string): { body: string; left: string[] } {
  const kept: string[] = [];
  const left: string[] = [];
  let depth = 0;
  for (const line of markdown.split('\n')) {
    const open = DETAILS_OPEN.exec(line);
    if (open) {
      if (depth === 0) left.push(titleOf(open[1] ?? ''));
      depth++;
    } else if (depth > 0 && line === '</details>') {
      depth--;
    } else if (depth === 0) {
      kept.push(line);
    }
  }
  return { body: kept.join('\n').replace(/\n{3,}/g, '\n\n'), left };
}

/** A collapsed block's title as plain text; a long one without its explanation after a colon. */
function titleOf(summaryLine: string): string {
  const text = decodeHtml(summaryLine.replace(/<[^>]+>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
  const colon = text.lastIndexOf(': ');
  return text.length > 60 && colon > 0 ? text.slice(0, colon) : text;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };

/** The text of a summary line that details() escaped as HTML. */
function decodeHtml(html: string): string {
  return html.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name] ?? '');
}

function collapsedSection(
  name: string,
  markdown: string,
  pointer: string,
  tags: readonly string[],
): string {
  const titleMatch = /^### (.*)\n+/.exec(markdown);
  // The heading is markdown; the summary line is raw HTML, which details() escapes itself.
  const title = (titleMatch?.[1] ?? name).replace(/\\(.)/g, '$1');
  const { body, left } = withoutDetails(
    titleMatch ? markdown.slice(titleMatch[0].length) : markdown,
  );
  const more =
    left.length > 0
      ? `\n\nIn ${pointer}, not here: ${left.map((l) => escapeTextWithCode(l, tags)).join('; ')}.`
      : '';
  return details(title, `${body.trim()}${more}`);
}

function chartList(charts: readonly ReportChart[], options: SummaryOptions): string[] {
  if (charts.length === 0) return [];
  const item = (chart: ReportChart) =>
    options.chartsUrl === undefined
      ? relativeLink(chart.file.replace(/\.svg$/, ''), chart.file)
      : codeSpan(chart.file);
  const where =
    options.chartsUrl === undefined
      ? 'SVG files beside this summary'
      : `SVG files in the ${link('artifact of this run', options.chartsUrl)}`;
  // One line: the chart files are a list of names, and their titles are in report.html.
  return [`**Charts** (${where}): ${charts.map(item).join(', ')}.`];
}

/** A digest's first 16 characters: enough to tell two apart; report.json keeps it whole. */
function shortHash(hash: string): string {
  return hash.length > 20 ? `${hash.slice(0, 16)}…` : hash;
}

function modelsTable(run: Report['run']): string {
  const modelRows = (['baseline', 'candidate'] as const).flatMap((role) => {
    const m = run.models[role];
    if (!m) return [];
    return [
      [
        // A single-model run has no baseline to speak of: its one model is "model".
        run.models.candidate ? role : 'model',
        codeSpan(m.model),
        m.digest ? codeSpan(shortHash(neutralise(m.digest, VERSION_LIMIT))) : 'unknown',
        m.quantization ? escapeText(m.quantization) : 'unknown',
        m.parameterSize ? escapeText(m.parameterSize) : 'unknown',
        m.family ? escapeText(m.family) : 'unknown',
      ],
    ];
  });
  return table(['role', 'model', 'digest', 'quantization', 'parameters', 'family'], modelRows);
}

/** The settings of the checks that ran: a reader needs them to repeat the run. */
export function checkSettings(config: Report['run']['config'], checks: CheckList): string[][] {
  const settings: string[][] = [];
  for (const check of checks) {
    if (config.checks.includes(check.name))
      settings.push(...(check.report.settings?.(config) ?? []));
  }
  return settings;
}

function settingsTable(report: Report, checks: CheckList): string {
  const { run } = report;
  const settings = checkSettings(run.config, checks);
  settings.push(['context length (num_ctx)', String(run.config.runner.numCtx)]);
  settings.push(['tool', `${escapeText(report.tool.name)} ${escapeText(report.tool.version)}`]);
  settings.push(['report created', report.createdAt]);
  if (run.shards.length > 0)
    settings.push(['shards merged', run.shards.map(escapeText).join(', ')]);
  if (run.logs.length > 0) settings.push(['sample logs', run.logs.map(codeSpan).join(', ')]);
  return table(['setting', 'value'], settings);
}

function requestsTable(run: Report['run']): string {
  return table(
    ['model', 'requests', 'ok', 'invalid', 'timeout', 'error', 'mean latency', 'perturbed'],
    run.requests.map((r) => [
      codeSpan(r.model),
      String(r.total),
      String(r.ok),
      String(r.invalid),
      String(r.timeout),
      String(r.error),
      r.meanLatencyMs === null ? '–' : `${Math.round(r.meanLatencyMs)} ms`,
      r.perturbed ? 'yes' : 'no',
    ]),
    ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'l'],
  );
}

function provenance(report: Report, checks: CheckList): string {
  const { run } = report;
  const parts = [
    `Server: ${escapeText(run.provider.provider)} at ${codeSpan(run.provider.host)}, version ${
      run.provider.version ? codeSpan(neutralise(run.provider.version, VERSION_LIMIT)) : 'unknown'
    }${run.provider.simulated ? ' (simulated)' : ''}.`,
    modelsTable(run),
    settingsTable(report, checks),
  ];
  const hashes = Object.entries(run.promptHashes ?? {});
  if (hashes.length > 0) {
    parts.push(
      table(
        ['prompt', 'SHA-256'],
        hashes.map(([name, hash]) => [escapeText(name), codeSpan(shortHash(hash))]),
      ),
    );
  }
  if (run.requests.length > 0) parts.push(requestsTable(run));
  if (run.operations) parts.push(escapeText(run.operations.gpu.note));
  if (run.loadedBefore && run.loadedBefore.length > 0) {
    parts.push(
      `Models loaded on the server before the run: ${run.loadedBefore.map(codeSpan).join(', ')}`,
    );
  }
  if (run.warnings.length > 0) {
    const tags = modelTags(report);
    parts.push(
      `Warnings:\n\n${run.warnings.map((w) => `- ${escapeTextWithCode(w, tags)}`).join('\n')}`,
    );
  }
  return details('Measurement provenance', parts.join('\n\n'));
}
