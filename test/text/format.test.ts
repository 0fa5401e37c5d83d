import { describe, expect, it } from 'vitest';
import {
  errorMessage,
  interval,
  levelText,
  machineNumber,
  num,
  percent,
  plural,
  points,
  pValue,
  pValueFigures,
  seedRanges,
  signed,
  trimmed,
} from '../../src/text/format.js';

const MINUS = '\u2212';

describe('numbers for people', () => {
  it('writes negatives with the minus sign and never a signed zero', () => {
    expect(num(0.41234)).toBe('0.412');
    expect(num(-0.5)).toBe(`${MINUS}0.500`);
    expect(num(-0.0004)).toBe('0.000');
    expect(num(2.5, 0)).toBe('3');
    expect(num(null)).toBe('–');
    expect(num(Number.NaN)).toBe('–');
    expect(num(Number.POSITIVE_INFINITY)).toBe('–');
  });

  it('drops trailing zeros when asked', () => {
    expect(trimmed(2.5)).toBe('2.5');
    expect(trimmed(3)).toBe('3');
    expect(trimmed(-35.04)).toBe(`${MINUS}35`);
    expect(trimmed(0.125, 2)).toBe('0.13');
  });

  it('signs every change, and shows a change that rounds to zero as ±', () => {
    expect(signed(0.0123)).toBe('+0.012');
    expect(signed(-0.0123)).toBe(`${MINUS}0.012`);
    expect(signed(0.0004)).toBe('±0.000');
    expect(signed(-0.0004)).toBe('±0.000');
    expect(signed(undefined)).toBe('–');
  });

  it('writes shares as percentages and changes as signed points', () => {
    expect(percent(0.1234)).toBe('12.3%');
    expect(percent(-0.05, 0)).toBe(`${MINUS}5%`);
    expect(percent(0.25, 2, { trim: true })).toBe('25%');
    expect(percent(0.0025, 2, { trim: true })).toBe('0.25%');
    expect(points(0.028)).toBe('+2.8 pts');
    expect(points(-0.35)).toBe(`${MINUS}35.0 pts`);
    expect(points(0.0001)).toBe('±0.0 pts');
    expect(points(-0.1, 1, 'points')).toBe(`${MINUS}10.0 points`);
    expect(levelText(0.95)).toBe('95%');
    expect(levelText(0.975)).toBe('97.5%');
  });

  it('writes p-values in fixed digits from 0.001 and as exponents below', () => {
    expect(pValue(0.0312)).toBe('0.031');
    expect(pValue(0.0312, 4)).toBe('0.0312');
    expect(pValue(0.000042)).toBe(`4.2e${MINUS}5`);
    expect(pValue(0)).toBe('0.000');
    expect(pValueFigures(0.0023)).toBe('0.0023');
    expect(pValueFigures(0.43)).toBe('0.43');
    expect(pValueFigures(0.00004)).toBe(`4.0e${MINUS}5`);
  });

  it('writes intervals with the number format given', () => {
    expect(interval(-0.012, 0.3)).toBe(`[${MINUS}0.012, 0.300]`);
    expect(interval(0.1, null)).toBe('–');
    expect(interval(0.1, 0.2, (v) => percent(v, 0))).toBe('[10%, 20%]');
  });
});

describe('seed ranges', () => {
  it('sorts, merges and counts duplicates once', () => {
    // The unsorted list once read "3, 1–2".
    expect(seedRanges([3, 1, 2])).toBe('1–3');
    expect(seedRanges([9, 0, 1, 2, 12, 15, 16, 9])).toBe('0–2, 9, 12, 15–16');
    expect(seedRanges([4])).toBe('4');
    expect(seedRanges([])).toBe('');
  });
});

describe('counts and errors', () => {
  it('puts the noun in the plural from two and for none', () => {
    expect(plural(1, 'item')).toBe('1 item');
    expect(plural(0, 'item')).toBe('0 items');
    expect(plural(3, 'check could not be measured', 'checks could not be measured')).toBe(
      '3 checks could not be measured',
    );
  });

  it('extracts the message of anything thrown', () => {
    expect(errorMessage(new TypeError('boom'))).toBe('boom');
    expect(errorMessage('plain text')).toBe('plain text');
    expect(errorMessage(42)).toBe('42');
    expect(errorMessage(undefined)).toBe('undefined');
  });
});

describe('numbers for programs', () => {
  it('rounds, keeps the hyphen and leaves missing values empty', () => {
    expect(machineNumber(0.00043701996927686794, 4)).toBe('0.0004');
    expect(machineNumber(0.27549999, 4)).toBe('0.2755');
    expect(machineNumber(-1.5, 2)).toBe('-1.5');
    expect(machineNumber(-0.0001, 2)).toBe('0');
    expect(machineNumber(12, 4)).toBe('12');
    expect(machineNumber(null, 4)).toBe('');
    expect(machineNumber(Number.NaN, 4)).toBe('');
  });
});
