import { describe, expect, it } from 'vitest';
import {
  compileAnswerGrammar,
  gbnfLiteral,
  validateAnswer,
} from '../../../src/providers/embedded/schemaGrammar.js';
import { letterSchema, moveSchema } from './requests.js';

describe('answer grammar', () => {
  it('feeds the fixed start of a letter answer and leaves only the letter to choose', () => {
    const compiled = compileAnswerGrammar(letterSchema);
    expect(compiled.prefix).toBe('{"answer": "');
    expect(compiled.grammar).toBe('root ::= ("A" | "B" | "C" | "D") "\\"}"\n');
  });

  it('bounds a confidence in [0, 1] to 0, 1, 0.d{1,6} or 1.0{1,6}', () => {
    const compiled = compileAnswerGrammar(moveSchema);
    expect(compiled.prefix).toBe('{"move": "');
    expect(compiled.grammar).toBe(
      'root ::= ("up" | "down" | "left" | "right" | "pass") "\\", \\"confidence\\": " ' +
        '("0" ("." [0-9]{1,6})? | "1" ("." "0"{1,6})?) "}"\n',
    );
  });

  it('limits the digits of other numbers to their bounds and never allows an exponent', () => {
    const compiled = compileAnswerGrammar({
      type: 'object',
      properties: { n: { type: 'integer', minimum: 0, maximum: 250 } },
    });
    expect(compiled.grammar).toBe('root ::= (("0" | [1-9] [0-9]{0,2})) "}"\n');
    const free = compileAnswerGrammar({ type: 'object', properties: { x: { type: 'number' } } });
    expect(free.grammar).toBe('root ::= ("-"? ("0" | [1-9] [0-9]{0,14}) ("." [0-9]{1,6})?) "}"\n');
  });

  it('escapes literals for GBNF', () => {
    expect(gbnfLiteral('a"b\\c\n')).toBe('"a\\"b\\\\c\\n"');
  });

  it('rejects schemas outside the supported subset', () => {
    expect(() => compileAnswerGrammar({ type: 'array', items: {} })).toThrow(
      /\$: type "array" is not supported/,
    );
    expect(() => compileAnswerGrammar({ type: 'object', properties: {} })).toThrow(
      /at least one property/,
    );
  });

  it('validates parsed answers, including bounds a grammar does not carry', () => {
    expect(validateAnswer({ move: 'up', confidence: 0.8 }, moveSchema)).toEqual([]);
    expect(validateAnswer({ move: 'jump', confidence: 2 }, moveSchema)).toEqual([
      '$.move: expected one of "up", "down", "left", "right", "pass"',
      '$.confidence: 2 is above the maximum 1',
    ]);
    expect(validateAnswer({ move: 'up' }, moveSchema)).toEqual(['$.confidence: missing']);
    expect(validateAnswer({ answer: 'B' }, letterSchema)).toEqual([]);
  });
});
