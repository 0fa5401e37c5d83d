/**
 * Scenario files describe what the simulator serves: its models (name, digest, details,
 * latency, scripted behaviour blocks) and the faults it injects. Example, with every field:
 *
 *   seed: 7                      # all seeded draws (answers, fault rates) derive from it
 *   version: 0.12.6-simulated    # /api/version; always contains "simulated"
 *   parallel: 1                  # requests generated at once (OLLAMA_NUM_PARALLEL); others queue
 *   max-queue: 512               # queued requests beyond this get 503 server busy
 *   max-loaded: 1                # models kept loaded; using another one evicts the oldest
 *   load-ms: 0                   # time to load a model (first use, switch, num_ctx change)
 *   loaded: [other:7b]           # models /api/ps lists before any request
 *   faults: [...]                # faults for every model, same shape as a model's
 *   models:
 *     - name: demo-base:1b       # ":latest" is added when no tag is given
 *       digest: <64 hex>         # derived from the name when absent
 *       family: simulated
 *       parameter-size: 1B
 *       quantization-level: Q4_K_M
 *       context-length: 8192
 *       thinking: false          # capability: think=true is a 400 error when false
 *       latency-ms: 20           # time to generate one answer, holding a slot
 *       timing: {...}            # rates, size, noise, drift (src/simulator/timing.ts)
 *       churn: {...}             # a behaviour block, passed as written to that behaviour
 *       faults:
 *         - kind: status         # status | latency | slow-headers | drop | mid-stream-error
 *           status: 503          #   | malformed-json | thinking-only
 *           rate: 0.1            # chance per request (seeded); default 1
 *           requests: [1, 2]     # only this model's 1st and 2nd generation requests
 *           attempts: [1]        # only the first time an identical request arrives
 *
 * Structural keys are kebab-case; behaviour blocks are handed to their behaviour untouched
 * (their keys are often data, such as item ids, and must not be renamed).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { camelizeKeys, camelToKebab, displayPath, kebabToCamel } from '../config/keys.js';
import { MAX_CONFIG_BYTES, readLimitedFile } from '../config/limits.js';
import { lineOfPath, parseYamlDocument } from '../config/yaml.js';
import { InputError } from '../errors.js';
import { errorMessage } from '../text/format.js';
import type { Behaviour } from './behaviour.js';
import { BehaviourParamsError } from './behaviourParams.js';
import { behaviours as registeredBehaviours } from './behaviours/index.js';
import { type TimingParams, timingSchema } from './timing.js';

const selector = {
  rate: z.number().min(0).max(1).default(1),
  requests: z.array(z.number().int().min(1)).optional(),
  attempts: z.array(z.number().int().min(1)).optional(),
};

const faultSchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('status'),
      status: z.union([z.literal(400), z.literal(404), z.literal(500), z.literal(503)]),
      message: z.string().optional(),
      ...selector,
    })
    .strict(),
  z.object({ kind: z.literal('latency'), ms: z.number().int().min(0), ...selector }).strict(),
  z.object({ kind: z.literal('slow-headers'), ms: z.number().int().min(0), ...selector }).strict(),
  z
    .object({
      kind: z.literal('drop'),
      /** Drop after the first streamed chunk instead of before any byte. */
      midStream: z.boolean().default(false),
      ...selector,
    })
    .strict(),
  z
    .object({ kind: z.literal('mid-stream-error'), message: z.string().optional(), ...selector })
    .strict(),
  z.object({ kind: z.literal('malformed-json'), ...selector }).strict(),
  z.object({ kind: z.literal('thinking-only'), ...selector }).strict(),
]);
export type Fault = z.infer<typeof faultSchema>;

const modelSchema = z
  .object({
    name: z.string().trim().min(1),
    digest: z
      .string()
      .regex(/^(sha256:)?[0-9a-f]{64}$/, 'expected 64 lowercase hex digits')
      .optional(),
    family: z.string().min(1).default('simulated'),
    parameterSize: z.string().min(1).default('1B'),
    quantizationLevel: z.string().min(1).default('Q4_K_M'),
    contextLength: z.number().int().min(256).default(8192),
    thinking: z.boolean().default(false),
    latencyMs: z.number().int().min(0).default(0),
    timing: timingSchema.optional(),
    faults: z.array(faultSchema).default([]),
  })
  .strict();

const STRUCTURAL_MODEL_KEYS = Object.keys(modelSchema.shape).map(camelToKebab);

const scenarioSchema = z
  .object({
    seed: z.number().int().min(0).default(0),
    version: z
      .string()
      .regex(/simulated/, 'must contain "simulated" so nobody mistakes it for a real server')
      .default('0.12.6-simulated'),
    parallel: z.number().int().min(1).max(256).default(1),
    maxQueue: z.number().int().min(0).default(512),
    maxLoaded: z.number().int().min(1).default(1),
    /** Time a model takes to load, paid by the request that needs it loaded. */
    loadMs: z.number().int().min(0).default(0),
    loaded: z.array(z.string().min(1)).default([]),
    faults: z.array(faultSchema).default([]),
    models: z.array(z.unknown()).min(1, 'expected at least one model'),
  })
  .strict();

export interface SimulatedModel
  extends Omit<z.infer<typeof modelSchema>, 'digest' | 'timing' | 'faults'> {
  /** Full tag, e.g. "demo-base:1b" or "demo:latest". */
  name: string;
  /** 64 hex digits, without the "sha256:" prefix. */
  digest: string;
  /** Modelled timings and residency; null: the timing fields follow latency-ms as before. */
  timing: TimingParams | null;
  /** The model's own faults followed by the scenario-wide ones. */
  faults: Fault[];
  /** Behaviour name → its block as written in the scenario. */
  behaviours: Record<string, unknown>;
}

export interface Scenario extends Omit<z.infer<typeof scenarioSchema>, 'faults' | 'models'> {
  models: SimulatedModel[];
}

/** Ollama resolves "x" to "x:latest"; the simulator does the same. */
export function normaliseModelName(name: string): string {
  return name.includes(':') ? name : `${name}:latest`;
}

export function digestFromName(name: string): string {
  return createHash('sha256').update(`model-gate simulated model ${name}`).digest('hex');
}

export function loadScenario(
  file: string,
  knownBehaviours: readonly Behaviour[] = registeredBehaviours,
): Scenario {
  let bytes: Buffer | null;
  try {
    bytes = readLimitedFile(file, file, MAX_CONFIG_BYTES, 'scenario file');
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${file}: cannot read the scenario file`);
  }
  if (bytes === null) throw new InputError(`${file}: cannot read the scenario file (not found)`);
  const text = bytes.toString('utf8');
  return parseScenario(text, file, knownBehaviours);
}

/**
 * Parses scenario YAML; `name` is used in messages. Throws InputError naming line and field.
 * `knownBehaviours` are the block names a model may hold (tests pass their own).
 */
export function parseScenario(
  text: string,
  name = 'scenario',
  knownBehaviours: readonly Behaviour[] = registeredBehaviours,
): Scenario {
  const { doc, lineCounter } = parseYamlDocument(text, name);
  const raw: unknown = doc.toJS();
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new InputError(`${name}: expected a mapping with at least "models:"`);
  }
  const fail: Fail = (path, message) => {
    const line = lineOfPath(lineCounter, doc.contents, path);
    throw new InputError(`${name}: invalid scenario`, [
      `${line === null ? '' : `line ${line}: `}${displayPath(path)}: ${message}`,
    ]);
  };

  const top = scenarioSchema.safeParse(camelizeTopLevel(raw as Record<string, unknown>));
  if (!top.success) {
    const issue = top.error.issues[0];
    return fail(kebabPath(issue?.path ?? []), issue?.message ?? 'invalid value');
  }
  const { faults, models: entries, ...settings } = top.data;
  const seen = new Set<string>();
  const models = entries.map((entry, index) => {
    const model = parseModelEntry(entry, ['models', index], knownBehaviours, faults, fail);
    if (seen.has(model.name))
      fail(['models', index, 'name'], `model "${model.name}" is listed twice`);
    seen.add(model.name);
    return model;
  });

  return { ...settings, loaded: settings.loaded.map(normaliseModelName), models };
}

/** Throws the scenario's InputError for the value at `path`, naming its line. */
type Fail = (path: readonly (string | number)[], message: string) => never;

/** One `models:` entry: structural keys checked by the schema, behaviour blocks by their behaviour. */
function parseModelEntry(
  entry: unknown,
  at: readonly (string | number)[],
  knownBehaviours: readonly Behaviour[],
  scenarioFaults: readonly Fault[],
  fail: Fail,
): SimulatedModel {
  if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
    fail(at, 'expected a mapping with at least "name:"');
  }
  const behaviourNames = new Set(knownBehaviours.map((b) => b.name));
  const structural: Record<string, unknown> = {};
  const blocks: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry as Record<string, unknown>)) {
    if (STRUCTURAL_MODEL_KEYS.includes(key)) structural[key] = value;
    else if (behaviourNames.has(key)) blocks[key] = value;
    else {
      const known = [...STRUCTURAL_MODEL_KEYS, ...behaviourNames].join(', ');
      fail([...at, key], `unknown key (known: ${known})`);
    }
  }
  const parsed = modelSchema.safeParse(camelizeKeys(structural));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return fail([...at, ...kebabPath(issue?.path ?? [])], issue?.message ?? 'invalid value');
  }
  for (const behaviour of knownBehaviours) {
    if (!(behaviour.name in blocks) || !behaviour.validate) continue;
    try {
      behaviour.validate(blocks[behaviour.name]);
    } catch (error) {
      // A field named by the behaviour is located on its own line.
      if (error instanceof BehaviourParamsError)
        fail([...at, behaviour.name, ...error.path], error.problem);
      fail([...at, behaviour.name], errorMessage(error));
    }
  }
  const { digest, timing, faults, ...fields } = parsed.data;
  const name = normaliseModelName(fields.name);
  return {
    ...fields,
    name,
    digest: digest?.replace(/^sha256:/, '') ?? digestFromName(name),
    timing: timing ?? null,
    faults: [...faults, ...scenarioFaults],
    behaviours: blocks,
  };
}

/** Only the top level and faults are renamed; `models` entries are split first (see above). */
function camelizeTopLevel(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    const camel = kebabToCamel(key);
    out[camel] = camel === 'models' ? value : camelizeKeys(value);
  }
  return out;
}

function kebabPath(path: readonly PropertyKey[]): (string | number)[] {
  return path.map((s) => (typeof s === 'number' ? s : camelToKebab(String(s))));
}
