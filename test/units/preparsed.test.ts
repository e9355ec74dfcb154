/**
 * The generated table of preparsed unit expressions (src/units/preparsed.ts)
 * is a cache of mathjs's answers: the committed file is what the generator
 * prints today, every entry reads exactly as mathjs reads the expression, and
 * the QA of the shared export never needs mathjs itself.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderUnitTable, UNIT_TABLE_PATH } from '../../scripts/generate-unit-table.js';
import { Dataset } from '../../src/data/dataset.js';
import { runQa } from '../../src/qa/run.js';
import { parseUnit, preparsedReading, type UnitReading } from '../../src/units/parse.js';
import { PREPARSED } from '../../src/units/preparsed.js';
import { BASE_DIMENSIONS, isUnitMathBuilt, unitMath } from '../../src/units/registry.js';
import { describeShared, SHARED_EXPORT } from '../helpers/shared.js';

/** What parse.ts reads of a unit, comparable across the table and mathjs (dimensions padded as parse.ts pads them). */
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

// First, before anything in this file builds mathjs: the point of the table is a QA run without it.
describeShared('the preparsed table on the shared export', SHARED_EXPORT, () => {
  it('covers every unit expression the QA of the shared export parses: mathjs is never built', async () => {
    const { dataset } = await Dataset.fromExport(SHARED_EXPORT);
    expect(isUnitMathBuilt()).toBe(false);
    const result = runQa(dataset);
    expect(result.findings.length).toBeGreaterThan(1000);
    expect(isUnitMathBuilt()).toBe(false);
  }, 120_000);
});

describe('preparsed.ts', () => {
  it('is what scripts/generate-unit-table.ts generates today (run `npm run units-table` after changing a unit source)', () => {
    expect(readFileSync(UNIT_TABLE_PATH, 'utf8')).toBe(renderUnitTable());
  }, 60_000);

  it('reads every expression exactly as mathjs does', () => {
    expect(PREPARSED.length).toBeGreaterThan(500);
    for (const [expression] of PREPARSED) {
      const ours = preparsedReading(expression);
      expect(ours, expression).not.toBeNull();
      expect(essentials(ours as UnitReading), expression).toEqual(essentials(unitMath().unit(expression) as unknown as UnitReading));
    }
  });

  it('gives parseUnit the same result through the table as through mathjs', () => {
    for (const spelling of ['gram / liter', 'mg/dl', 'µg/ml', '1 / minute', 'hr*gram / liter', 'count/(gram / liter)/min', 'na', 'millimeter_Hg']) {
      const parsed = parseUnit(spelling);
      const viaMathjs = unitMath().unit(parsed.expression) as unknown as UnitReading;
      expect(preparsedReading(parsed.expression), spelling).not.toBeNull();
      expect(essentials(preparsedReading(parsed.expression) as UnitReading), spelling).toEqual(essentials(viaMathjs));
    }
  });

  it('leaves what it lacks to mathjs', () => {
    expect(preparsedReading('inch / week')).toBeNull();
    expect(parseUnit('inch / week').dimension.key).toBe('[length] / [time]');
  });
});
