import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ProblemLog } from '../../src/data/export/cells.js';
import { OUTPUTS, rowCells, type SpecRow } from '../../src/data/export/columns.js';
import { collectOutputs, columnBuffers, OUTPUT_COLUMN_FIELDS, outputsFromColumns } from '../../src/data/export/output-columns.js';
import { readExport } from '../../src/data/export/read.js';
import type { OutputRecord } from '../../src/data/model.js';
import { PROJECT_ROOT } from '../helpers/shared.js';

type OutputRow = SpecRow<typeof OUTPUTS>;

/** Numbers a cell may hold: any double but NaN (which no parsed cell is, `nan` reads as null), with -0 and the infinities. */
const number = fc.oneof(fc.double({ noNaN: true }), fc.constantFrom(-0, 0, Infinity, -Infinity, 6, 1e-5));
const text = fc.oneof(fc.string(), fc.constantFrom('plasma', 'µg/l', 'PKDB00198', 'liter / hour'));
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: null });

/** An outputs.csv row as the reader types it, for a group or an individual (exactly one is set). */
const row: fc.Arbitrary<OutputRow> = fc
  .record({
    study_name: text,
    measurement_type: text,
    tissue: maybe(text),
    sd: maybe(number),
    se: maybe(number),
    min: maybe(number),
    subject_pk: number,
    individual: fc.boolean(),
    output_pk: number,
    time_unit: maybe(text),
    normed: fc.boolean(),
    calculated: fc.boolean(),
    value: maybe(number),
    study_sid: text,
    intervention_pk: maybe(number),
    output_type: maybe(text),
    method: maybe(text),
    max: maybe(number),
    substance: maybe(text),
    label: maybe(text),
    unit: maybe(text),
    cv: maybe(number),
    median: maybe(number),
    mean: maybe(number),
    time: maybe(number),
    choice: maybe(text),
    calculation_type: maybe(text),
    raw_pk: maybe(number),
  })
  .map(({ subject_pk, individual, ...cells }) => ({ ...cells, group_pk: individual ? null : subject_pk, individual_pk: individual ? subject_pk : null }));

/** The record a row makes when it is its output's only row. */
function expectedRecord(r: OutputRow): OutputRecord {
  return {
    pk: r.output_pk,
    raw_pk: r.raw_pk,
    normed: r.normed,
    calculated: r.calculated,
    study_sid: r.study_sid,
    study_name: r.study_name,
    group_pk: r.group_pk,
    individual_pk: r.individual_pk,
    intervention_pks: r.intervention_pk === null ? [] : [r.intervention_pk],
    tissue: r.tissue,
    method: r.method,
    label: r.label,
    output_type: r.output_type,
    time: r.time,
    time_unit: r.time_unit,
    measurement_type: r.measurement_type,
    calculation_type: r.calculation_type,
    choice: r.choice,
    substance: r.substance,
    value: r.value,
    mean: r.mean,
    median: r.median,
    min: r.min,
    max: r.max,
    sd: r.sd,
    se: r.se,
    cv: r.cv,
    unit: r.unit,
    subset_pk: null,
  };
}

/** JSON that tells -0 from 0 and keeps the infinities, with the keys in the objects' own order. */
function exact(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v)) ? `#${Object.is(v, -0) ? '-0' : v}` : v));
}

describe('collectOutputs / outputsFromColumns', () => {
  let fixtureOutputs: OutputRecord[] = [];
  beforeAll(async () => {
    fixtureOutputs = (await readExport(readFileSync(join(PROJECT_ROOT, 'fixtures', 'pkdb-fixtures.zip')), { worker: false })).tables.outputs;
  });

  it('carry every value of a row into its record exactly, field order included', () => {
    fc.assert(
      // Unique pks as a Map keys them (0 and -0 are one key).
      fc.property(fc.uniqueArray(row, { selector: (r) => (r.output_pk === 0 ? 0 : r.output_pk), maxLength: 40 }), (rows) => {
        const log = new ProblemLog('z', false);
        const records = outputsFromColumns(collectOutputs(rows.map((r, k) => ({ line: k + 2, row: rowCells(OUTPUTS, r) })), log));
        expect(log.count).toBe(0);
        expect(exact(records)).toBe(exact(rows.map(expectedRecord)));
      }),
      { numRuns: 300 },
    );
  });

  it('grow past their first size (16 384 outputs) and keep every output', () => {
    const rows = Array.from({ length: 40_000 }, (_, k): OutputRow => ({ ...fixtureRow(), output_pk: k, mean: k / 3, label: `L${k % 7}`, intervention_pk: k }));
    const records = outputsFromColumns(collectOutputs(rows.map((r, k) => ({ line: k + 2, row: rowCells(OUTPUTS, r) })), new ProblemLog('z', false)));
    expect(records).toHaveLength(40_000);
    expect(exact(records[39_999])).toBe(exact(expectedRecord(rows[39_999])));
    expect([records[16_384].mean, records[16_384].label, records[16_384].intervention_pks]).toEqual([16_384 / 3, 'L4', [16_384]]);
  });

  it('keep each distinct string of a column once, and every column in a buffer of its own (to transfer)', () => {
    const base: OutputRow = { ...fixtureRow(), label: 'L1' };
    const rows = [base, { ...base, output_pk: 2 }, { ...base, output_pk: 3, label: 'other' }].map((r, k) => ({ line: k + 2, row: rowCells(OUTPUTS, r) }));
    const columns = collectOutputs(rows, new ProblemLog('z', false));
    expect(columns.count).toBe(3);
    expect(columns.strings.filter((s) => s === base.study_sid)).toHaveLength(1);
    expect(columns.strings.filter((s) => s === 'L1' || s === 'other')).toEqual(['L1', 'other']);
    const buffers = columnBuffers(columns);
    expect(new Set(buffers).size).toBe(buffers.length);
  });

  it('name every field of OutputRecord (a field added to the model and not to the columns fails here)', () => {
    const [first] = fixtureOutputs;
    expect([...OUTPUT_COLUMN_FIELDS].sort()).toEqual(Object.keys(first).sort());
  });

  /** A plain output row (the first of the fixtures, by its record). */
  function fixtureRow(): OutputRow {
    const o = fixtureOutputs[0];
    return { ...o, output_pk: o.pk, intervention_pk: o.intervention_pks[0] ?? null } as unknown as OutputRow;
  }
});
