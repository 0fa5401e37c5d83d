import { afterEach, describe, expect, it, vi } from 'vitest';
import { Slots } from '../../src/simulator/slots.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('Slots.usage', () => {
  it('integrates busy slots over time between the first grant and the last release', async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const slots = new Slots(2, 10);
    const signal = new AbortController().signal;
    const a = await slots.acquire(signal);
    vi.advanceTimersByTime(100); // one slot busy for 100 ms
    const b = await slots.acquire(signal);
    vi.advanceTimersByTime(50); // two slots for 50 ms
    a();
    vi.advanceTimersByTime(30); // one slot for 30 ms
    b();
    vi.advanceTimersByTime(1000); // idle after the last release: outside the span
    expect(slots.usage()).toEqual({ busySlotMs: 100 + 2 * 50 + 30, spanMs: 180 });
  });
});
