import { describe, expect, it } from 'vitest';
import {
  defaultThreads,
  physicalCoresFromCpuinfo,
} from '../../../src/providers/embedded/threads.js';

// Two sockets × two cores × two hardware threads: 8 logical CPUs, 4 physical cores.
const cpuinfo = [0, 1, 2, 3, 4, 5, 6, 7]
  .map((cpu) => `processor\t: ${cpu}\nphysical id\t: ${cpu >> 2}\ncore id\t\t: ${(cpu >> 1) & 1}\n`)
  .join('\n');

describe('threads', () => {
  it('counts physical cores as distinct (socket, core) pairs', () => {
    expect(physicalCoresFromCpuinfo(cpuinfo)).toBe(4);
    expect(physicalCoresFromCpuinfo('processor: 0\n')).toBeNull();
  });

  it('defaults to physical cores, never above the CPUs available', () => {
    expect(defaultThreads(undefined, 8, 4)).toBe(4);
    expect(defaultThreads(undefined, 2, 4)).toBe(2);
    expect(defaultThreads(undefined, 6, null)).toBe(6);
    expect(defaultThreads(3, 8, 4)).toBe(3);
    expect(defaultThreads(64, 8, 4)).toBe(8);
  });
});
