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
 * While requests are in flight speed is favoured again: there, memory is small and every
 * pause keeps slots idle (mixed job slot occupancy 0.947 with memory favoured throughout,
 * 0.957 without; bench/throughput.ts). Set from inside the process because the action is
 * started by the runner (`node dist/index.js`) with no way to pass engine flags. The setting
 * steers heuristics only: no result depends on it.
 */
import { setFlagsFromString } from 'node:v8';

let memoryFavoured = false;
let speedNow = false;

/** What the engine favours now (for messages and tests). */
export function engineFavours(): 'memory' | 'speed' | 'default' {
  return speedNow ? 'speed' : memoryFavoured ? 'memory' : 'default';
}

/** From now on the engine favours memory (for the rest of the process). */
export function favourMemory(): void {
  setFlagsFromString('--optimize-for-size');
  memoryFavoured = true;
}

/**
 * Runs `work` with speed favoured, then memory again if it was favoured before; a process
 * that never asked for memory (a library user, a test) is left as it is.
 */
export async function favouringSpeed<T>(work: () => Promise<T>): Promise<T> {
  if (!memoryFavoured) return work();
  setFlagsFromString('--no-optimize-for-size');
  speedNow = true;
  try {
    return await work();
  } finally {
    setFlagsFromString('--optimize-for-size');
    speedNow = false;
  }
}
