import { describe, expect, it } from 'vitest';
import { activeFaults } from '../../src/simulator/faults.js';
import type { Fault } from '../../src/simulator/scenario.js';

const request = (n: number, attempt = 1) => ({
  model: 'm:latest',
  requestHash: `hash-${n}`,
  arrival: n,
  attempt,
});

describe('activeFaults', () => {
  it('selects by arrival index and by attempt of an identical request', () => {
    const faults: Fault[] = [
      { kind: 'drop', midStream: false, rate: 1, requests: [2, 3] },
      { kind: 'status', status: 503, rate: 1, attempts: [1] },
    ];
    expect(activeFaults(faults, request(1), 0).map((f) => f.kind)).toEqual(['status']);
    expect(activeFaults(faults, request(2), 0).map((f) => f.kind)).toEqual(['drop', 'status']);
    expect(activeFaults(faults, request(4, 2), 0)).toEqual([]);
  });

  it('draws a rate with the scenario seed, independent of arrival order', () => {
    const faults: Fault[] = [{ kind: 'malformed-json', rate: 0.2 }];
    const hits = (seed: number) =>
      Array.from({ length: 2000 }, (_, n) => activeFaults(faults, request(n), seed).length);
    const share = hits(1).reduce((a, b) => a + b, 0) / 2000;
    // Binomial(2000, 0.2): sd = sqrt(2000·0.2·0.8)/2000 ≈ 0.0089; ±0.04 is about 4.5 sd.
    expect(share).toBeGreaterThan(0.16);
    expect(share).toBeLessThan(0.24);
    expect(hits(1)).toEqual(hits(1));
    expect(hits(2)).not.toEqual(hits(1));
    // The draw ignores arrival: the same request arriving 10th or 500th meets the same fate.
    const at = (arrival: number) => activeFaults(faults, { ...request(7), arrival }, 1).length;
    expect(at(10)).toBe(at(500));
  });
});
