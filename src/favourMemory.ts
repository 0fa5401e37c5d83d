/**
 * Imported first by both entry points, before any other module runs: the engine's heuristics
 * favour memory over speed for the whole process (V8's `--optimize-for-size`: the heap grows
 * by the smallest step between full collections, and freed pages are handed back).
 *
 * Why: a run's peak memory is set less by what it holds than by when the engine collects.
 * Resuming and analysing a log of 150,000 records holds about 50 MB, yet with the default
 * heuristics the heap grew to three times that before a full collection, and how far depended
 * on the machine's speed (peak RSS 200–230 MB on one machine from run to run). With this
 * setting: about 150 MB, steady, for ~5% more CPU time in the analysis and none measurable in
 * request throughput (bench/memory.ts, bench/throughput.ts; figures in docs/performance.md).
 *
 * Set from inside because the action is started by the runner (`node dist/index.js`), with no
 * way to pass engine flags. This flag only steers heuristics; it changes no result.
 */
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--optimize-for-size');
