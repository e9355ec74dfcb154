import { describe, expect, it } from 'vitest';
import { displayText, displayValue, formatValue } from '../../src/report/display-units.js';

describe('displayValue', () => {
  it('shows normed SI values in the unit papers use, between 0.1 and 1000', () => {
    expect(displayText(0.0000073503, 'gram / liter')).toBe('7.35 ng/mL');
    expect(displayText(0.0089, 'gram / liter')).toBe('8.9 µg/mL');
    expect(displayText(0.00012, 'gram * hour / liter')).toBe('120 ng·h/mL');
    expect(displayText(2e-7, 'mole / liter')).toBe('200 nmol/L');
    expect(displayText(0.1, 'gram')).toBe('100 mg');
    expect(displayText(0.005, 'gram / kilogram')).toBe('5 mg/kg');
    expect(displayText(70, 'liter')).toBe('70 L');
  });

  it('prefers hours and L/h, and falls back to minutes and mL/min below 0.1', () => {
    expect(displayText(2.75, 'hour')).toBe('2.75 h');
    expect(displayText(0.05, 'hour')).toBe('3 min');
    expect(displayText(1500, 'hour')).toBe('62.5 d');
    expect(displayText(30, 'liter / hour')).toBe('30 L/h');
    expect(displayText(0.05, 'liter / hour')).toBe('0.8333 mL/min');
    expect(displayText(0.002, '1 / minute')).toBe('0.12 1/h');
  });

  it('keeps the nearest unit for values no candidate brings into range, and none for ratios, zero or unknown units', () => {
    expect(displayValue(1e-15, 'gram / liter')).toEqual({ value: expect.closeTo(1e-6, 12), unit: 'pg/mL' });
    expect(displayText(-3, 'hour')).toBe('-3 h');
    expect(displayValue(0.5, 'dimensionless')).toBeNull();
    expect(displayValue(0, 'hour')).toBeNull();
    expect(displayValue(Number.NaN, 'hour')).toBeNull();
    expect(displayValue(3, 'no such unit')).toBeNull();
    expect(displayValue(3, null)).toBeNull();
  });

  it('writes 4 significant digits, exponents only for very small or large values', () => {
    expect(formatValue(1234.5678)).toBe('1235');
    expect(formatValue(0.00012346)).toBe('0.0001235');
    expect(formatValue(0.000012346)).toBe('1.235e-5');
    expect(formatValue(1e-6)).toBe('1e-6');
    expect(formatValue(12345678)).toBe('1.235e+7');
  });
});
