/**
 * Progress of a run, in model calls: done out of a total known from the start, rate and time
 * left. The total is the most the plan can make (maze games and adaptive sampling's later
 * stages counted at their bound) and never changes during the run, so the count never passes
 * it; where the likely count is smaller, it is shown beside it and the time left is reckoned
 * from it. In a terminal one line is redrawn in place; in CI logs (not a TTY) a plain line is
 * printed at the start, then at most every `intervalMs`, and once at the end, so a long run
 * neither floods the log nor goes silent.
 */
import { neutralise } from '../text/neutralise.js';
import { num } from '../text/format.js';

export interface ProgressSink {
  /**
   * The calls planned: `likely` the plan most likely makes, `most` it makes at most (the
   * total shown; the same as `likely` when omitted).
   */
  start(likely: number, most?: number): void;
  /** One call finished (after its retries); `label` says what is running, e.g. the model. */
  advance(label: string): void;
  /**
   * A unit ended with `calls` fewer calls than estimated (negative: more, or units a growing
   * plan added): the likely count follows, the total does not.
   */
  shrink?(calls: number): void;
  finish(): void;
}

export interface ProgressOptions {
  stream: { write(text: string): unknown };
  /** Redraw one line (a terminal) instead of printing lines. */
  interactive: boolean;
  /** Milliseconds since some origin; injectable for tests. */
  now?: () => number;
  intervalMs?: number;
  /** How often a terminal line is redrawn at most. */
  redrawMs?: number;
}

export const silentProgress: ProgressSink = {
  start() {},
  advance() {},
  finish() {},
};

export function createProgress(options: ProgressOptions): ProgressSink {
  const now = options.now ?? (() => performance.now());
  const intervalMs = options.intervalMs ?? 10_000;
  const redrawMs = options.redrawMs ?? 100;
  const count: ProgressCount = { done: 0, likely: 0, most: 0 };
  let label = '';
  let startedAt = 0;
  let lastPrinted = Number.NEGATIVE_INFINITY;
  let drewLine = false;
  let nothingToDo = false;

  const print = (): void => {
    const line = formatProgress(count, now() - startedAt, label);
    if (options.interactive) {
      options.stream.write(`\r${line}\x1b[K`);
      drewLine = true;
    } else {
      options.stream.write(`${line}\n`);
    }
    lastPrinted = now();
  };

  return {
    start(likely, most = likely) {
      count.done = 0;
      count.likely = likely;
      count.most = Math.max(likely, most);
      startedAt = now();
      nothingToDo = count.most === 0;
      if (nothingToDo) {
        // A resumed run whose log already holds everything: one line, not "0/0 calls" twice.
        options.stream.write(
          'model-gate: nothing to ask: every call of the plan is in the sample log\n',
        );
        return;
      }
      // The plan's size goes out at once, so a CI log shows what the run will do.
      print();
    },
    advance(what) {
      count.done++;
      label = what;
      if (now() - lastPrinted >= (options.interactive ? redrawMs : intervalMs)) print();
    },
    shrink(calls) {
      count.likely = Math.min(count.most, Math.max(count.done, count.likely - calls));
    },
    finish() {
      if (nothingToDo && count.done === 0) return;
      print();
      if (options.interactive && drewLine) options.stream.write('\n');
    },
  };
}

/** Calls made, likely in all, and at most in all (the total shown, fixed at the start). */
export interface ProgressCount {
  done: number;
  likely: number;
  most: number;
}

/**
 * "120/400 calls (30%), 2.1/s, about 2m13s left, qwen2.5:7b" when the plan's size is known;
 * "120 of up to 9600 calls (about 4400 expected), 2.1/s, about 2m13s left, qwen2.5:7b" when
 * it is only bounded.
 */
export function formatProgress(count: ProgressCount, elapsedMs: number, label: string): string {
  const { done, most } = count;
  const likely = Math.min(most, Math.max(done, count.likely));
  const parts =
    likely === most
      ? [`${done}/${most} calls (${most === 0 ? 100 : Math.floor((100 * done) / most)}%)`]
      : [`${done} of up to ${most} calls${done < likely ? ` (about ${likely} expected)` : ''}`];
  if (done > 0 && elapsedMs > 0) {
    const rate = done / (elapsedMs / 1000);
    parts.push(`${num(rate, rate >= 10 ? 0 : 1)}/s`);
    if (done < likely) parts.push(`about ${formatDuration((likely - done) / rate)} left`);
  }
  // The label is a model name: outside text, on a line redrawn with a carriage return.
  if (label) parts.push(neutralise(label, 80));
  return `model-gate: ${parts.join(', ')}`;
}

export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
