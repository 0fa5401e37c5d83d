/**
 * Reading a grader's options from the item: every key known to its type, typed, each problem
 * said in words. An option the type does not know is an error, not a warning: a misspelt
 * `keep-case` silently ignored would grade every answer differently from what was meant.
 */

export class GraderOptions {
  private readonly problemsBefore: number;

  constructor(
    readonly type: string,
    private readonly raw: Readonly<Record<string, unknown>>,
    known: readonly string[],
    readonly problems: string[],
  ) {
    this.problemsBefore = problems.length;
    const unknown = Object.keys(raw).filter((key) => key !== 'type' && !known.includes(key));
    for (const key of unknown) {
      problems.push(
        `grader ${type}: unknown option "${key}" (${known.length === 0 ? 'it takes none' : `expected ${known.join(', ')}`})`,
      );
    }
  }

  /** Whether no problem was found since these options were read. */
  get ok(): boolean {
    return this.problems.length === this.problemsBefore;
  }

  value(key: string): unknown {
    return this.raw[key];
  }

  problem(message: string): void {
    this.problems.push(`grader ${this.type}: ${message}`);
  }

  boolean(key: string, fallback: boolean): boolean {
    const value = this.raw[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'boolean') {
      this.problem(`${key} must be true or false, got ${JSON.stringify(value)}`);
      return fallback;
    }
    return value;
  }

  /** A non-negative finite number, or the fallback when absent. */
  amount(key: string, fallback: number): number {
    const value = this.raw[key];
    if (value === undefined || value === null) return fallback;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      this.problem(`${key} must be a number at or above 0, got ${JSON.stringify(value)}`);
      return fallback;
    }
    return value;
  }

  /** A list of non-empty strings (numbers read as their text), or null when absent. */
  texts(key: string): string[] | null {
    const value = this.raw[key];
    if (value === undefined || value === null) return null;
    const list = Array.isArray(value) ? value : [value];
    const texts = list.map((v) =>
      typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : null,
    );
    if (texts.some((t) => t === null || t.trim() === '')) {
      this.problem(`${key} must be a text or a list of non-empty texts`);
      return null;
    }
    return texts as string[];
  }
}
