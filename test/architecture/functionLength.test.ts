/**
 * No function in `src/` longer than 80 lines, counted from its first line to its last:
 * declarations, methods, constructors, accessors, arrow functions and function expressions.
 * A nested function is measured on its own, and its lines also count in the function around it.
 */
import { describe, expect, it } from 'vitest';
import { functionSpans, sourceFiles } from './sourceGraph.js';

const MAX_LINES = 80;

/**
 * Functions still over the limit, as `file:name`, each with the change that shortens it. The
 * list only shrinks: an entry whose function is now short enough (or gone) fails the test until
 * it is deleted here.
 */
const KNOWN_LONG_FUNCTIONS: Readonly<Record<string, string>> = {};

describe('function length in src/', () => {
  const spans = sourceFiles().flatMap((file) => functionSpans(file));
  const long = spans.filter((span) => span.lines > MAX_LINES);

  it(`has no function over ${MAX_LINES} lines`, () => {
    const known = new Set(Object.keys(KNOWN_LONG_FUNCTIONS));
    const unknown = long
      .filter((span) => !known.has(`${span.file}:${span.name}`))
      .map((span) => `${span.file}:${span.line} ${span.name} (${span.lines} lines)`);
    expect(unknown).toEqual([]);
    const present = new Set(long.map((span) => `${span.file}:${span.name}`));
    expect(
      [...known].filter((fn) => !present.has(fn)),
      'fixed: delete from KNOWN_LONG_FUNCTIONS',
    ).toEqual([]);
  });

  it('measures every kind of function, nested ones on their own', () => {
    const text = [
      'export function outer(): number {', //   1
      '  const inner = (x: number) => {', //     2
      '    return x + 1;', //                     3
      '  };', //                                  4
      '  return inner(1);', //                    5
      '}', //                                     6
      'class Box {', //                           7
      '  constructor(readonly v: number) {}', //  8
      '  get twice(): number {', //               9
      '    return this.v * 2;', //               10
      '  }', //                                  11
      '  method(): void {', //                   12
      '    [1].map(function (y) { return y; });', // 13
      '  }', //                                  14
      '}', //                                    15
      'declare function bodiless(): void;', //   16
    ].join('\n');
    expect(functionSpans('toy.ts', text).map((span) => [span.name, span.line, span.lines])).toEqual(
      [
        ['outer', 1, 6],
        ['inner', 2, 3],
        ['constructor', 8, 1],
        ['twice', 9, 3],
        ['method', 12, 3],
        ['(anonymous)', 13, 1],
      ],
    );
  });

  it('reads the whole of src/', () => {
    expect(spans.length).toBeGreaterThan(500);
    expect(spans.map((span) => `${span.file}:${span.name}`)).toContain(
      'stats/wilson.ts:wilsonInterval',
    );
  });
});
