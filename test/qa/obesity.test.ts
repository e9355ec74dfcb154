import { describe, expect, it } from 'vitest';
import type { CharacteristicaRecord } from '../../src/data/model.js';
import { markedObese } from '../../src/qa/obesity.js';
import { STATS } from '../helpers/study-records.js';

const trait = (measurement_type: string, fields: Partial<CharacteristicaRecord>): CharacteristicaRecord =>
  ({ ...STATS, pk: 1, count: 10, measurement_type, calculation_type: null, choice: null, substance: null, group_count: 10, unit: null, ...fields }) as CharacteristicaRecord;

describe('markedObese', () => {
  it("reads the group's name, weight category and disease", () => {
    expect(markedObese('obese men', [])).toBe(true);
    expect(markedObese('Overweight', [])).toBe(true);
    expect(markedObese('old', [])).toBe(false);
    expect(markedObese('nonobese', [])).toBe(false);
    expect(markedObese('non-obese controls', [])).toBe(false);
    expect(markedObese('g', [trait('weight (categorial)', { choice: 'obese' })])).toBe(true);
    expect(markedObese('g', [trait('weight (categorial)', { choice: 'normal' })])).toBe(false);
    expect(markedObese('g', [trait('disease', { choice: 'morbid obesity' })])).toBe(true);
    expect(markedObese('g', [trait('disease', { choice: 'liver cirrhosis' })])).toBe(false);
  });

  it('reads a BMI from 30 kg/m² and an obesity index from 120 %; one in another unit, or without a value, marks it', () => {
    expect(markedObese('g', [trait('bmi', { unit: 'kilogram / meter ** 2', mean: 39.1 })])).toBe(true);
    expect(markedObese('g', [trait('bmi', { unit: 'kilogram / meter ** 2', mean: 24.3 })])).toBe(false);
    expect(markedObese('g', [trait('obesity index', { unit: 'percent', mean: 133 })])).toBe(true);
    expect(markedObese('g', [trait('obesity index', { unit: 'percent', mean: 104 })])).toBe(false);
    expect(markedObese('g', [trait('obesity index', { unit: 'percent', max: 180 })])).toBe(true);
    expect(markedObese('g', [trait('obesity index', { unit: 'dimensionless', mean: 1.33 })])).toBe(true);
    expect(markedObese('g', [trait('bmi', { unit: 'kilogram / meter ** 2' })])).toBe(true);
    // a range alone: its middle (Kosoglou2002's placebo group, BMI 19–31)
    expect(markedObese('g', [trait('bmi', { unit: 'kilogram / meter ** 2', min: 19, max: 31 })])).toBe(false);
    expect(markedObese('g', [trait('bmi', { unit: 'kilogram / meter ** 2', min: 28, max: 45 })])).toBe(true);
  });
});
