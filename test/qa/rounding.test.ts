import { describe, expect, it } from 'vitest';
import { roundingHalfStep } from '../../src/qa/rounding.js';

describe('roundingHalfStep', () => {
  it('half the last decimal place a value was written with, conversion noise dropped', () => {
    expect(roundingHalfStep(0.004)).toBeCloseTo(0.00005, 15); // at least two digits: 0.0040 (4.0 mg·h/L normalised)
    expect(roundingHalfStep(0.0038)).toBeCloseTo(0.00005, 15);
    expect(roundingHalfStep(0.0028800000000000003)).toBeCloseTo(0.000005, 15); // 28.8 mg·h/L as g·h/L
    expect(roundingHalfStep(51.5)).toBeCloseTo(0.05, 15);
    expect(roundingHalfStep(12)).toBe(0.5);
    expect(roundingHalfStep(1200)).toBe(0.5); // trailing zeros read as written
    expect(roundingHalfStep(0)).toBe(0);
  });
});
