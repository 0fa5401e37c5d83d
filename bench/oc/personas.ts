/**
 * Operating characteristics of the personas gate rules. Assistants answer eight probes,
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
 *   structure);
 * - look-alike catalogues (LOOK_ALIKE_SCENARIOS): four assistants, two answering from one voice
 *   (not declared as controls), the other two weakly distinct, at several recognisability
 *   levels, sample counts and ways of writing; and a five-assistant catalogue with such a
 *   pair whose candidate merges two other assistants;
 * - nightly mode (nightlyCharacteristics): the model against the previous night's section,
 *   tested with Fisher and Bonferroni (no baseline answers to swap).
 */
import { CHECKS, type BuiltInConfig } from '../../src/checks/builtIn.js';
import { parseCatalogue } from '../../src/checks/personas/catalogue.js';
import { messagesFor, promptHash, unitKey } from '../../src/checks/personas/plan.js';
import { personasCheck } from '../../src/checks/personas/index.js';
import type { PersonasSection } from '../../src/checks/personas/section.js';
import type { CheckContext, GateFinding } from '../../src/checks/types.js';
import type { PersonasCatalogue } from '../../src/checks/personas/catalogue.js';
import { checkFalseAlarmBudget } from '../../src/checks/types.js';
import { loadConfig } from '../../src/config/load.js';
// The checks hand their settings blocks to the config when the registry loads.
import '../../src/checks/builtIn.js';
import { wilsonInterval } from '../../src/stats/wilson.js';
import {
  answer,
  DEFAULT_VOICES,
  Draw,
  type Drafts,
  drafts,
  type VoiceSettings,
  type Vocabularies,
  vocabularies,
} from './personasGenerator.js';
import type { CheckOc, OcOptions, OcRow } from './types.js';
import type { PersonasCallRecord } from '../../src/checks/personas/records.js';

const NAMES = ['boats', 'gardens', 'music', 'taxes', 'birds', 'trains'];
const PROBES = 8;

const catalogues = new Map<number, PersonasCatalogue>();

/** A catalogue of the first `count` assistants and eight open probes. */
function catalogueOf(count: number): PersonasCatalogue {
  let catalogue = catalogues.get(count);
  if (!catalogue) {
    catalogue = parseCatalogue(
      [
        'language: en',
        'assistants:',
        ...NAMES.slice(0, count).map(
          (n) => `  ${n}: "You answer questions about ${n} and nothing else."`,
        ),
        'probes:',
        ...Array.from({ length: PROBES }, (_, p) => `  - "Open question number ${p + 1}?"`),
      ].join('\n'),
      'oc-catalogue.yml',
    );
    catalogues.set(count, catalogue);
  }
  return catalogue;
}

export interface PersonasScenario {
  name: string;
  kind: OcRow['kind'];
  /** Voice of each assistant on the baseline and on the candidate (one entry per assistant). */
  baseline: number[];
  candidate: number[];
  /** How answers are drawn (both calibrated to accuracy ≈ 0.6 at 8 probes × 4 samples). */
  voices: VoiceSettings;
  /** personas.samples for this scenario; the default (4) when absent. */
  samples?: number;
  /** The two assistants a known-effect scenario merges (the merged-pair finding must name them). */
  merged?: readonly [number, number];
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

/** Two assistants answering from one voice, two weakly distinct ones (voice own share `weak`). */
const TWINS_AND_TWO_WEAK = [0, 0, 1, 2];

function lookAlike(weak: number, extra: Partial<VoiceSettings> = {}): VoiceSettings {
  return { ...DEFAULT_VOICES, ownShares: [DEFAULT_VOICES.ownShare, weak, weak], ...extra };
}

const lookAlikeNoChange = (
  name: string,
  voices: VoiceSettings,
  samples?: number,
): PersonasScenario => ({
  name,
  kind: 'no change',
  baseline: TWINS_AND_TWO_WEAK,
  candidate: TWINS_AND_TWO_WEAK,
  voices,
  ...(samples === undefined ? {} : { samples }),
});

/**
 * Catalogues whose model treats two assistants alike without their being declared as
 * controls: the pair's crossing share is high and moves a lot from one sample of answers to
 * the next. No change in any of them except the last, where the candidate merges two of the
 * other assistants.
 */
export const LOOK_ALIKE_SCENARIOS: PersonasScenario[] = [
  lookAlikeNoChange('look-alike pair, two weakly distinct (own 7%)', lookAlike(0.07)),
  lookAlikeNoChange('look-alike pair, two barely distinct (own 4%)', lookAlike(0.04)),
  lookAlikeNoChange('look-alike pair, two more distinct (own 11%)', lookAlike(0.11)),
  lookAlikeNoChange('look-alike pair (own 7%), 2 samples per probe', lookAlike(0.07), 2),
  lookAlikeNoChange('look-alike pair (own 7%), 8 samples per probe', lookAlike(0.07), 8),
  lookAlikeNoChange(
    'look-alike pair (own 7%), sentences of skewed words',
    lookAlike(0.07, { style: 'sentences' }),
  ),
  lookAlikeNoChange(
    'look-alike pair (own 7%), answers to one prompt alike (half copied)',
    lookAlike(0.07, { alike: 0.5 }),
  ),
  lookAlikeNoChange(
    'look-alike pair (own 7%), no probe words',
    lookAlike(0.045, { ownShare: 0.052, probeShare: 0 }),
  ),
  {
    name: 'look-alike pair present, candidate merges two other assistants',
    kind: 'known effect',
    baseline: [0, 0, 1, 2, 3],
    candidate: [0, 0, 1, 2, 2],
    voices: DEFAULT_VOICES,
    merged: [3, 4],
  },
];

export interface PersonasRunOptions {
  /** Overrides of the personas settings (e.g. samples), for power tables. */
  personas?: Record<string, unknown>;
}

function context(
  options: PersonasRunOptions,
  candidate: string | null = 'cand',
): CheckContext<BuiltInConfig> {
  const { config } = loadConfig({
    checks: CHECKS,
    file: null,
    overrides: [
      { path: ['models', 'baseline'], value: 'base', source: 'oc' },
      ...(candidate ? [{ path: ['models', 'candidate'], value: candidate, source: 'oc' }] : []),
      ...Object.entries(options.personas ?? {}).map(([key, value]) => ({
        path: ['personas', key],
        value,
        source: 'oc',
      })),
    ],
  });
  return { config, baseDir: '.', models: { baseline: 'base', candidate } };
}

/** What one model's answers are drawn from in one run. */
interface Source {
  catalogue: PersonasCatalogue;
  voices: readonly number[];
  samples: number;
  words: Vocabularies;
  drafts: Drafts;
  settings: VoiceSettings;
}

function records(model: string, source: Source, draw: Draw): PersonasCallRecord[] {
  const out: PersonasCallRecord[] = [];
  const { catalogue, voices, samples, words, settings } = source;
  catalogue.assistants.forEach((assistant, a) => {
    catalogue.probes.forEach((probe, p) => {
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
          text: answer(words, voices[a] ?? a, p, settings, draw, source.drafts),
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

/** The run's vocabularies and drafts: drawn once, the same for both models. */
function runSources(scenario: PersonasScenario, ctx: CheckContext<BuiltInConfig>, draw: Draw) {
  const settings = scenario.voices;
  const catalogue = catalogueOf(scenario.baseline.length);
  const voiceCount = Math.max(...scenario.baseline, ...scenario.candidate) + 1;
  const words = vocabularies(voiceCount, PROBES, settings, draw);
  const common = {
    catalogue,
    samples: ctx.config.personas.samples,
    words,
    drafts: drafts(words, settings, draw),
    settings,
  };
  return {
    catalogue,
    baseline: { ...common, voices: scenario.baseline },
    candidate: { ...common, voices: scenario.candidate },
  };
}

function scenarioOptions(scenario: PersonasScenario, options: PersonasRunOptions) {
  return scenario.samples === undefined
    ? options
    : { ...options, personas: { ...options.personas, samples: scenario.samples } };
}

/** One simulated run of a scenario through the check's analyse and gate. */
export function simulateRun(
  scenario: PersonasScenario,
  seed: number,
  options: PersonasRunOptions = {},
): PersonasRun {
  const ctx = context(scenarioOptions(scenario, options));
  const draw = new Draw(seed);
  const sources = runSources(scenario, ctx, draw);
  const log = [
    ...records('base', sources.baseline, draw),
    ...records('cand', sources.candidate, draw),
  ];
  const section = personasCheck.analyse(log, sources.catalogue, ctx);
  return { section, findings: personasCheck.gate(section, ctx) };
}

/**
 * One simulated night: the model measured alone, compared with the previous night's section
 * as nightly mode does (Fisher and Bonferroni on each night's own counts). The scenario's
 * baseline voices are last night's, its candidate voices tonight's.
 */
export function simulateNightlyRun(
  scenario: PersonasScenario,
  seed: number,
  options: PersonasRunOptions = {},
): PersonasRun {
  const ctx = context(scenarioOptions(scenario, options), null);
  const draw = new Draw(seed);
  const sources = runSources(scenario, ctx, draw);
  const lastNight = personasCheck.analyse(
    records('base', sources.baseline, draw),
    sources.catalogue,
    ctx,
  );
  const tonight = personasCheck.analyse(
    records('base', sources.candidate, draw),
    sources.catalogue,
    ctx,
  );
  // The previous section comes back from report.json: a plain copy, as the pipeline reads it.
  const previous: unknown = JSON.parse(JSON.stringify(lastNight));
  return { section: tonight, findings: personasCheck.gate(tonight, ctx, previous) };
}

/** The harness's run count is divided by this for personas (see operatingCharacteristics). */
export const RUN_SHARE = 4;

const fails = (findings: readonly GateFinding[], rule?: string) =>
  findings.some((f) => f.severity === 'fail' && (rule === undefined || f.rule === rule));

/** Whether a measured false-alarm count is compatible with its target share (Wilson interval). */
export function withinShare(hits: number, runs: number, share: number): boolean {
  return wilsonInterval(hits, runs).low <= share;
}

type Simulate = (scenario: PersonasScenario, seed: number, run: PersonasRunOptions) => PersonasRun;

interface ScenarioTally {
  'min-recognition': number;
  'merged-pair': number;
  any: number;
  named: number;
  gateFails: boolean[];
}

function tallyScenario(
  scenario: PersonasScenario,
  runs: number,
  seed: number,
  run: PersonasRunOptions,
  simulate: Simulate,
): ScenarioTally {
  const tally: ScenarioTally = {
    'min-recognition': 0,
    'merged-pair': 0,
    any: 0,
    named: 0,
    gateFails: [],
  };
  const names = catalogueOf(scenario.baseline.length).assistants.map((a) => a.name);
  const [first, second] = scenario.merged ?? [0, 1];
  for (let r = 0; r < runs; r++) {
    const { findings } = simulate(scenario, seed * 100_003 + r, run);
    if (fails(findings, 'min-recognition')) tally['min-recognition']++;
    if (fails(findings, 'merged-pair')) tally['merged-pair']++;
    const failed = fails(findings);
    if (failed) tally.any++;
    tally.gateFails.push(failed);
    // Named only when the rule names the pair the scenario merged.
    const named = findings.some(
      (f) =>
        f.rule === 'merged-pair' && f.values?.a === names[first] && f.values?.b === names[second],
    );
    if (named) tally.named++;
  }
  return tally;
}

function scenarioRows(
  check: string,
  scenario: PersonasScenario,
  runs: number,
  tally: ScenarioTally,
  share: number,
  budget: number,
): OcRow[] {
  const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
  const row = (rule: string, count: number, target: string, met: boolean): OcRow => ({
    check,
    rule,
    scenario: scenario.name,
    kind: scenario.kind,
    runs,
    hits: count,
    target,
    met,
  });
  if (scenario.kind === 'no change') {
    return [
      ...(['min-recognition', 'merged-pair'] as const).map((rule) =>
        row(rule, tally[rule], `≤ ${pct(share)}`, withinShare(tally[rule], runs, share)),
      ),
      row('any (check fails)', tally.any, `≤ ${pct(budget)}`, withinShare(tally.any, runs, budget)),
    ];
  }
  return [
    row('merged-pair (names the pair)', tally.named, '≥ 80%', tally.named / runs >= 0.8),
    row('min-recognition', tally['min-recognition'], 'reported', true),
    row('any (check fails)', tally.any, '≥ 80%', tally.any / runs >= 0.8),
  ];
}

export async function operatingCharacteristics(
  options: OcOptions,
  run: PersonasRunOptions = {},
  scenarios: readonly PersonasScenario[] = [...SCENARIOS, ...LOOK_ALIKE_SCENARIOS],
): Promise<CheckOc> {
  const budget = checkFalseAlarmBudget(context(run).config);
  const rows: OcRow[] = [];
  let noChangeGateFails: boolean[] = [];
  // A run costs about a second of CPU (two within-probe nulls and 1000 swaps at N = 160):
  // a quarter of the runs asked keeps `npm run oc` to a few minutes; --runs 400 gives 100.
  const runs = Math.max(1, Math.ceil(options.runs / RUN_SHARE));
  for (const scenario of scenarios) {
    const tally = tallyScenario(scenario, runs, options.seed, run, simulateRun);
    if (scenario === scenarios[0]) noChangeGateFails = tally.gateFails;
    rows.push(...scenarioRows('personas', scenario, runs, tally, budget / 2, budget));
  }
  return { rows, noChangeGateFails };
}

/** Nightly personas: the scenarios measured night against night (Fisher, Bonferroni). */
export const NIGHTLY_SCENARIOS: PersonasScenario[] = [
  { ...(SCENARIOS[0] as PersonasScenario), name: 'nightly, no change' },
  { ...(SCENARIOS[3] as PersonasScenario), name: 'nightly, no change, no probe words' },
  { ...(LOOK_ALIKE_SCENARIOS[0] as PersonasScenario), name: 'nightly, look-alike pair (own 7%)' },
  {
    ...(LOOK_ALIKE_SCENARIOS[5] as PersonasScenario),
    name: 'nightly, look-alike pair (own 7%), sentences',
  },
  { ...(SCENARIOS[2] as PersonasScenario), name: 'nightly, tonight merges two assistants' },
];

/**
 * Operating characteristics of nightly personas: the rows of the fallback test, and for each
 * no-change night whether the check failed (the whole-gate nightly line combines them).
 */
export async function nightlyCharacteristics(
  options: OcOptions,
  run: PersonasRunOptions = {},
  scenarios: readonly PersonasScenario[] = NIGHTLY_SCENARIOS,
): Promise<CheckOc> {
  const budget = checkFalseAlarmBudget(context(run, null).config);
  const rows: OcRow[] = [];
  let noChangeGateFails: boolean[] = [];
  const runs = Math.max(1, Math.ceil(options.runs / RUN_SHARE));
  for (const scenario of scenarios) {
    const tally = tallyScenario(scenario, runs, options.seed, run, simulateNightlyRun);
    if (scenario === scenarios[0]) noChangeGateFails = tally.gateFails;
    rows.push(...scenarioRows('personas (nightly)', scenario, runs, tally, budget / 2, budget));
  }
  return { rows, noChangeGateFails };
}
