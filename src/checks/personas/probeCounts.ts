/**
 * A model's recognitions and crossings probe by probe, read from its attribution rows: what
 * the nightly test (Fisher and Bonferroni against a previous report) needs to shrink its
 * p-values by the probes' dispersion as the swap test does (tests.ts). Null when a section
 * carries no attribution rows, where the pooled counts are tested alone.
 */
import type { ProbeCount } from './jointAttribution.js';
import type { PersonasAssistant, PersonasModelResult } from './section.js';

export interface ProbeCounts {
  /** An assistant's answers attributed to itself or to a control declared on it. */
  recognised(name: string): ProbeCount[];
  /** Answers of a taken for b plus answers of b taken for a, of the two's answers. */
  crossing(a: string, b: string): ProbeCount[];
}

export function probeCounts(
  assistants: readonly PersonasAssistant[],
  model: PersonasModelResult,
): ProbeCounts | null {
  const rows = model.attributions ?? [];
  if (rows.length === 0) return null;
  const probes = rows.reduce((most, r) => Math.max(most, r.probe + 1), 0);
  // answers[assistant][probe] and attributed[assistant][to][probe].
  const answers = new Map<string, number[]>();
  const attributed = new Map<string, number[]>();
  const cell = (map: Map<string, number[]>, key: string) => {
    let counts = map.get(key);
    if (!counts) {
      counts = new Array<number>(probes).fill(0);
      map.set(key, counts);
    }
    return counts;
  };
  for (const r of rows) {
    const own = cell(answers, r.assistant);
    own[r.probe] = (own[r.probe] ?? 0) + 1;
    if (r.attributed === null) continue;
    const to = cell(attributed, `${r.assistant}\u0000${r.attributed}`);
    to[r.probe] = (to[r.probe] ?? 0) + 1;
  }
  const zero = new Array<number>(probes).fill(0);
  const answersOf = (name: string) => answers.get(name) ?? zero;
  const taken = (from: string, to: string) => attributed.get(`${from}\u0000${to}`) ?? zero;
  return {
    recognised(name) {
      const credited = [
        name,
        ...assistants.filter((a) => a.control?.of === name).map((a) => a.name),
      ];
      return answersOf(name).map((n, p) => ({
        hits: credited.reduce((sum, to) => sum + (taken(name, to)[p] ?? 0), 0),
        answers: n,
      }));
    },
    crossing(a, b) {
      return answersOf(a).map((n, p) => ({
        hits: (taken(a, b)[p] ?? 0) + (taken(b, a)[p] ?? 0),
        answers: n + (answersOf(b)[p] ?? 0),
      }));
    },
  };
}
