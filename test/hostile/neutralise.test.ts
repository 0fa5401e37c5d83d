import { describe, expect, it } from 'vitest';
import { neutralise, neutraliseLines } from '../../src/text/neutralise.js';

describe('neutralise', () => {
  it('shows controls, bidi and invisible format characters as visible escapes', () => {
    expect(neutralise('a\x1b[2Jb\x07c\bd')).toBe('a\\u001B[2Jb\\u0007c\\u0008d');
    expect(neutralise('x\u202Eevil\u202C')).toBe('x\\u202Eevil\\u202C');
    expect(neutralise('\u2066\u2067\u2068\u2069\u200E\u200F\u061C')).toBe(
      '\\u2066\\u2067\\u2068\\u2069\\u200E\\u200F\\u061C',
    );
    expect(neutralise('a\u200Bb\u2060c\uFEFFd')).toBe('a\\u200Bb\\u2060c\\uFEFFd');
    expect(neutralise('\u0085\u009b')).toBe(' \\u009B');
    expect(neutralise('lone \uD800 half')).toBe('lone \\uD800 half');
  });

  it('keeps printable text, emoji joiners and ordinary scripts as they are', () => {
    const plain = 'qwen2.5:7b — Grüße, 東京, שלום, 👩‍💻, ‌ZWNJ';
    expect(neutralise(plain)).toBe(plain);
  });

  it('turns line breaks into spaces: a field never starts a line of its own', () => {
    expect(neutralise('a\r\nverdict: PASS\rb\u2028c\td')).toBe('a verdict: PASS b c d');
  });

  it('caps the length with an ellipsis, reading only the start of a huge text', () => {
    const huge = 'v'.repeat(400_000);
    const shown = neutralise(huge, 100);
    expect(shown).toBe(`${'v'.repeat(99)}…`);
    expect(neutralise('abc', 3)).toBe('abc');
    expect(neutralise('abcd', 3)).toBe('ab…');
    // Never half an escape, never half a surrogate pair.
    expect(neutralise('ab\u202Ecdef', 6)).toBe('ab…');
    expect(neutralise('a😀b', 3)).toBe('a…');
  });

  it('is idempotent', () => {
    const once = neutralise('\u202E\x1b]0;title\x07 ok', 30);
    expect(neutralise(once, 30)).toBe(once);
  });

  it('keeps the layout of a document and the JSON it may be', () => {
    const json = `${JSON.stringify({ model: 'm\u202E\u0085x' }, null, 2)}\n`;
    const safe = neutraliseLines(json);
    expect(safe).not.toBe(json);
    expect(neutraliseLines(safe)).toBe(safe);
    expect(JSON.parse(safe)).toEqual(JSON.parse(json));
    expect(neutraliseLines('a\n\tb @\u200Dx\u200By')).toBe('a\n\tb @\u200Dx\u200By');
    expect(neutraliseLines('a\rb')).toBe('a\\u000Db');
  });
});
