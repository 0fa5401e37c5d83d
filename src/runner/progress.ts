/**
 * Progress of a run, in model calls: done/total, rate and time left. In a terminal one line
 * is redrawn in place; in CI logs (not a TTY) a plain line is printed at the start, then at
 * most every `intervalMs`, and once at the end, so a long run neither floods the log nor
 * goes silent.
 */
import { neutralise } from '../text/neutralise.js';
import { num } from '../text/format.js';

export interface ProgressSink {
  /** The number of calls planned (an estimate when units make a variable number of calls). */
  start(total: number): void;
  /** One call finished (after its retries); `label` says what is running, e.g. the model. */
  advance(label: string): void;
  /**
   * A unit ended with `calls` fewer calls than estimated (negative: more), e.g. a maze game
   * shorter or longer than expected: the total follows, so a finished run reads 100%.
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
  let total = 0;
  let done = 0;
  let label = '';
  let startedAt = 0;
  let lastPrinted = Number.NEGATIVE_INFINITY;
  let drewLine = false;
  let nothingToDo = false;

  const print = (): void => {
    const line = formatProgress(done, total, now() - startedAt, label);
    if (options.interactive) {
      options.stream.write(`\r${line}\x1b[K`);
      drewLine = true;
    } else {
      options.stream.write(`${line}\n`);
    }
    lastPrinted = now();
  };

  return {
    start(planned) {
      total = planned;
      done = 0;
      startedAt = now();
      nothingToDo = planned === 0;
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
      done++;
      label = what;
      if (now() - lastPrinted >= (options.interactive ? redrawMs : intervalMs)) print();
    },
    shrink(calls) {
      total = Math.max(done, total - calls);
    },
    finish() {
      if (nothingToDo && done === 0) return;
      print();
      if (options.interactive && drewLine) options.stream.write('\n');
    },
  };
}

/** "120/400 calls (30%), 2.1/s, about 2m13s left, qwen2.5:7b" */
export function formatProgress(
  done: number,
  total: number,
  elapsedMs: number,
  label: string,
): string {
  const shownTotal = Math.max(total, done);
  const share = shownTotal === 0 ? 100 : Math.floor((100 * done) / shownTotal);
  const parts = [`${done}/${shownTotal} calls (${share}%)`];
  if (done > 0 && elapsedMs > 0) {
    const rate = done / (elapsedMs / 1000);
    parts.push(`${num(rate, rate >= 10 ? 0 : 1)}/s`);
    if (done < shownTotal) parts.push(`about ${formatDuration((shownTotal - done) / rate)} left`);
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
