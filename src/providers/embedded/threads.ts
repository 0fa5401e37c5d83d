/**
 * How many threads llama.cpp gets on CPU. Matrix products saturate a core's vector units, so a
 * second hardware thread on the same core adds contention, not speed: the default is the
 * number of physical cores, never more, and never more than this process may run on.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * Physical cores from /proc/cpuinfo text: distinct (physical id, core id) pairs. Null when
 * the text does not say (other systems, some containers).
 */
export function physicalCoresFromCpuinfo(cpuinfo: string): number | null {
  const cores = new Set<string>();
  for (const block of cpuinfo.split(/\n\s*\n/)) {
    const physical = /^physical id\s*:\s*(\d+)/m.exec(block)?.[1];
    const core = /^core id\s*:\s*(\d+)/m.exec(block)?.[1];
    if (physical !== undefined && core !== undefined) cores.add(`${physical}:${core}`);
  }
  return cores.size > 0 ? cores.size : null;
}

function readPhysicalCores(): number | null {
  try {
    return physicalCoresFromCpuinfo(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return null;
  }
}

/**
 * Threads to use: the configured number, or the physical cores; capped by the CPUs this
 * process may use (affinity, container limits as Node reports them).
 */
export function defaultThreads(
  configured?: number,
  cpus: number = availableParallelism(),
  physical: number | null = readPhysicalCores(),
): number {
  const ceiling = Math.max(1, Math.min(cpus, physical ?? cpus));
  return configured === undefined ? ceiling : Math.max(1, Math.min(configured, cpus));
}
