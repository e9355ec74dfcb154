import { readFileSync } from 'node:fs';
import { unzipSync } from 'fflate';
import { expect, it } from 'vitest';
import { parseCsv } from '../../src/data/export/csv.js';
import { parseUnit } from '../../src/units/index.js';
import { SHARED_EXPORT, describeShared } from '../helpers/shared.js';

/**
 * Every distinct unit spelling of the shared export (the `unit`, `time_unit`,
 * `x_unit`, `y_unit`, ... columns of every CSV). Listed literally so that a
 * new spelling in a new export is noticed.
 */
const EXPORT_UNITS = [
  '1 / day', '1 / minute', '1 / second', 'IU * hour / liter', 'IU / hour / kilogram', 'IU / liter', 'becquerel',
  'beverages / day', 'count', 'd', 'day', 'days', 'dimensionless', 'g/kg', 'gram', 'gram * hour ** 2 / liter',
  'gram * hour / liter', 'gram / day', 'gram / hour', 'gram / hour / meter ** 2', 'gram / liter', 'gram / meter ** 2',
  'hour', 'hour * mole / liter', 'hour / liter', 'hr', 'kilogram', 'kilogram / meter ** 2', 'liter',
  'liter * milligram / millimole', 'liter / hour', 'liter / hour / kilogram', 'liter / kilogram', 'liter / meter ** 2',
  'liter / minute', 'meter', 'meter ** 2', 'microgram * milliliter / hour / micromole', 'micromole / kilogram / minute',
  'milligram / day', 'milligram / minute', 'milliliter', 'milliliter / hour', 'milliliter / hour / meter ** 2',
  'milliliter / kilogram', 'milliliter / meter ** 2 / minute', 'millimeter_Hg', 'min', 'minutes', 'mole',
  'mole / hour / kilogram', 'mole / kilogram', 'mole / liter', 'na', 'none', 'percent', 'percent / hour',
  'percent / minute', 'second', 'week', 'weeks', 'year',
];

function exportUnits(): Set<string> {
  const members = unzipSync(readFileSync(SHARED_EXPORT));
  const decoder = new TextDecoder();
  const units = new Set<string>();
  for (const [name, bytes] of Object.entries(members)) {
    if (!name.endsWith('.csv')) continue;
    const { header, rows } = parseCsv(decoder.decode(bytes));
    const columns = header.flatMap((h, i) => (h === 'unit' || h.endsWith('_unit') ? [i] : []));
    for (const row of rows) for (const i of columns) if (row.cells[i]) units.add(row.cells[i]);
  }
  return units;
}

describeShared('every unit of the shared export', SHARED_EXPORT, () => {
  const units = exportUnits();

  it('is the known list of spellings', () => {
    expect([...units].sort()).toEqual([...EXPORT_UNITS].sort());
  });

  it.each(EXPORT_UNITS)('%s parses', (unit) => {
    expect(parseUnit(unit).dimension.key).toBeTruthy();
  });

  it('time units are times', () => {
    for (const unit of ['d', 'day', 'days', 'hr', 'min', 'minutes', 'weeks', 'na']) expect(parseUnit(unit).dimension.key).toBe('[time]');
  });
});
