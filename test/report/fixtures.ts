/**
 * A small constructed report: two simulated models, all three checks with plain stand-in
 * sections (each carrying its headline), findings of every severity, and hostile text in
 * places a model or a user file could reach (domain names, messages, model tags).
 */
import type { GateFinding } from '../../src/checks/types.js';
import { CHECKS } from '../../src/checks/builtIn.js';
import { configSchema } from '../../src/config/schema.js';
import { buildReport } from '../../src/report/build.js';
import type { Report, RunMetadata } from '../../src/report/types.js';

export const HOSTILE = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '@octocat please look',
  'a | b | c',
  '`code` ``more``',
  '<!-- hidden -->',
  '[click](https://evil.example/x) and https://evil.example/y www.evil.example',
  'line one\nline two\r\nline three',
  '**bold** _em_ # heading',
  'closes #12 and org/repo#3',
  '</details></summary>',
  '- [ ] task',
  '$x^2$ :smile:',
] as const;

/**
 * A check section as it would be read back from report.json, holding only the fields a test
 * needs: the real section types belong to the checks and are much larger.
 */
export function fromJson<T>(value: { check: string; [field: string]: unknown }): T {
  return JSON.parse(JSON.stringify(value));
}

export function runMetadata(overrides: Partial<RunMetadata> = {}): RunMetadata {
  return {
    provider: {
      provider: 'ollama',
      host: 'http://127.0.0.1:11434',
      version: '0.0.0-simulated',
      simulated: true,
    },
    models: {
      baseline: {
        model: 'sim-base:7b',
        digest: 'a'.repeat(64),
        quantization: 'Q4_K_M',
        parameterSize: '7.6B',
        family: 'simulated',
        simulated: true,
      },
      candidate: {
        model: 'sim-cand:14b',
        digest: 'b'.repeat(64),
        quantization: 'Q4_K_M',
        parameterSize: '14.8B',
        family: 'simulated',
        simulated: true,
      },
    },
    config: configSchema(CHECKS).parse({
      models: { baseline: 'sim-base:7b', candidate: 'sim-cand:14b' },
      churn: { samples: 10 },
    }),
    logs: ['samples.jsonl'],
    loadedBefore: [],
    requests: [
      {
        model: 'sim-base:7b',
        total: 120,
        ok: 118,
        invalid: 2,
        timeout: 0,
        error: 0,
        perturbed: false,
        meanLatencyMs: 41.2,
      },
      {
        model: 'sim-cand:14b',
        total: 120,
        ok: 117,
        invalid: 1,
        timeout: 2,
        error: 0,
        perturbed: false,
        meanLatencyMs: 63.9,
      },
    ],
    warnings: [],
    shards: [],
    promptHashes: { churn: 'c'.repeat(64), dragon: 'd'.repeat(64) },
    ...overrides,
  };
}

export const FINDINGS: GateFinding[] = [
  {
    check: 'personas',
    rule: 'accuracy-drop',
    severity: 'warn',
    message: 'attribution accuracy fell by 18 points',
    values: { drop: 0.18 },
  },
  {
    check: 'churn',
    rule: 'domain-reversal',
    severity: 'fail',
    message: `law: 7 items reliably worse, 1 better, while overall accuracy rose 2.8 points ${HOSTILE[0]}`,
    values: { domain: 'law', deteriorated: 7, improved: 1 },
  },
  {
    check: 'dragon',
    rule: 'ece-increase',
    severity: 'info',
    message: 'ECE rose by 0.02 (limit 0.05)',
  },
];

export function constructedReport(findings: GateFinding[] = FINDINGS): Report {
  return buildReport({
    run: runMetadata(),
    sections: {
      churn: fromJson({
        check: 'churn',
        method: 'fisher-bh',
        comparison: {
          fisherBh: { churnRate: 0.275, deteriorated: 8 },
          rci: { churnRate: 0.1, deteriorated: 2 },
          reversals: ['law', HOSTILE[3]],
        },
      }),
      dragon: fromJson({
        check: 'dragon',
        baseline: { ece: { value: 0.061, low: 0.03, high: 0.09 } },
        candidate: { ece: { value: 0.193, low: 0.15, high: 0.24 } },
      }),
      personas: fromJson({
        check: 'personas',
        models: [
          { role: 'baseline', accuracy: 0.9 },
          { role: 'candidate', accuracy: 0.72 },
        ],
      }),
    },
    findings,
    createdAt: '2025-01-02T03:04:05.000Z',
  });
}
