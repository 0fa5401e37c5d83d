import { z } from 'zod';

/** Parses "0-9" or "0-4,7,9" into a sorted list of distinct seeds. */
export function parseSeedRange(text: string): number[] | null {
  const seeds = new Set<number>();
  for (const part of text.split(',').map((p) => p.trim())) {
    const range = /^(\d+)\s*-\s*(\d+)$/.exec(part);
    if (range) {
      const from = Number(range[1]);
      const to = Number(range[2]);
      if (to < from || to - from > 100_000) return null;
      for (let s = from; s <= to; s++) seeds.add(s);
    } else if (/^\d+$/.test(part)) {
      seeds.add(Number(part));
    } else {
      return null;
    }
  }
  return seeds.size > 0 ? [...seeds].sort((a, b) => a - b) : null;
}

/** A list of seeds: a YAML list of integers, or a range string such as "0-9". */
export const seedListSchema = z.union(
  [
    z.array(z.number().int().min(0)).min(1),
    z.string().transform((text, ctx) => {
      const seeds = parseSeedRange(text);
      if (!seeds) {
        ctx.addIssue({ code: 'custom', message: 'expected a range such as "0-9" or "0-4,7"' });
        return z.NEVER;
      }
      return seeds;
    }),
  ],
  { error: 'expected a list of seeds such as [0, 1, 2] or a range such as "0-9"' },
);
