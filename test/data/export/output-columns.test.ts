import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { columnBuffers, OUTPUT_COLUMN_FIELDS, outputColumns, outputsFromColumns } from '../../../src/data/export/output-columns.js';
import { readExport } from '../../../src/data/export/read.js';
import type { OutputRecord } from '../../../src/data/model.js';
import { PROJECT_ROOT } from '../../helpers/shared.js';

/** Numbers a record may hold: any double but NaN (which no parsed cell is), with -0 and the infinities. */
const number = fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(-0, 0, Infinity, -Infinity, 6, 1e-5));
const text = fc.oneof(fc.string(), fc.constantFrom('', 'plasma', 'µg/l', 'PKDB00198'));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });

const record: fc.Arbitrary<OutputRecord> = fc.record({
  pk: number,
  raw_pk: maybe(number),
  normed: fc.boolean(),
  calculated: fc.boolean(),
  study_sid: text,
  study_name: text,
  group_pk: maybe(number),
  individual_pk: maybe(number),
  intervention_pks: fc.array(number, { maxLength: 4 }),
  tissue: maybe(text),
  method: maybe(text),
  label: maybe(text),
  output_type: maybe(text),
  time: maybe(number),
  time_unit: maybe(text),
  measurement_type: text,
  calculation_type: maybe(text),
  choice: maybe(text),
  substance: maybe(text),
  value: maybe(number),
  mean: maybe(number),
  median: maybe(number),
  min: maybe(number),
  max: maybe(number),
  sd: maybe(number),
  se: maybe(number),
  cv: maybe(number),
  unit: maybe(text),
  subset_pk: maybe(number),
});

/** JSON that tells -0 from 0 and keeps the infinities, with the keys in the order the object has them. */
function exact(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v)) ? `#${Object.is(v, -0) ? '-0' : v}` : v));
}

describe('outputColumns / outputsFromColumns', () => {
  let fixtureOutputs: OutputRecord[] = [];
  beforeAll(async () => {
    fixtureOutputs = (await readExport(readFileSync(join(PROJECT_ROOT, 'fixtures', 'pkdb-fixtures.zip')), { worker: false })).tables.outputs;
  });

  it('give back the records exactly, field order included, whatever they hold', () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 30 }), (records) => {
        expect(exact(outputsFromColumns(outputColumns(records)))).toBe(exact(records));
      }),
      { numRuns: 300 },
    );
    expect(exact(outputsFromColumns(outputColumns(fixtureOutputs)))).toBe(exact(fixtureOutputs));
  });

  it('keep each distinct string once, and every column in a buffer of its own (to transfer)', () => {
    const base = { ...fixtureOutputs[0], label: 'L1' };
    const columns = outputColumns([base, { ...base, pk: 2 }, { ...base, pk: 3, label: 'other' }]);
    expect(columns.strings.filter((s) => s === base.study_sid)).toHaveLength(1);
    expect(columns.strings.filter((s) => s === 'L1' || s === 'other')).toEqual(['L1', 'other']);
    const buffers = columnBuffers(columns);
    expect(new Set(buffers).size).toBe(buffers.length);
  });

  it('name every field of OutputRecord (a field added to the model and not to the columns fails here)', () => {
    expect([...OUTPUT_COLUMN_FIELDS].sort()).toEqual(Object.keys(fixtureOutputs[0]).sort());
  });
});
