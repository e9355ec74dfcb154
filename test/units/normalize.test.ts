import { describe, expect, it } from 'vitest';
import {
  BUILTIN_MOLAR_MASSES,
  UnitError,
  completeErrorMeasures,
  isNormalisedUnit,
  molarMassLookup,
  normalisedTarget,
  normalisedUnits,
  measurementTypesWithUnits,
  normalize,
  normalizeAll,
  parseUnit,
  unitNormalisation,
} from '../../src/units/index.js';
import type { InfoNodeRecord, StatsFields } from '../../src/data/model.js';

const NO_STATS: StatsFields = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: null };

function rec(measurement_type: string, unit: string | null, stats: Partial<StatsFields> = {}, substance: string | null = 'caffeine') {
  return { ...NO_STATS, pk: 7, raw_pk: null, normed: false, measurement_type, substance, unit, ...stats };
}

const rel = (a: number, b: number) => Math.abs(a / b - 1);

describe('normalisation table', () => {
  it('gives every measurement type one target per dimension, and every listed unit parses', () => {
    for (const type of measurementTypesWithUnits()) {
      for (const unit of normalisedUnits(type) ?? []) {
        const target = normalisedTarget(type, parseUnit(unit).dimension);
        expect(target, `${type} ${unit}`).not.toBeNull();
        expect(normalisedUnits(type)).toContain(target);
      }
    }
  });

  it('knows measurement types by name and by sid', () => {
    expect(normalisedUnits('concentration_unbound')).toEqual(normalisedUnits('concentration-unbound'));
    expect(normalisedUnits('cumulative amount')).toEqual(normalisedUnits('cumulative-amount'));
    expect(normalisedUnits('no such type')).toBeNull();
  });

  it('has the normalised units of NOTES §4', () => {
    expect(normalisedTarget('cmax', parseUnit('mg/l').dimension)).toBe('gram / liter');
    expect(normalisedTarget('auc_inf', parseUnit('mg*h/l').dimension)).toBe('gram * hour / liter');
    expect(normalisedTarget('kel', parseUnit('1/h').dimension)).toBe('1 / minute');
    expect(normalisedTarget('clearance', parseUnit('ml/min').dimension)).toBe('liter / hour');
    expect(normalisedTarget('clearance', parseUnit('ml/min/kg').dimension)).toBe('liter / hour / kilogram');
    expect(normalisedTarget('clearance', parseUnit('ml/min/m^2').dimension)).toBe('milliliter / meter ** 2 / minute');
    expect(normalisedTarget('vd_ss', parseUnit('l/m^2').dimension)).toBe('liter / meter ** 2');
    expect(normalisedTarget('dosing', parseUnit('mg/kg').dimension)).toBe('count');
    expect(normalisedTarget('bmi', parseUnit('kg/m^2').dimension)).toBe('kilogram / meter ** 2');
    expect(isNormalisedUnit('dosing', 'g/kg')).toBe(true);
    expect(isNormalisedUnit('tmax', 'hr')).toBe(false);
  });
});

describe('normalize: PK-DB normed copies', () => {
  it('converts value, mean, median, min, max, sd and se; keeps cv', () => {
    const raw = rec('cmax', 'mg/l', { value: 1, mean: 2, median: 3, min: 4, max: 5, sd: 6, se: 7, cv: 0.5 });
    const normed = normalize(raw);
    expect(normed.unit).toBe('gram / liter');
    expect([normed.value, normed.mean, normed.median, normed.min, normed.max, normed.sd, normed.se]).toEqual([
      0.001, 0.002, 0.003, 0.004, 0.005, 0.006, 0.007,
    ]);
    expect(normed.cv).toBe(0.5);
    expect(normed.normed).toBe(true);
    expect(normed.raw_pk).toBe(7);
    expect(raw.unit).toBe('mg/l'); // the raw record is not touched
  });

  it('turns molar into mass first when the substance has a molar mass', () => {
    const normed = normalize(rec('concentration', '\u00B5mol/l', { mean: 50 }), { substanceMass: 194.19 });
    expect(normed.unit).toBe('gram / liter');
    expect(rel(normed.mean as number, 0.0097095)).toBeLessThan(1e-12);
  });

  it('keeps molar units molar without a molar mass', () => {
    const normed = normalize(rec('concentration', '\u00B5mol/l', { mean: 50 }));
    expect(normed.unit).toBe('mole / liter');
    expect(rel(normed.mean as number, 5e-5)).toBeLessThan(1e-12);
  });

  it('spells mol/l with a mass as pint does and keeps it (already normalised)', () => {
    const n = unitNormalisation('mol/l', 'concentration', 194.19);
    expect(n).toMatchObject({ unit: 'gram / liter', kept: true, molarExponent: 1 });
    expect(n.factor).toBe(194.19);
  });

  it('keeps spellings that are normalised units (g/kg, none), converts equal ones spelled otherwise (hr)', () => {
    expect(normalize(rec('dosing', 'g/kg', { value: 0.02 }))).toMatchObject({ unit: 'g/kg', value: 0.02 });
    expect(normalize(rec('metabolic ratio', 'none', { value: 3 }))).toMatchObject({ unit: 'none', value: 3 });
    expect(normalize(rec('tmax', 'hr', { value: 2 }))).toMatchObject({ unit: 'hour', value: 2 });
  });

  it('percent → dimensionless × 0.01 where dimensionless is the normalised unit', () => {
    expect(normalize(rec('recovery', 'percent', { mean: 42, sd: 5 }))).toMatchObject({ unit: 'dimensionless', mean: 0.42, sd: 0.05 });
    expect(normalize(rec('hba1c', 'percent', { mean: 6 }))).toMatchObject({ unit: 'percent', mean: 6 });
  });

  it('mg/kg doses become count (2e-05 count = 20 mg/kg, pkdb-calculation §3.4)', () => {
    const normed = normalize(rec('dosing', 'mg/kg', { value: 20 }));
    expect(normed.unit).toBe('count');
    expect(rel(normed.value as number, 2e-5)).toBeLessThan(1e-12);
  });

  it('rate constants go to 1 / minute, times to hour', () => {
    expect(normalize(rec('kel', '1/h', { value: 0.6 }))).toMatchObject({ unit: '1 / minute', value: 0.01 });
    expect(normalize(rec('thalf', 'min', { value: 90 }))).toMatchObject({ unit: 'hour', value: 1.5 });
  });

  it('leaves a record without a unit as it is, apart from normed', () => {
    const normed = normalize(rec('sex', null, { value: null }));
    expect(normed).toMatchObject({ unit: null, value: null, normed: true });
  });

  it('throws a UnitError naming unit and record for a dimension the type does not have', () => {
    expect(() => normalize(rec('tmax', 'mg/l', { value: 1 }), { recordLabel: 'output 12' })).toThrow(
      /output 12: unit 'mg\/l': \[mass\] \/ \[length\] \*\* 3 is not a dimension of 'tmax'/,
    );
    expect(() => normalize(rec('cmax', 'IU/l', { value: 1 }), { measurementType: 'tmax' })).toThrow(UnitError);
  });

  it('normalizeAll never stops at a bad record', () => {
    const outcomes = normalizeAll(
      [rec('cmax', 'mg/l', { value: 1 }), rec('cmax', 'gallons of coffee', { value: 1 }), rec('tmax', 'min', { value: 30 })],
      (r) => ({ recordLabel: `output ${r.value}` }),
    );
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    const bad = outcomes[1];
    if (bad.ok) throw new Error('expected a failure');
    expect(bad.error.message).toContain("'gallons of coffee'");
    expect(bad.error.context.record).toBe('output 1');
  });

  it('completes sd, se and cv of group outputs from each other (error_measures.py)', () => {
    expect(completeErrorMeasures({ ...NO_STATS, mean: 10, se: 1 }, 16)).toMatchObject({ sd: 4, se: 1, cv: 0.4 });
    expect(completeErrorMeasures({ ...NO_STATS, mean: 10, cv: 0.2 }, 4)).toMatchObject({ sd: 2, se: 1, cv: 0.2 });
    expect(completeErrorMeasures({ ...NO_STATS, mean: 0, sd: 1 }, 4)).toMatchObject({ cv: null, se: 0.5 });
    const viaNormalize = normalize(rec('cmax', 'mg/l', { mean: 10, se: 1 }), { groupCount: 16 });
    expect(viaNormalize).toMatchObject({ mean: 0.01, se: 0.001, sd: 0.004, cv: 0.4 });
  });
});

/** IUPAC conventional atomic weights (2013), enough for the formulas of the table. */
const ATOMIC_WEIGHT: Record<string, number> = { H: 1.008, C: 12.011, N: 14.007, O: 15.999, S: 32.06, Cl: 35.45, F: 18.998, Na: 22.99, K: 39.098 };

function formulaMass(formula: string): number {
  let total = 0;
  for (const [, element, count] of formula.matchAll(/([A-Z][a-z]?)(\d*)/g)) {
    const w = ATOMIC_WEIGHT[element];
    if (w === undefined) throw new Error(`no atomic weight for ${element}`);
    total += w * (count === '' ? 1 : Number(count));
  }
  return total;
}

describe('molar masses', () => {
  it('every built-in mass agrees with its molecular formula to 0.012 g/mol', () => {
    for (const entry of BUILTIN_MOLAR_MASSES) {
      expect(Math.abs(formulaMass(entry.formula) - entry.mass), entry.substance).toBeLessThan(0.012);
    }
  });

  it('prefers overrides, then the dataset’s info nodes, else the built-in table', () => {
    const node = (name: string, mass: number | null): InfoNodeRecord => ({
      sid: name.slice(0, 3), name, label: name, ntype: 'substance', dtype: null, deprecated: false, description: null, synonyms: [], mass,
    });
    expect(molarMassLookup()('Caffeine')).toEqual({ mass: 194.19, source: 'builtin' });
    expect(molarMassLookup()('omeprazole')).toBeNull();
    const withNodes = molarMassLookup({ info_nodes: [node('caffeine', 194.19076), node('c-peptide', null)] });
    expect(withNodes('caffeine')).toEqual({ mass: 194.19076, source: 'info-node' });
    expect(withNodes('caf')).toEqual({ mass: 194.19076, source: 'info-node' });
    expect(withNodes('c-peptide')).toBeNull();
    expect(withNodes('midazolam')).toBeNull(); // the dataset's nodes are authoritative
    expect(molarMassLookup(null, new Map([['caffeine', 194.2]]))('caffeine')).toEqual({ mass: 194.2, source: 'override' });
  });
});
