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
 * - look-alike catalogues from a second generator (LOOK_ALIKE_POOL_SCENARIOS, personasPools.ts):
 *   pools per assistant and probe, twins at several similarity levels, 8 or 4 probes, both
 *   models from one set of pools or each from its own;
 * - the look-alike null family from a third generator (LOOK_ALIKE_TWIN_SCENARIOS,
 *   personasTwins.ts): no common words, short answers from small pools per assistant and
 *   probe drawn afresh per sample, twins at similarity 1 to 0.7, 4 or 8 probes, and a merge of
 *   the other two for the power, and two rows where each model draws its own pools;
 * - nightly mode (nightlyCharacteristics): the model against the previous night's section,
 *   tested with Fisher and Bonferroni (no baseline answers to swap).
 */
import { CHECKS, type BuiltInConfig } from '../../src/checks/builtIn.js';
import { parseCatalogue } from '../../src/checks/personas/catalogue.js';
import { personasCheck } from '../../src/checks/personas/index.js';
import { messagesFor, promptHash, unitKey } from '../../src/checks/personas/plan.js';
import type { PersonasSection } from '../../src/checks/personas/section.js';
import type { CheckContext, GateFinding } from '../../src/checks/types.js';
import { checkFalseAlarmBudget } from '../../src/checks/types.js';
import { loadConfig } from '../../src/config/load.js';
// The checks hand their settings blocks to the config when the registry loads.
import '../../src/checks/builtIn.js';
import type { PersonasCallRecord } from '../../src/checks/personas/records.js';
import type { PersonasCatalogue } from '../../src/checks/personas/catalogue.js';
import { wilsonInterval } from '../../src/stats/wilson.js';
import {
  answer,
  DEFAULT_VOICES,
  type Drafts,
  Draw,
  drafts,
  type Vocabularies,
  type VoiceSettings,
  vocabularies,
} from './personasGenerator.js';
import {
  DEFAULT_POOLS,
  drawPools,
  type PoolSettings,
  type Pools,
  poolAnswer,
} from './personasPools.js';
import {
  DEFAULT_TWINS,
  drawTwinPools,
  type TwinPools,
  type TwinSettings,
  twinAnswer,
} from './personasTwins.js';
import type { CheckOc, OcOptions, OcRow } from './types.js';
import { foldRecords } from '../../src/checks/fold.js';

const NAMES = ['boats', 'gardens', 'music', 'taxes', 'birds', 'trains'];
const PROBES = 8;

const catalogues = new Map<string, PersonasCatalogue>();

/** A catalogue of the first `count` assistants and `probes` open probes (eight by default). */
function catalogueOf(count: number, probes = PROBES): PersonasCatalogue {
  const key = `${count}/${probes}`;
  let catalogue = catalogues.get(key);
  if (!catalogue) {
    catalogue = parseCatalogue(
      [
        'language: en',
        'assistants:',
        ...NAMES.slice(0, count).map(
          (n) => `  ${n}: "You answer questions about ${n} and nothing else."`,
        ),
        'probes:',
        ...Array.from({ length: probes }, (_, p) => `  - "Open question number ${p + 1}?"`),
      ].join('\n'),
      'oc-catalogue.yml',
    );
    catalogues.set(key, catalogue);
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
  /**
   * Answers drawn from pools per assistant and probe (personasPools.ts) instead of voices; the
   * baseline and candidate entries are then pool slots, `voices` is unused.
   */
  pools?: PoolSettings;
  /**
   * Each model draws its own pools from the same settings (two models alike in distribution,
   * not in words), and with 'pools and common words' its own common words too (a model-wide
   * wording); both models share one set of pools when absent.
   */
  poolsPerModel?: 'pools' | 'pools and common words';
  /** Probes of the catalogue; eight when absent. */
  probes?: number;
  /**
   * Answers drawn from assistants' pools per probe with no common words (personasTwins.ts);
   * the baseline and candidate entries are then pool slots, `voices` is unused.
   */
  twins?: TwinSettings;
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

/** Twins from one distribution with the coarsest counts: six-word answers from four-word pools. */
const TINY: Partial<TwinSettings> = {
  twinSimilarity: 1,
  answerWords: 6,
  poolWords: 4,
  topicWords: 6,
};

/** Pool share of the two weakly distinct assistants beside the twins (the others have 9%). */
const WEAK_POOL_SHARE = 0.06;

function twinPools(similarity: number): PoolSettings {
  const share = DEFAULT_POOLS.poolShare;
  return {
    ...DEFAULT_POOLS,
    poolShares: [share, share, WEAK_POOL_SHARE, WEAK_POOL_SHARE],
    twinSimilarity: similarity,
  };
}

const twinsNoChange = (
  name: string,
  pools: PoolSettings,
  extra: Partial<PersonasScenario> = {},
): PersonasScenario => ({
  name: `look-alike pools: ${name}`,
  kind: 'no change',
  baseline: [0, 1, 2, 3],
  candidate: [0, 1, 2, 3],
  voices: DEFAULT_VOICES,
  pools,
  ...extra,
});

/**
 * The same question asked of a second generator (personasPools.ts): pools of words per
 * assistant and probe, every answer drawn afresh, two assistants answering from one
 * distribution (twins, not declared as controls) at several similarity levels beside two
 * weakly distinct ones; 8 or 4 probes; both models from one set of pools, or each model from
 * pools of its own (and its own common words: a model-wide wording). The last two rows are
 * merges, for the power in this family.
 */
export const LOOK_ALIKE_POOL_SCENARIOS: PersonasScenario[] = [
  twinsNoChange('twins (one distribution), two weakly distinct', twinPools(1)),
  twinsNoChange('twins at similarity 0.8', twinPools(0.8)),
  twinsNoChange('twins at similarity 0.6', twinPools(0.6)),
  twinsNoChange('twins, 4 probes', twinPools(1), { probes: 4 }),
  twinsNoChange('twins, each model its own pools', twinPools(1), { poolsPerModel: 'pools' }),
  twinsNoChange('twins, each model its own pools and common words', twinPools(1), {
    poolsPerModel: 'pools and common words',
  }),
  {
    name: 'pools: candidate merges two assistants',
    kind: 'known effect',
    baseline: DISTINCT,
    candidate: [0, 1, 2, 3, 3],
    voices: DEFAULT_VOICES,
    pools: { ...DEFAULT_POOLS, twinSimilarity: 0 },
    merged: [3, 4],
  },
  {
    name: 'pools, each model its own pools and common words: candidate merges two',
    kind: 'known effect',
    baseline: DISTINCT,
    candidate: [0, 1, 2, 3, 3],
    voices: DEFAULT_VOICES,
    pools: { ...DEFAULT_POOLS, twinSimilarity: 0 },
    poolsPerModel: 'pools and common words',
    merged: [3, 4],
  },
];

function twins(
  name: string,
  settings: Partial<TwinSettings>,
  probes: number,
  extra: Partial<PersonasScenario> = {},
): PersonasScenario {
  return {
    name: `look-alike twins: ${name}, ${probes} probes`,
    kind: 'no change',
    baseline: [0, 1, 2, 3],
    candidate: [0, 1, 2, 3],
    voices: DEFAULT_VOICES,
    twins: { ...DEFAULT_TWINS, ...settings },
    probes,
    ...extra,
  };
}

/** Twins close enough that their crossing share sits near one half: the guard a coin toss. */
const NEAR_HALF: Partial<TwinSettings> = { twinSimilarity: 0.8, answerWords: 8, poolWords: 6 };

/** The same, with the two weakly distinct assistants closer to each other and shorter answers. */
const CLOSE_WEAK: Partial<TwinSettings> = {
  ...NEAR_HALF,
  answerWords: 6,
  poolWords: 5,
  topicWords: 8,
  weakDistinct: 0.15,
};

/**
 * The look-alike null family from a third generator (personasTwins.ts, no common words):
 * four assistants, twins (not declared as controls) at similarity 1, 0.9, 0.8 or 0.7 beside
 * two weakly distinct ones (own share 0.25 or 0.15), answers of 6 to 12 words from pools of 4
 * to 8 words per assistant and probe, drawn afresh per sample; 4 or 8 probes × 4 samples; both
 * models from one set of pools, or in two rows each from its own. The last two rows merge the
 * two weakly distinct assistants on the candidate.
 */
export const LOOK_ALIKE_TWIN_SCENARIOS: PersonasScenario[] = [
  twins('one distribution, 6-word answers, pools of 4', TINY, 4),
  twins('similarity 0.9', { twinSimilarity: 0.9 }, 4),
  twins('similarity 0.8, 8-word answers, pools of 6', NEAR_HALF, 4),
  twins('similarity 0.8, 8-word answers, pools of 6', NEAR_HALF, 8),
  twins('similarity 0.7', { twinSimilarity: 0.7 }, 4),
  twins('similarity 0.7', { twinSimilarity: 0.7 }, 8),
  twins('similarity 0.8, 6-word answers, pools of 5, weak ones 15% own', CLOSE_WEAK, 4),
  twins('similarity 0.8, 6-word answers, pools of 5, weak ones 15% own', CLOSE_WEAK, 8),
  // Each model draws pools of its own from the same settings: two models alike in
  // distribution, whose twins at one probe or another share more words by chance.
  twins('each model its own pools, similarity 0.7', { twinSimilarity: 0.7, perModel: true }, 4),
  twins('each model its own pools, similarity 0.6', { twinSimilarity: 0.6, perModel: true }, 8),
  ...[8, 4].map((probes) =>
    twins(
      'similarity 0.7, candidate merges the two weakly distinct',
      { twinSimilarity: 0.7 },
      probes,
      {
        kind: 'known effect',
        candidate: [0, 1, 2, 2],
        merged: [2, 3],
      },
    ),
  ),
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
  /** Pools per assistant and probe, when the scenario writes answers that way. */
  pools: { words: Pools; settings: PoolSettings } | null;
  twins: { pools: TwinPools; settings: TwinSettings } | null;
}

function answerText(source: Source, a: number, p: number, draw: Draw): string {
  const slot = source.voices[a] ?? a;
  if (source.twins) return twinAnswer(source.twins.pools, slot, p, source.twins.settings, draw);
  if (source.pools) {
    const { words, settings } = source.pools;
    const share = settings.poolShares?.[slot] ?? settings.poolShare;
    return poolAnswer(words, slot, p, settings, draw, share);
  }
  return answer(source.words, slot, p, source.settings, draw, source.drafts);
}

function records(model: string, source: Source, draw: Draw): PersonasCallRecord[] {
  const out: PersonasCallRecord[] = [];
  const { catalogue, samples } = source;
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
          text: answerText(source, a, p, draw),
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

/**
 * The candidate's own pools, where the scenario gives each model its own: drawn from the same
 * settings, with the baseline's common words unless the models differ in those too.
 */
function candidatePools(
  scenario: PersonasScenario,
  baseline: Source['pools'],
  draw: Draw,
): Partial<Pick<Source, 'pools'>> {
  if (!scenario.pools || !baseline) return {};
  const slots = baseline.words.pools.length;
  const probes = baseline.words.pools[0]?.length ?? 0;
  const words = drawPools(slots, probes, scenario.pools, draw, slots > 1 ? [0, 1] : null);
  return {
    pools: {
      words:
        scenario.poolsPerModel === 'pools and common words'
          ? words
          : { ...words, common: baseline.words.common },
      settings: scenario.pools,
    },
  };
}

/** The run's vocabularies and drafts: drawn once, the same for both models. */
function runSources(scenario: PersonasScenario, ctx: CheckContext<BuiltInConfig>, draw: Draw) {
  const settings = scenario.voices;
  const probes = scenario.probes ?? PROBES;
  const catalogue = catalogueOf(scenario.baseline.length, probes);
  const voiceCount = Math.max(...scenario.baseline, ...scenario.candidate) + 1;
  const words = vocabularies(voiceCount, probes, settings, draw);
  const pools = scenario.pools
    ? {
        words: drawPools(voiceCount, probes, scenario.pools, draw, voiceCount > 1 ? [0, 1] : null),
        settings: scenario.pools,
      }
    : null;
  const twinSettings = scenario.twins;
  const twins = twinSettings
    ? { pools: drawTwinPools(voiceCount, probes, twinSettings, draw), settings: twinSettings }
    : null;
  const common = {
    catalogue,
    samples: ctx.config.personas.samples,
    words,
    drafts: drafts(words, settings, draw),
    settings,
    pools,
    twins,
  };
  const own = scenario.pools && scenario.poolsPerModel ? candidatePools(scenario, pools, draw) : {};
  const ownTwins =
    twinSettings?.perModel === true
      ? {
          twins: {
            pools: drawTwinPools(voiceCount, probes, twinSettings, draw),
            settings: twinSettings,
          },
        }
      : {};
  return {
    catalogue,
    baseline: { ...common, voices: scenario.baseline },
    candidate: { ...common, ...own, ...ownTwins, voices: scenario.candidate },
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
  const section = foldRecords(personasCheck.fold, log, sources.catalogue, ctx);
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
  const lastNight = foldRecords(
    personasCheck.fold,
    records('base', sources.baseline, draw),
    sources.catalogue,
    ctx,
  );
  const tonight = foldRecords(
    personasCheck.fold,
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
  scenarios: readonly PersonasScenario[] = [
    ...SCENARIOS,
    ...LOOK_ALIKE_SCENARIOS,
    ...LOOK_ALIKE_POOL_SCENARIOS,
    ...LOOK_ALIKE_TWIN_SCENARIOS,
  ],
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
