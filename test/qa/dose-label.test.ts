import { describe, expect, it } from 'vitest';
import { highLowPair, labelRatio, labelledAmount } from '../../src/qa/dose-label.js';

describe('labelledAmount', () => {
  it('reads one amount with its unit, per kg or per m²', () => {
    expect(labelledAmount('paracetamol1000mg_po')).toEqual({ value: 1000, unit: 'milligram', text: '1000mg' });
    expect(labelledAmount('paracetamol12mg/kg_iv')).toEqual({ value: 12, unit: 'milligram / kilogram', text: '12mg/kg' });
    expect(labelledAmount('atropine600ug')).toMatchObject({ value: 600, unit: 'microgram' });
    expect(labelledAmount('MID_7.5mg_d4')).toMatchObject({ value: 7.5, unit: 'milligram' });
    expect(labelledAmount('dose 2,5 mg/m2')).toMatchObject({ value: 2.5, unit: 'milligram / meter ** 2' });
    expect(labelledAmount('glucose75g')).toMatchObject({ value: 75, unit: 'gram' });
  });

  it('names nothing without an amount, with two different ones, or for a code letter', () => {
    expect(labelledAmount('MID_po')).toBeNull();
    expect(labelledAmount('MID_1min')).toBeNull(); // minutes, not an amount
    expect(labelledAmount('CAF5')).toBeNull();
    expect(labelledAmount('M6G_200')).toBeNull(); // morphine-6-glucuronide: G is a letter of the code
    expect(labelledAmount('paracetamol1000mg+codeine30mg')).toBeNull();
    expect(labelledAmount('caf100mg_then_100mg')).toMatchObject({ value: 100 }); // the same amount twice is one
  });
});

describe('labelRatio', () => {
  it('is the curated dose over the labelled amount, in the curated unit', () => {
    expect(labelRatio(10, 'gram', labelledAmount('paracetamol1000mg')!, null)).toBeCloseTo(10, 12);
    // 12 mg/kg normed by PK-DB to the dimensionless 1.2e-5 (kg/kg); ×1000 curated
    expect(labelRatio(0.012, 'count', labelledAmount('paracetamol12mg/kg_iv')!, null)).toBeCloseTo(1000, 9);
    // 5 mmol of glucose (180 g/mol) is 0.9 g
    expect(labelRatio(0.9, 'gram', labelledAmount('glc5mmol')!, 180)).toBeCloseTo(1, 12);
  });

  it('is null when the units cannot be compared', () => {
    expect(labelRatio(0.000002, 'count', labelledAmount('Dcaf_2mg')!, null)).toBeNull(); // per kg curated, absolute label
    expect(labelRatio(0.04, 'gram / hour', labelledAmount('vitamin_c_500mg')!, null)).toBeNull();
  });
});

describe('dose-label: a high and a low label', () => {
  it('pairs two labels that differ only in high for low, case aside', () => {
    expect(highLowPair('Caffhigh', 'Cafflow')).toBe(true);
    expect(highLowPair('ALF_po_highDose', 'alf_po_lowdose')).toBe(true);
    expect(highLowPair('Cafflow', 'Caffhigh')).toBe(false);
    // `Dflow` is no low arm of `D_high`; a label with two highs names no pair.
    expect(highLowPair('D_high', 'Dflow')).toBe(false);
    expect(highLowPair('highhigh', 'lowhigh')).toBe(false);
  });
});
