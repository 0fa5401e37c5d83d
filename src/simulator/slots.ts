/**
 * Parallel generation slots, as Ollama has them (OLLAMA_NUM_PARALLEL): at most `parallel`
 * requests generate at once, the rest wait in arrival order, and once `maxQueue` are waiting
 * a new request is refused (the server answers 503). A waiter whose client went away leaves
 * the queue without taking a slot.
 */

export class QueueFull extends Error {
  constructor() {
    super('server busy, please try again.  maximum pending requests exceeded');
    this.name = 'QueueFull';
  }
}

export class Slots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];
  /** Most slots ever in use at once (benchmarks and tests read it). */
  maxBusy = 0;
  private busySlotMs = 0;
  private changedAt = 0;
  private firstGrantAt: number | null = null;
  private lastReleaseAt: number | null = null;

  constructor(
    private readonly parallel: number,
    private readonly maxQueue: number,
  ) {}

  /** Resolves with a release function once a slot is free; rejects with QueueFull or on abort. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (this.busy < this.parallel) return Promise.resolve(this.take());
    if (this.waiting.length >= this.maxQueue) return Promise.reject(new QueueFull());
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal.reason);
      };
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(this.take());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  /**
   * Slot time spent holding requests, and the span from the first grant to the last release:
   * their ratio over `parallel` is how busy a client kept the server (benchmarks read it).
   */
  usage(): { busySlotMs: number; spanMs: number } {
    const span =
      this.firstGrantAt === null || this.lastReleaseAt === null
        ? 0
        : this.lastReleaseAt - this.firstGrantAt;
    return { busySlotMs: this.busySlotMs, spanMs: span };
  }

  private account(): void {
    const now = performance.now();
    if (this.busy > 0) this.busySlotMs += this.busy * (now - this.changedAt);
    this.changedAt = now;
  }

  private take(): () => void {
    this.account();
    this.firstGrantAt ??= this.changedAt;
    this.busy++;
    this.maxBusy = Math.max(this.maxBusy, this.busy);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.account();
      this.lastReleaseAt = this.changedAt;
      this.busy--;
      const next = this.waiting.shift();
      if (next) next();
    };
  }
}
