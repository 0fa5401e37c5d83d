/**
 * How fast a simulated model is: decode and prompt rates, load time, answer length, memory,
 * per-request noise and a server that slows down over the run. A model's optional `timing`
 * block (docs/simulator.md has the table):
 *
 *   timing:
 *     decode-tps: 40        # answer tokens per second
 *     prompt-tps: 400       # prompt tokens per second
 *     load-ms: 1500         # load time reported by the first request after a (re)load
 *     length-factor: 2      # answers this many times longer in tokens (1 or more)
 *     size: 5000000000      # bytes /api/ps reports
 *     size-vram: 3000000000 # of which in GPU memory (less than size: partly offloaded)
 *     sigma: 0.25           # SD of the lognormal noise on each duration
 *     drift: 0.3            # durations grow by this share over the run...
 *     drift-requests: 400   # ...linearly over this many requests of every model, or
 *     drift-seconds: 600    # ...over this much modelled server time
 *     sleep: false          # true: the request also takes the modelled time
 *
 * Durations are modelled, not measured: without `sleep` a request returns at once and only its
 * timing fields say how long it would have taken, so tests of the gate's arithmetic stay fast.
 * Drift is a property of the server: its progress counts the requests (or modelled seconds) of
 * every model, so an identical pair timed one model after the other sees the later one slower.
 */
import { z } from 'zod';
import { normalQuantile } from '../stats/normal.js';
import { createRng, seedFromText } from '../stats/prng.js';

const DEFAULT_SIZE = 1_000_000;
/** Drift with neither span given runs over this many requests. */
const DEFAULT_DRIFT_REQUESTS = 1000;

const positive = z.number().finite().positive();

export const timingSchema = z
  .object({
    decodeTps: positive.default(50),
    promptTps: positive.default(500),
    loadMs: z.number().finite().min(0).optional(),
    lengthFactor: z
      .number()
      .finite()
      .min(1, 'expected 1 or more (answers are padded, never cut)')
      .max(100)
      .default(1),
    size: z.number().int().positive().default(DEFAULT_SIZE),
    sizeVram: z.number().int().min(0).optional(),
    sigma: z.number().finite().min(0).max(3).default(0),
    drift: z.number().finite().min(-0.9).max(10).default(0),
    driftRequests: z.number().int().positive().optional(),
    driftSeconds: positive.optional(),
    sleep: z.boolean().default(false),
  })
  .strict()
  .refine((s) => s.driftRequests === undefined || s.driftSeconds === undefined, {
    message: 'give drift-requests or drift-seconds, not both',
    path: ['driftSeconds'],
  })
  .refine((s) => s.sizeVram === undefined || s.sizeVram <= s.size, {
    message: 'size-vram cannot exceed size',
    path: ['sizeVram'],
  });

export type TimingParams = z.infer<typeof timingSchema>;

/** Bytes /api/ps reports for a model: all in GPU memory unless its timing block says less. */
export function residency(params: TimingParams | null): { size: number; sizeVram: number } {
  const size = params?.size ?? DEFAULT_SIZE;
  return { size, sizeVram: params?.sizeVram ?? size };
}

/** The server's own clock, shared by every model: what drift advances with. */
export interface ServerClock {
  /** Generation requests that got a slot so far. */
  requests: number;
  /** Modelled busy time so far, in seconds, spread over the parallel slots. */
  seconds: number;
}

/** Durations of one reply, in whole nanoseconds as Ollama reports them. */
export interface ReplyTiming {
  loadNs: number;
  promptNs: number;
  evalNs: number;
  totalNs: number;
}

export interface TimedRequest {
  params: TimingParams;
  promptTokens: number;
  completionTokens: number;
  /** Whether this request (re)loaded the model. */
  loaded: boolean;
  /** Load time of the scenario, used when the block gives none. */
  scenarioLoadMs: number;
  /** Seeds the noise: the scenario seed, the model and the request with its attempt. */
  noiseKey: string;
}

/**
 * The modelled timing of a request, and the clock advanced past it. The drift factor is read
 * before the request counts, so the first request of a run is at nominal speed.
 */
export function timeRequest(
  request: TimedRequest,
  clock: ServerClock,
  parallel: number,
): ReplyTiming {
  const { params } = request;
  const slowdown = 1 + params.drift * driftProgress(params, clock);
  const rng = createRng(seedFromText(request.noiseKey));
  const noise = (): number => Math.exp(params.sigma * standardNormal(rng.next()));
  const promptNs = Math.round((request.promptTokens / params.promptTps) * 1e9 * noise() * slowdown);
  const evalNs = Math.round(
    (request.completionTokens / params.decodeTps) * 1e9 * noise() * slowdown,
  );
  const loadMs = request.loaded ? (params.loadMs ?? request.scenarioLoadMs) : 0;
  const loadNs = Math.round(loadMs * 1e6);
  const totalNs = loadNs + promptNs + evalNs;
  clock.requests++;
  clock.seconds += totalNs / 1e9 / parallel;
  return { loadNs, promptNs, evalNs, totalNs };
}

/** Share of the drift reached, 0 at the start of the run and 1 once its span has passed. */
function driftProgress(params: TimingParams, clock: ServerClock): number {
  if (params.drift === 0) return 0;
  const done =
    params.driftSeconds !== undefined
      ? clock.seconds / params.driftSeconds
      : clock.requests / (params.driftRequests ?? DEFAULT_DRIFT_REQUESTS);
  return Math.min(1, done);
}

/** A uniform draw in [0, 1) as a standard normal one; 0 is nudged inside the open interval. */
function standardNormal(u: number): number {
  return normalQuantile(u === 0 ? 2 ** -33 : u);
}

/**
 * The answer made `factor` times longer in tokens (4 characters a token, as the simulator
 * counts them) without changing what any grader reads: the padding is whitespace after the
 * answer, which JSON parsers skip and graders trim — a model rambling in blank lines, as a
 * model held to a JSON grammar does. It never runs past `budgetChars`, the request's token
 * budget, so the reply's done reason stays what the answer alone gives.
 */
export function padAnswer(content: string, factor: number, budgetChars: number | null): string {
  if (factor === 1 || content === '') return content;
  const tokens = Math.ceil(content.length / 4);
  let target = Math.round(tokens * factor) * 4;
  if (budgetChars !== null) target = Math.min(target, budgetChars);
  if (target <= content.length) return content;
  return `${content}\n${' '.repeat(target - content.length - 1)}`;
}
