/**
 * Operating characteristics of the personas gate rules. Five assistants answer eight probes,
 * `personas.samples` times each, with answers generated from known vocabularies (see
 * personasGenerator.ts, which shares no code with the analysis); the sample records go through
 * the check's own analyse and gate at default settings.
 *
 * Scenarios (each run draws fresh vocabularies, the same for both models):
 * - no change: five distinct assistants on both models;
 * - identical pair on both: two assistants share one voice on both models (undeclared);
 * - merged by the candidate: distinct on the baseline, two share one voice on the candidate;
 * - the first and the last again with answers that hold no probe words (the probe pulls no
 *   answers together, so leave-one-out attribution behaves differently: same accuracy, other
 *   structure).
 */
import { parseCatalogue } from '../../src/checks/personas/catalogue.js';
import { messagesFor, promptHash, unitKey } from '../../src/checks/personas/plan.js';
import { personasCheck } from '../../src/checks/personas/index.js';
import type { PersonasSection } from '../../src/checks/personas/section.js';
import type { CheckContext, GateFinding } from '../../src/checks/types.js';
import { checkFalseAlarmBudget } from '../../src/checks/types.js';
import { loadConfig } from '../../src/config/load.js';
// The checks hand their settings blocks to the config when the registry loads.
import '../../src/checks/registry.js';
import {
  answer,
  DEFAULT_VOICES,
  Draw,
  type VoiceSettings,
  type Vocabularies,
  vocabularies,
} from './personasGenerator.js';
import type { CheckOc, OcOptions, OcRow } from './types.js';
import type { PersonasCallRecord } from '../../src/checks/personas/records.js';

const NAMES = ['boats', 'gardens', 'music', 'taxes', 'birds'];
const PROBES = 8;

const CATALOGUE = parseCatalogue(
  [
    'language: en',
    'assistants:',
    ...NAMES.map((n) => `  ${n}: "You answer questions about ${n} and nothing else."`),
    'probes:',
    ...Array.from({ length: PROBES }, (_, p) => `  - "Open question number ${p + 1}?"`),
  ].join('\n'),
  'oc-catalogue.yml',
);

export interface PersonasScenario {
  name: string;
  kind: OcRow['kind'];
  /** Voice of each assistant on the baseline and on the candidate. */
  baseline: number[];
  candidate: number[];
  /** How answers are drawn (both calibrated to accuracy ≈ 0.6 at 8 probes × 4 samples). */
  voices: VoiceSettings;
}

/** Answers without probe words: only the voices and the commons. */
export const VOICES_WITHOUT_PROBE_WORDS: VoiceSettings = {
  ...DEFAULT_VOICES,
  ownShare: 0.052,
  probeShare: 0,
};

const DISTINCT = [0, 1, 2, 3, 4];
const FIRST_TWO_SHARED = [0, 0, 2, 3, 4];

export const SCENARIOS: PersonasScenario[] = [
  {
    name: 'no change',
    kind: 'no change',
    baseline: DISTINCT,
    candidate: DISTINCT,
    voices: DEFAULT_VOICES,
  },
  {
    name: 'identical pair on both (undeclared)',
    kind: 'no change',
    baseline: FIRST_TWO_SHARED,
    candidate: FIRST_TWO_SHARED,
    voices: DEFAULT_VOICES,
  },
  {
    name: 'candidate merges two assistants',
    kind: 'known effect',
    baseline: DISTINCT,
    candidate: FIRST_TWO_SHARED,
    voices: DEFAULT_VOICES,
  },
  {
    name: 'no change, no probe words',
    kind: 'no change',
    baseline: DISTINCT,
    candidate: DISTINCT,
    voices: VOICES_WITHOUT_PROBE_WORDS,
  },
  {
    name: 'candidate merges two, no probe words',
    kind: 'known effect',
    baseline: DISTINCT,
    candidate: FIRST_TWO_SHARED,
    voices: VOICES_WITHOUT_PROBE_WORDS,
  },
];

export interface PersonasRunOptions {
  /** Overrides of the personas settings (e.g. samples), for power tables. */
  personas?: Record<string, unknown>;
}

function context(options: PersonasRunOptions): CheckContext {
  const { config } = loadConfig({
    file: null,
    overrides: [
      { path: ['models', 'baseline'], value: 'base', source: 'oc' },
      { path: ['models', 'candidate'], value: 'cand', source: 'oc' },
      ...Object.entries(options.personas ?? {}).map(([key, value]) => ({
        path: ['personas', key],
        value,
        source: 'oc',
      })),
    ],
  });
  return { config, baseDir: '.', models: { baseline: 'base', candidate: 'cand' } };
}

function records(
  model: string,
  voices: readonly number[],
  samples: number,
  words: Vocabularies,
  settings: VoiceSettings,
  draw: Draw,
): PersonasCallRecord[] {
  const out: PersonasCallRecord[] = [];
  CATALOGUE.assistants.forEach((assistant, a) => {
    CATALOGUE.probes.forEach((probe, p) => {
      for (let s = 0; s < samples; s++) {
        out.push({
          v: 1,
          kind: 'call',
          check: 'personas',
          model,
          digest: null,
          key: unitKey(assistant.name, p, s),
          sample: s,
          options: { temperature: 0.3, seed: 7 + s, num_ctx: 4096, num_predict: 320, think: false },
          prompt_sha256: promptHash(messagesFor(assistant.prompt, probe)),
          status: 'ok',
          latency_ms: 1,
          attempts: 1,
          persona: assistant.name,
          probe: p,
          text: answer(words, voices[a] ?? a, p, settings, draw),
        });
      }
    });
  });
  return out;
}

export interface PersonasRun {
  findings: GateFinding[];
  section: PersonasSection;
}

/** One simulated run of a scenario through the check's analyse and gate. */
export function simulateRun(
  scenario: PersonasScenario,
  seed: number,
  options: PersonasRunOptions = {},
): PersonasRun {
  const ctx = context(options);
  const settings = scenario.voices;
  const draw = new Draw(seed);
  const words = vocabularies(NAMES.length, PROBES, settings, draw);
  const samples = ctx.config.personas.samples;
  const log = [
    ...records('base', scenario.baseline, samples, words, settings, draw),
    ...records('cand', scenario.candidate, samples, words, settings, draw),
  ];
  const section = personasCheck.analyse(log, CATALOGUE, ctx);
  return { section, findings: personasCheck.gate(section, ctx) };
}

/** The harness's run count is divided by this for personas (see operatingCharacteristics). */
export const RUN_SHARE = 4;

const fails = (findings: readonly GateFinding[], rule?: string) =>
  findings.some((f) => f.severity === 'fail' && (rule === undefined || f.rule === rule));

export async function operatingCharacteristics(
  options: OcOptions,
  run: PersonasRunOptions = {},
  scenarios: readonly PersonasScenario[] = SCENARIOS,
): Promise<CheckOc> {
  const ctx = context(run);
  const budget = checkFalseAlarmBudget(ctx.config);
  const share = budget / 2;
  const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
  const rows: OcRow[] = [];
  let noChangeGateFails: boolean[] = [];
  // A run costs about a second of CPU (two within-probe nulls and 1000 swaps at N = 160):
  // a quarter of the runs asked keeps `npm run oc` to a few minutes; --runs 400 gives 100.
  const runs = Math.max(1, Math.ceil(options.runs / RUN_SHARE));
  for (const scenario of scenarios) {
    const hits = { 'min-recognition': 0, 'merged-pair': 0, any: 0, named: 0 };
    const gateFails: boolean[] = [];
    for (let r = 0; r < runs; r++) {
      const { findings } = simulateRun(scenario, options.seed * 100_003 + r, run);
      if (fails(findings, 'min-recognition')) hits['min-recognition']++;
      if (fails(findings, 'merged-pair')) hits['merged-pair']++;
      const failed = fails(findings);
      if (failed) hits.any++;
      gateFails.push(failed);
      // The merged pair is the first two assistants: named only when the rule says so.
      if (
        findings.some(
          (f) => f.rule === 'merged-pair' && f.values?.a === NAMES[0] && f.values?.b === NAMES[1],
        )
      ) {
        hits.named++;
      }
    }
    if (scenario === scenarios[0]) noChangeGateFails = gateFails;
    const row = (rule: string, count: number, target: string, met: boolean): OcRow => ({
      check: 'personas',
      rule,
      scenario: scenario.name,
      kind: scenario.kind,
      runs,
      hits: count,
      target,
      met,
    });
    if (scenario.kind === 'no change') {
      for (const rule of ['min-recognition', 'merged-pair'] as const) {
        const rate = hits[rule] / runs;
        rows.push(row(rule, hits[rule], `≤ ${pct(share)}`, rate <= share));
      }
      const rate = hits.any / runs;
      rows.push(row('any (check fails)', hits.any, `≤ ${pct(budget)}`, rate <= budget));
    } else {
      rows.push(row('merged-pair (names the pair)', hits.named, '≥ 80%', hits.named / runs >= 0.8));
      rows.push(
        row('min-recognition', hits['min-recognition'], 'reported', true),
        row('any (check fails)', hits.any, '≥ 80%', hits.any / runs >= 0.8),
      );
    }
  }
  return { rows, noChangeGateFails };
}
