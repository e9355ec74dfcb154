import { describe, expect, it } from 'vitest';
import { Numbering, Slots } from '../../src/qa/study-ids.js';

describe('Numbering', () => {
  it('numbers keys of several parts from 0 in order of first appearance', () => {
    const n = new Numbering();
    expect(n.of(['S1', 'r', 'caffeine'])).toBe(0);
    expect(n.of(['S1', 'r', 'paraxanthine'])).toBe(1);
    expect(n.of(['S1', 'r', 'caffeine'])).toBe(0);
    expect(n.size).toBe(2);
  });
  it('tells parts apart by value and type, null included', () => {
    const n = new Numbering();
    expect(n.of([1, '|', null])).toBe(0);
    expect(n.of([1, '|', 'null'])).toBe(1);
    expect(n.of(['1', '|', null])).toBe(2);
    expect(n.of([1, 2, '|', null])).toBe(3);
  });
});

describe('Slots', () => {
  it('gives a value one slot per output pk, record and measure; a curve one per subset pk', () => {
    const s = new Slots();
    expect(s.ofValue(5, 'cmax', 'output:5')).toBe(0);
    expect(s.ofCurve(5)).toBe(1);
    expect(s.ofValue(5, 'cmax', 'output:5')).toBe(0);
    expect(s.ofCurve(5)).toBe(1);
    expect(s.size).toBe(2);
  });
  it('keeps a repeated output pk with another record or measure apart (a duplicated output row)', () => {
    const s = new Slots();
    expect(s.ofValue(7, 'cmax', 'output:7')).toBe(0);
    expect(s.ofValue(7, 'thalf', 'output:7')).toBe(1);
    expect(s.ofValue(7, 'cmax', 'timecourse:3')).toBe(2);
    expect(s.ofValue(7, 'thalf', 'output:7')).toBe(1);
    expect(s.ofValue(7, 'cmax', 'output:7')).toBe(0);
  });
});
