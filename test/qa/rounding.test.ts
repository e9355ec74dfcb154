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

describe('roundingHalfStep arithmetic', () => {
  // The definition: the text of the 12-significant-digit form.
  const fromText = (x: number) => {
    if (!Number.isFinite(x) || x === 0) return 0;
    const [mantissa, exponent] = Math.abs(x).toExponential(11).split('e');
    const digits = Math.max(mantissa.replace('.', '').replace(/0+$/, '').length, 2);
    return 0.5 * Math.min(10 ** (Number(exponent) - digits + 1), 1);
  };

  it('equals the text form at powers of ten, half-way 13th digits and carries', () => {
    const values: number[] = [1000, 1e-9, 1e21, 1e-30, NaN, Infinity, -0.0038, 0.01864072939095, 18.64072939095, 9.999999999995e-29, 9.9999999999995, 0.000009999999999995];
    for (let p = -30; p <= 30; p++) for (const m of [1, 2, 5, 9.99999999999, 9.999999999995, 9.9999999999995, 1.5, 3.14159265358979, 7]) values.push(m * 10 ** p, (m * 10 ** p) / 60);
    for (const x of values) expect(roundingHalfStep(x)).toBe(fromText(x));
  });

  it('equals the text form on seeded random values of every precision', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    for (let i = 0; i < 20000; i++) {
      const x = Math.exp((random() - 0.5) * 60);
      for (const y of [x, Number(x.toPrecision(1 + (i % 13))), x / 60, x * 3.6]) expect(roundingHalfStep(y)).toBe(fromText(y));
    }
  });
});
