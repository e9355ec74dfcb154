/**
 * The mathjs-free reader of common unit expressions gives exactly what mathjs
 * gives: every unit name its tables accept, a corpus of hand-picked
 * expressions, and every unit spelling of the shared export.
 */
import { describe, expect, it } from 'vitest';
import { readExport } from '../../src/data/export/read.js';
import { commonUnitNames, readCommonUnit, type UnitReading } from '../../src/units/common-units.js';
import { BASE_DIMENSIONS, unitMath } from '../../src/units/registry.js';
import { toMathjsExpression } from '../../src/units/spelling.js';
import { describeShared, SHARED_EXPORT } from '../helpers/shared.js';

/** What parse.ts reads of a unit, in comparable form (dimensions padded as parse.ts pads them). */
function essentials(unit: UnitReading) {
  return {
    value: unit.value,
    dimensions: BASE_DIMENSIONS.map((_, i) => unit.dimensions[i] ?? 0),
    units: unit.units.map((part) => ({
      unit: { name: part.unit.name, value: part.unit.value, offset: part.unit.offset },
      prefix: { name: part.prefix.name, value: part.prefix.value },
      power: part.power,
    })),
  };
}

function viaMathjs(expression: string) {
  return essentials(unitMath().unit(expression) as unknown as UnitReading);
}

function expectSameAsMathjs(expression: string): void {
  const ours = readCommonUnit(expression);
  if (ours === null) return;
  expect(essentials(ours), expression).toEqual(viaMathjs(expression));
}

describe('readCommonUnit', () => {
  it('reads every unit name of its tables (each unit with each of its prefixes) as mathjs does', () => {
    const names = commonUnitNames();
    expect(names.length).toBeGreaterThan(300);
    for (const name of names) {
      expect(readCommonUnit(name), name).not.toBeNull();
      expectSameAsMathjs(name);
    }
  });

  it('reads products, quotients, powers, parentheses and a leading integer as mathjs does', () => {
    const expressions = [
      'gram / liter', 'mg/dl', 'ug/ml', 'ng/mL', 'mmol/l', 'uIU/ml', 'mIU / L', 'kg', 'g/kg', 'mg/kg/day',
      'gram * hour / liter', 'hr * gram / liter', 'liter / hour / kilogram', '(liter / hour) / kilogram',
      '(liter / hour / kilogram) * kilogram', 'gram / (gram / liter) / hr', '(gram / (gram / liter) / hr) / kilogram',
      'count / (gram / liter)', 'gram / meter ^ 2 / (gram / liter)', 'milliliter / meter ^ 2 / minute', 'meter ^ 2',
      'kilogram / meter ^ 2', 'gram * hour ^ 2 / liter', 'm^2', 'm ^ -2', 'h^-1', '1 / minute', '1/hr', '1 / (hour * liter)',
      '10 / minute', '1 * gram', 'mg h / l', 'IU * hour / liter', 'percent / hour', 'beverages / day', 'mmHg', 'na',
      'microgram * milliliter / hour / micromole', 'liter * milligram / millimole', 'becquerel', 'kBq', 'mcg',
      '((gram))', '(gram / (liter / (hour)))', 'mol / (l * s)',
    ];
    for (const expression of expressions) {
      expect(readCommonUnit(expression), expression).not.toBeNull();
      expectSameAsMathjs(expression);
    }
  });

  it('leaves to mathjs what it does not know or what is not a unit', () => {
    for (const expression of ['Pa', 'ha', 'cd', 'furlong', 'm^0.5', '2.5 mg', '1e3 / s', 'gram /', '(gram', 'gram)', '1', '', 'mg/', 'kg m2']) {
      expect(readCommonUnit(expression), expression).toBeNull();
    }
  });
});

describeShared('readCommonUnit on the shared export', SHARED_EXPORT, () => {
  it('reads every unit and time unit spelling of the export as mathjs does', async () => {
    const { tables } = await readExport(SHARED_EXPORT);
    const spellings = new Set<string>();
    const add = (unit: string | null | undefined) => {
      if (unit) spellings.add(unit);
    };
    for (const r of [...tables.outputs, ...tables.interventions, ...tables.timecourses]) {
      add(r.unit);
      add(r.time_unit);
    }
    for (const subject of [...tables.groups, ...tables.individuals]) for (const c of subject.characteristica) add(c.unit);
    let read = 0;
    for (const spelling of spellings) {
      let expression: string;
      try {
        expression = toMathjsExpression(spelling);
      } catch {
        continue;
      }
      if (readCommonUnit(expression) !== null) read++;
      expectSameAsMathjs(expression);
    }
    // Nearly every spelling avoids mathjs, which is the point of the reader.
    expect(read).toBeGreaterThan(spellings.size * 0.9);
  });
});
