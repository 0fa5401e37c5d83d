/**
 * The scheduler: runs the queued units model by model (model-major: all of a model's ready
 * units in one series, one load per series), `concurrency` units at a time, and appends each
 * record to the log. A plan may grow as answers arrive (adaptive sampling's later stages):
 * units it adds for the model whose series runs join that series at once, so the slots stay
 * busy; units for another model wait for that model's next series. Series alternate over the
 * models until no unit is left.
 *
 * With `blocks` above 1, each model's units run in that many series instead, the models'
 * series alternating (baseline block 1, candidate block 1, baseline block 2, …): the same
 * items sit in the same block for both models (one plan order), so a server that warms up or
 * slows down over the run shifts both models' times alike instead of the later model's. Each
 * block after a model's first costs a warm-up: a run too small for those to stay within
 * BLOCK_WARMUP_SHARE of its calls gets fewer blocks (one: model-major), and says so. Units a
 * growing plan adds after a model's last block run as without blocks, joining its series.
 *
 * Series never overlap, even at a series' tail: on an Ollama server that cannot hold both
 * models, a request for the next model waits for a load under an ordinary request's timeout
 * (only the warm-up allows for a load), and the end-of-series digest check would no longer
 * close the series. The tail is kept short instead: every unit of several calls (a maze game,
 * whose moves wait for each other) starts with the series and its calls go before single
 * calls, so no game that the estimates placed last is left running alone at the end; single
 * calls fill the slots the games leave free.
 */

import type { PlanGrowth, UnitContext, WorkUnit } from '../checks/workUnit.js';
import type { InfrastructureError } from '../errors.js';
import { estimatedCalls, longestFirst } from '../plan/cost.js';
import type { PendingUnit, ResumePlan } from '../plan/resumePlan.js';
import { checkRecordBelongs } from '../plan/unitRecords.js';
import { type Provider, ProviderFailure, type SeriesHygiene } from '../providers/types.js';
import type { SampleRecord } from '../sampleLog/index.js';
import { isCall } from '../sampleLog/schema.js';
import { type CallPolicy, RunCancelled, ServerLost } from './callPolicy.js';
import {
  modelChanged,
  type Residency,
  residencyOf,
  runningEntry,
  seriesHygiene,
  type Warn,
  warmUp,
} from './preflight.js';
import type { ProgressSink } from './progress.js';

/** Most warm-ups the blocks may add, as a share of the calls the plan expects. */
const BLOCK_WARMUP_SHARE = 0.05;

export interface SchedulerOptions {
  provider: Provider;
  models: readonly string[];
  concurrency: number;
  warmup: boolean;
  numCtx: number;
  warmupTimeoutMs: number;
  unloadOthers: boolean;
  signal: AbortSignal;
  progress: ProgressSink;
  policy: CallPolicy;
  resume: ResumePlan;
  log: { append(record: SampleRecord): void };
  warn: Warn;
  onSeries?: (model: string | null) => void;
  growth?: PlanGrowth;
  /** False: `emitted` and `carried` stay empty (a job reads the log again to analyse it). */
  keepRecords?: boolean;
  /** Series per model, alternating with the other models' (default 1: model-major). */
  blocks?: number;
  /** True: each call record carries where its model sat during the series (/api/ps). */
  residency?: boolean;
}

/** Model calls of a plan: those it most likely makes, and those it makes at most. */
export interface PlannedCalls {
  likely: number;
  most: number;
}

export class Scheduler {
  /** Records this run wrote. */
  readonly emitted: SampleRecord[] = [];
  /** Records of the plan's units already in the log, final or not. */
  readonly carried: SampleRecord[] = [];
  readonly series: SeriesHygiene[] = [];
  readonly units = { planned: 0, skipped: 0, executed: 0 };
  unitFailure: unknown = null;
  changed: InfrastructureError | null = null;
  private readonly queues = new Map<string, PendingUnit[]>();
  /** Units added, per check and model: their own key strings, none made per unit. */
  private readonly seen = new Map<string, Set<string>>();
  private readonly waiting: (() => void)[] = [];
  /** The running series' residency, asked once, at its first record (the model is loaded). */
  private residency: Promise<Residency | null> | null = null;
  /** Calls per series of each model, fixed at its first series when `blocks` is above 1. */
  private readonly blockCalls = new Map<string, number>();
  /** Series of each model so far, while its blocks last. */
  private readonly blocksRun = new Map<string, number>();
  /** Series per model the run can afford (`start`), at most the `blocks` asked. */
  private blocks = 1;
  private inFlight = 0;
  private readonly slots: CallSlots;

  constructor(private readonly options: SchedulerOptions) {
    this.slots = new CallSlots(options.concurrency);
  }

  /**
   * Adds units to the plan: those the log completes are skipped (and their answers shown to
   * the plan's growth), the others queued. Returns the calls the queued units are expected to
   * make, and make at most. A unit added twice is ignored.
   */
  add(units: readonly WorkUnit[]): PlannedCalls {
    const calls = { likely: 0, most: 0 };
    const answered: SampleRecord[] = [];
    for (const unit of units) {
      if (this.isSeen(unit)) continue;
      const state = this.options.resume.resume(unit);
      if (this.options.keepRecords !== false) this.carried.push(...state.logged);
      this.units.planned++;
      if (state.complete) {
        this.units.skipped++;
        // Kept only for a plan that grows: a fixed plan's answers are not held.
        if (this.options.growth) answered.push(...state.prior);
        continue;
      }
      const queue = this.queues.get(unit.model) ?? [];
      queue.push({ unit, prior: state.prior });
      this.queues.set(unit.model, queue);
      calls.likely += estimatedCalls(unit);
      calls.most += Math.max(0, unit.expectedCalls);
    }
    if (answered.length > 0 && this.options.growth) {
      const grown = this.add(this.options.growth.observe(answered));
      calls.likely += grown.likely;
      calls.most += grown.most;
    }
    this.wakeAll();
    return calls;
  }

  /**
   * Adds the plan's first units (see `add`). Returns the calls they make, and at most those
   * and every unit the plan may still add for them: a total the run never passes.
   */
  start(units: readonly WorkUnit[]): PlannedCalls {
    const calls = this.add(units);
    this.blocks = this.affordableBlocks(calls.likely);
    return { ...calls, most: calls.most + (this.options.growth?.mostCalls?.(units) ?? 0) };
  }

  /** The blocks asked, or fewer when their warm-ups would add too much to a small run. */
  private affordableBlocks(likely: number): number {
    const { blocks: asked = 1, warmup, models, warn } = this.options;
    if (asked <= 1 || !warmup) return asked;
    const extra = Math.floor((BLOCK_WARMUP_SHARE * likely) / models.length);
    const blocks = Math.min(asked, 1 + extra);
    if (blocks < asked) {
      warn(
        `each model's requests run in ${blocks === 1 ? 'one series' : `${blocks} blocks`} instead of ${asked} blocks: with a warm-up before each block, more would add over ${BLOCK_WARMUP_SHARE * 100}% to the ${likely} calls this run expects; the speed check's fitted trend still takes out the server's drift`,
      );
    }
    return blocks;
  }

  /** True when a unit of this check, model and key was added before; else marks it added. */
  private isSeen(unit: WorkUnit): boolean {
    const group = `${unit.check}\u0000${unit.model}`;
    const keys = this.seen.get(group) ?? new Set<string>();
    this.seen.set(group, keys);
    if (keys.has(unit.key)) return true;
    keys.add(unit.key);
    return false;
  }

  stopped(): boolean {
    const { policy, signal } = this.options;
    return (
      signal.aborted ||
      policy.serverLost !== null ||
      policy.modelLost !== null ||
      this.unitFailure !== null ||
      this.changed !== null
    );
  }

  /** Series after series until every queue is empty or the run stops. */
  async run(): Promise<void> {
    try {
      for (let ran = true; ran && !this.stopped(); ) {
        ran = false;
        for (const model of this.options.models) {
          if ((this.queues.get(model)?.length ?? 0) === 0 || this.stopped()) continue;
          ran = true;
          if (await this.runSeries(model)) return;
        }
      }
    } finally {
      this.options.onSeries?.(null);
    }
  }

  /** One series of a model; true when the model changed or the server failed at its end. */
  private async runSeries(model: string): Promise<boolean> {
    const { provider, models, signal, warn, policy } = this.options;
    const hygiene = await seriesHygiene(provider, model, models, this.options.unloadOthers, warn);
    this.series.push(hygiene);
    this.residency = null;
    this.options.onSeries?.(model);
    if (this.options.warmup) {
      await warmUp(
        provider,
        model,
        this.options.numCtx,
        this.options.warmupTimeoutMs,
        signal,
        warn,
      );
    }
    const all = this.queues.get(model) ?? [];
    // Longest units (maze games) first: they start at once, then single calls in plan order.
    all.sort((a, b) => longestFirst(a.unit, b.unit));
    const queue = this.block(model, all);
    const workers = Math.min(this.options.concurrency, queue.length);
    const chains: Promise<void>[] = [];
    await Promise.all(Array.from({ length: workers }, () => this.worker(queue, chains)));
    await Promise.all(chains);
    hygiene.contextLength = (await runningEntry(provider, model))?.contextLength ?? null;
    // The digest read before the run must still be the model's at the end of its series (or
    // when it answered "model missing"): otherwise some records came from other weights.
    if (signal.aborted || policy.serverLost !== null || this.unitFailure !== null) return false;
    const found = await modelChanged(provider, model, this.options.resume.digest(model));
    if (found instanceof ProviderFailure) policy.serverLost ??= found;
    else this.changed = found;
    return found !== null;
  }

  /**
   * The units of this series: the whole queue, or with `blocks` its next block (units the
   * answers add wait in the queue for the model's next series).
   */
  private block(model: string, queue: PendingUnit[]): PendingUnit[] {
    const ran = this.blocksRun.get(model) ?? 0;
    if (ran >= this.blocks - 1) return queue;
    this.blocksRun.set(model, ran + 1);
    // Blocks of about equal calls, not units: the maze games, which go first, would otherwise
    // make the first block most of the run and its two models' turns far apart.
    const size =
      this.blockCalls.get(model) ??
      Math.ceil(queue.reduce((sum, p) => sum + estimatedCalls(p.unit), 0) / this.blocks);
    this.blockCalls.set(model, size);
    let taken = 0;
    for (let calls = 0; taken < queue.length && (taken === 0 || calls < size); taken++) {
      calls += estimatedCalls((queue[taken] as PendingUnit).unit);
    }
    return queue.splice(0, taken);
  }

  /**
   * Takes units off the queue: a unit of several calls is started and left to run (its calls
   * wait for slots), a single call is run to its end. Waits while others run, since they may
   * add more.
   */
  private async worker(queue: PendingUnit[], chains: Promise<void>[]): Promise<void> {
    while (!this.stopped()) {
      const next = queue.shift();
      if (next && isChain(next.unit)) {
        chains.push(this.started(next));
      } else if (next) {
        await this.started(next);
      } else if (this.inFlight === 0) {
        return;
      } else {
        await new Promise<void>((resolve) => this.waiting.push(resolve));
      }
    }
  }

  private async started(next: PendingUnit): Promise<void> {
    this.inFlight++;
    try {
      await this.runUnit(next);
    } finally {
      this.inFlight--;
      this.wakeAll();
    }
  }

  private wakeAll(): void {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  private async runUnit({ unit, prior }: PendingUnit): Promise<void> {
    const { policy, log, progress } = this.options;
    const digest = this.options.resume.digest(unit.model);
    const written: SampleRecord[] = [];
    let made = 0;
    const chain = isChain(unit);
    if (chain) this.slots.chainStarted();
    const ctx: UnitContext = {
      prior,
      digest,
      signal: this.options.signal,
      call: async (spec) => {
        made++;
        await this.slots.take(chain);
        try {
          return await policy.call(spec, unit.model);
        } finally {
          this.slots.release(chain);
        }
      },
      embed: (model, texts) => this.options.provider.embed(model, [...texts]),
      emit: async (record) => {
        checkRecordBelongs(record, unit, digest);
        if (this.options.residency && isCall(record)) {
          this.residency ??= residencyOf(this.options.provider, unit.model);
          const residency = await this.residency;
          if (residency) record.residency = residency;
        }
        log.append(record);
        if (this.options.keepRecords !== false) this.emitted.push(record);
        written.push(record);
      },
    };
    try {
      await unit.execute(ctx);
      this.units.executed++;
      // Corrects the total by what the unit really made (fewer or more than estimated).
      progress.shrink?.(estimatedCalls(unit) - made);
    } catch (error) {
      if (error instanceof RunCancelled || error instanceof ServerLost) return;
      this.unitFailure ??= error;
      return;
    } finally {
      if (chain) this.slots.chainEnded();
    }
    if (this.options.growth && written.length > 0) {
      const added = this.add(this.options.growth.observe(written)).likely;
      if (added > 0) progress.shrink?.(-added);
    }
  }
}

/** A unit whose calls follow one another (a maze game's moves), as opposed to a single call. */
function isChain(unit: WorkUnit): boolean {
  return unit.expectedCalls > 1;
}

/**
 * The server's parallel slots as the run hands them out: at most `size` calls in flight. Every
 * chain under way (a maze game) has a slot kept for it, up to `size`, so its next move never
 * waits behind single calls; single calls take the slots left. With more games than slots the
 * games take turns move by move, in the order they asked: a long game advances from the start
 * of its series whatever its estimate said, and cannot be left to run alone at the end.
 */
class CallSlots {
  private chainsActive = 0;
  private chainCalls = 0;
  private singleCalls = 0;
  private readonly chains: (() => void)[] = [];
  private readonly singles: (() => void)[] = [];

  constructor(private readonly size: number) {}

  /** A chain starts: from now on a slot is kept for it. */
  chainStarted(): void {
    this.chainsActive++;
  }

  chainEnded(): void {
    this.chainsActive--;
    this.grant();
  }

  /** Resolves once the call may be sent. */
  take(chain: boolean): Promise<void> {
    return new Promise((resolve) => {
      (chain ? this.chains : this.singles).push(resolve);
      this.grant();
    });
  }

  release(chain: boolean): void {
    if (chain) this.chainCalls--;
    else this.singleCalls--;
    this.grant();
  }

  private grant(): void {
    const kept = Math.min(this.chainsActive, this.size);
    for (;;) {
      const free = this.size - this.chainCalls - this.singleCalls;
      if (free <= 0) return;
      const chain = this.chainCalls < kept ? this.chains.shift() : undefined;
      if (chain) {
        this.chainCalls++;
        chain();
        continue;
      }
      const single = this.singleCalls < this.size - kept ? this.singles.shift() : undefined;
      if (!single) return;
      this.singleCalls++;
      single();
    }
  }
}
