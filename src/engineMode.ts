/**
 * Whether the JavaScript engine favours memory or speed (V8's `--optimize-for-size`: with it,
 * the heap grows by the smallest step between full collections and freed pages are handed
 * back).
 *
 * The entry points favour memory (favourMemory.ts). A run's peak memory is set less by what
 * it holds than by when the engine collects: resuming and analysing a log of 150,000 records
 * holds about 50 MB, yet with the default heuristics the heap grew to three or four times that
 * before a full collection, and how far depended on the machine's speed (peak RSS 200–230 MB
 * from run to run on one machine; about 155 MB, steady, with memory favoured).
 *
 * While requests are in flight speed is favoured again, as long as the heap stays small:
 * there, every pause keeps slots idle (mixed job slot occupancy, medians: 0.947 with memory
 * favoured throughout, 0.950 without; bench/throughput.ts). Set from inside the process
 * because the action is started by the runner (`node dist/index.js`) with no way to pass
 * engine flags. The setting steers heuristics only: no result depends on it.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';

let memoryFavoured = false;
let speedNow = false;

/**
 * What the engine favours now (for messages and tests; a test reads it in a child process,
 * where the unused-code check cannot see it).
 * @public
 */
export function engineFavours(): 'memory' | 'speed' | 'default' {
  return speedNow ? 'speed' : memoryFavoured ? 'memory' : 'default';
}

/** From now on the engine favours memory (for the rest of the process). */
export function favourMemory(): void {
  setFlagsFromString('--optimize-for-size');
  memoryFavoured = true;
}

/** While requests run, speed is favoured until the heap holds this much (see favouringSpeed). */
const SPEED_HEAP_BUDGET_BYTES = 64 * 1024 * 1024;

export interface SpeedOptions {
  /** Heap in use above which memory is favoured again for the rest of the work. */
  budgetBytes?: number;
  /** How often the heap is looked at. */
  everyMs?: number;
}

/**
 * Runs `work` with speed favoured, then memory again if it was favoured before; a process
 * that never asked for memory (a library user, a test) is left as it is. Speed is favoured
 * only while the heap stays small: the engine's first full collection comes when the heap
 * reaches a limit set at start-up, not from what is live, so a run of 150,000 requests let
 * its garbage grow to 150 MB before one (peak RSS 261 MB). Past `budgetBytes` in use, memory
 * is favoured until the work ends (the same run: ~160 MB). A job of a few thousand requests
 * stays well under the budget and keeps speed throughout.
 */
export async function favouringSpeed<T>(
  work: () => Promise<T>,
  options: SpeedOptions = {},
): Promise<T> {
  if (!memoryFavoured) return work();
  const budget = options.budgetBytes ?? SPEED_HEAP_BUDGET_BYTES;
  setFlagsFromString('--no-optimize-for-size');
  speedNow = true;
  const backToMemory = (): void => {
    clearInterval(watch);
    if (!speedNow) return;
    setFlagsFromString('--optimize-for-size');
    speedNow = false;
  };
  const watch = setInterval(() => {
    if (getHeapStatistics().used_heap_size > budget) backToMemory();
  }, options.everyMs ?? 1000);
  watch.unref();
  try {
    return await work();
  } finally {
    backToMemory();
  }
}
