import { describe, expect, it } from 'vitest';
import type { CharacteristicaRecord } from '../../src/data/model.js';
import { bodySurfaceM2, mostellerBsaM2 } from '../../src/qa/body-surface.js';
import { STATS } from '../helpers/study-records.js';

const trait = (measurement_type: string, mean: number, unit: string): CharacteristicaRecord =>
  ({ ...STATS, pk: 1, count: 1, measurement_type, calculation_type: null, choice: null, substance: null, group_count: null, unit, mean }) as CharacteristicaRecord;

describe('mostellerBsaM2', () => {
  it('is √(height[cm] · weight[kg] / 3600) (Mosteller 1987): 70 kg, 1.75 m → 1.845 m²; 20 kg, 1.10 m → 0.782 m²', () => {
    expect(mostellerBsaM2(70, 1.75)).toBeCloseTo(Math.sqrt((175 * 70) / 3600), 12);
    expect(mostellerBsaM2(70, 1.75)).toBeCloseTo(1.8447, 4);
    expect(mostellerBsaM2(20, 1.1)).toBeCloseTo(0.7817, 4);
  });
});

describe('bodySurfaceM2', () => {
  it('takes the curated area first (in any area unit), else weight and height, else none', () => {
    expect(bodySurfaceM2([trait('body surface area', 1.62, 'meter ** 2'), trait('weight', 70, 'kilogram'), trait('height', 1.75, 'meter')])).toBe(1.62);
    expect(bodySurfaceM2([trait('body surface area', 16200, 'centimeter ** 2')])).toBeCloseTo(1.62, 12);
    expect(bodySurfaceM2([trait('weight', 70, 'kilogram'), trait('height', 175, 'centimeter')])).toBeCloseTo(1.8447, 4);
    expect(bodySurfaceM2([trait('weight', 70, 'kilogram')])).toBeNull();
  });

  it('uses no measure beyond what any human has (body-measure names it): 18,000 "m²", 700 kg', () => {
    expect(bodySurfaceM2([trait('body surface area', 18000, 'meter ** 2')])).toBeNull();
    expect(bodySurfaceM2([trait('weight', 700, 'kilogram'), trait('height', 1.75, 'meter')])).toBeNull();
  });
});
