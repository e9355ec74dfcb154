import { describe, expect, it } from 'vitest';
import { cleanProfile, NcaInputError } from '../../src/nca/clean.js';
import { backExtrapolatedC0, firstMaxIndex, lastPositiveIndex, tlag } from '../../src/nca/observed.js';

describe('cleanProfile', () => {
  it('passes a clean profile through unchanged', () => {
    const p = cleanProfile([0, 1, 2], [0, 3, 1]);
    expect(p.row).toBeNull();
    expect(p.time).toEqual([0, 1, 2]);
  });
  it('sorts by time and remembers the input rows', () => {
    const p = cleanProfile([2, 0, 1], [1, 0, 3]);
    expect(p.time).toEqual([0, 1, 2]);
    expect(p.conc).toEqual([0, 3, 1]);
    expect(Array.from(p.row!)).toEqual([1, 2, 0]);
  });
  it('drops and reports missing values and pre-dose samples; keeps zeros', () => {
    const p = cleanProfile([-1, 0, 1, 2, null, 4], [0.2, 0, NaN, 5, 1, 0]);
    expect(p.missing).toEqual([2, 4]);
    expect(p.predose).toEqual([0]);
    expect(p.time).toEqual([0, 2, 4]);
    expect(p.conc).toEqual([0, 5, 0]);
  });
  it('rejects duplicate times, naming the time and rows', () => {
    expect(() => cleanProfile([0, 2, 1, 2], [0, 1, 2, 3])).toThrow(NcaInputError);
    expect(() => cleanProfile([0, 2, 1, 2], [0, 1, 2, 3])).toThrow('duplicate time 2 (input rows 2 and 4)');
  });
  it('rejects lists of different lengths', () => {
    expect(() => cleanProfile([0, 1], [1])).toThrow('time has 2 values but concentration has 1');
  });
});

describe('observed parameters', () => {
  it('Cmax takes the first of equal maxima', () => {
    expect(firstMaxIndex([1, 5, 3, 5])).toBe(1);
  });
  it('Tlast is the last positive value, trailing zeros ignored', () => {
    expect(lastPositiveIndex([0, 4, 2, 0, 0])).toBe(2);
    expect(lastPositiveIndex([0, 0])).toBe(-1);
  });
  it('Tlag is the last zero before the first positive, 0 when the first sample is positive', () => {
    expect(tlag([0, 0.5, 1, 2], [0, 0, 3, 1])).toBe(0.5);
    expect(tlag([0, 1], [2, 1])).toBe(0);
    expect(tlag([0, 1], [0, 0])).toBeNull();
  });
  it('C0 back-extrapolates the log line through the first two points: 8 at 1 h, 4 at 2 h → 16', () => {
    expect(backExtrapolatedC0([1, 2], [8, 4])).toBeCloseTo(16, 13);
    // 8 at 0.5 h, 2 at 1.5 h: k = ln4 per h, C0 = 8·e^(0.5·ln4) = 16
    expect(backExtrapolatedC0([0.5, 1.5], [8, 2])).toBeCloseTo(16, 13);
  });
  it('C0 falls back to the first positive value when the first two do not fall', () => {
    expect(backExtrapolatedC0([1, 2], [4, 8])).toBe(4);
    expect(backExtrapolatedC0([1, 2, 3], [0, 6, 5])).toBe(6);
    expect(backExtrapolatedC0([1], [0])).toBeNull();
  });
});
