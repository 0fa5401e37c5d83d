/**
 * What a unit is expected to cost, in model calls: the measure shards are balanced on and
 * the run order is sorted by.
 */
import type { WorkUnit } from '../checks/workUnit.js';

/** The calls a unit most likely makes: its estimate, else its expected (upper-bound) count. */
export function estimatedCalls(unit: WorkUnit): number {
  return Math.max(0, unit.estimatedCalls ?? unit.expectedCalls);
}

/**
 * Longest first: a long maze game started last finishes alone while the other slots stay
 * idle. Use with a stable sort so equal units keep their plan order.
 */
export function longestFirst(a: WorkUnit, b: WorkUnit): number {
  return estimatedCalls(b) - estimatedCalls(a);
}
