import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProblemLog } from '../../../src/data/export/cells.js';
import { GROUPS, INDIVIDUALS, OUTPUTS, rowCells, type SpecRow } from '../../../src/data/export/columns.js';
import { buildGroups, buildIndividuals, buildOutputs, OUTPUT_OWN_FIELDS } from '../../../src/data/export/tables.js';
import type { OutputRecord } from '../../../src/data/model.js';

type OutputRow = SpecRow<typeof OUTPUTS>;

/** Rows given by column name, as the reader hands them to the builders. */
const parsed = (rows: { line: number; row: OutputRow }[]) => rows.map(({ line, row }) => ({ line, row: rowCells(OUTPUTS, row) }));

const ROW: OutputRow = {
  study_name: 'S',
  measurement_type: 'cmax',
  tissue: 'plasma',
  sd: null,
  se: null,
  min: 1.5,
  group_pk: 6,
  output_pk: 29,
  time_unit: null,
  normed: true,
  calculated: false,
  value: null,
  study_sid: 'PKDB1',
  intervention_pk: 2,
  output_type: 'output',
  method: null,
  max: 3.25,
  substance: 'caffeine',
  label: null,
  individual_pk: null,
  unit: 'mg/l',
  cv: null,
  median: null,
  mean: 2,
  time: null,
  choice: null,
  calculation_type: null,
  raw_pk: null,
};

/** A value of the same column kind that differs from `value`. */
function other(value: unknown): unknown {
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'string') return `${value}!`;
  return 7;
}

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

describe('buildOutputs', () => {
  it('a repeated row that differs in any one own field of the output is reported by that field and skipped', () => {
    for (const field of OUTPUT_OWN_FIELDS) {
      const log = new ProblemLog('zip', false);
      // An individual's output for individual_pk (a group's output has none, and exactly one must be set).
      const first: OutputRow = field === 'individual_pk' ? { ...ROW, group_pk: null, individual_pk: 5 } : ROW;
      const changed = { ...first, intervention_pk: 3, [field]: other(first[field]) } as OutputRow;
      const outputs = buildOutputs(parsed([{ line: 2, row: first }, { line: 3, row: changed }]), log);
      expect(outputs).toHaveLength(1);
      expect(outputs[0].intervention_pks).toEqual([2]);
      expect(log.problems).toEqual([
        {
          file: 'outputs.csv',
          line: 3,
          column: field,
          message: `output 29: ${field} is ${JSON.stringify(first[field])} on line 2 but ${JSON.stringify(changed[field])} here`,
        },
      ]);
    }
  });

  it('rows of one output agreeing on its fields collapse to one record with the sorted set of interventions', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 4 }), fc.option(fc.integer({ min: 1, max: 9 }), { nil: null })), { minLength: 1, maxLength: 30 }), (pairs) => {
        const log = new ProblemLog('zip', false);
        const rows = pairs.map(([pk, intervention], i) => ({ line: i + 2, row: { ...ROW, output_pk: pk, intervention_pk: intervention } as OutputRow }));
        const outputs = buildOutputs(parsed(rows), log);
        expect(log.count).toBe(0);
        expect(outputs.map((o) => o.pk)).toEqual([...new Set(pairs.map(([pk]) => pk))]);
        for (const output of outputs) {
          const expected = [...new Set(pairs.filter(([pk, i]) => pk === output.pk && i !== null).map(([, i]) => i!))].sort((a, b) => a - b);
          expect(output.intervention_pks).toEqual(expected);
          expect(output.mean).toBe(2);
        }
      }),
    );
  });
  it('swaps a pair of interventions that came the other way round, and dedupes a repeated one', () => {
    const log = new ProblemLog('zip', false);
    const rows = [[5, 9], [5, 3], [6, 4], [6, 4], [7, 2], [7, 8]].map(([pk, intervention], i) => ({ line: i + 2, row: { ...ROW, output_pk: pk, intervention_pk: intervention } as OutputRow }));
    expect(buildOutputs(parsed(rows), log).map((o) => o.intervention_pks)).toEqual([[3, 9], [4], [2, 8]]);
  });

  it('carries every value of a row into its record exactly, field order included', () => {
    fc.assert(
      // Unique pks as a Map keys them (0 and -0 are one key).
      fc.property(fc.uniqueArray(row, { selector: (r) => (r.output_pk === 0 ? 0 : r.output_pk), maxLength: 40 }), (rows) => {
        const log = new ProblemLog('z', false);
        const records = buildOutputs(parsed(rows.map((r, k) => ({ line: k + 2, row: r }))), log);
        expect(log.count).toBe(0);
        expect(exact(records)).toBe(exact(rows.map(expectedRecord)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('buildGroups and buildIndividuals', () => {
  const CHARACTERISTICA = { measurement_type: 'age', max: null, substance: null, count: 10, sd: null, unit: 'yr', se: null, min: null, cv: null, median: null, mean: 30, choice: null, value: null, calculation_type: null };
  const GROUP: SpecRow<typeof GROUPS> = { ...CHARACTERISTICA, study_name: 'S', study_sid: 'PKDB1', group_count: 10, group_name: 'all', group_parent_pk: null, group_pk: 1, characteristica_pk: 5 };
  const INDIVIDUAL: SpecRow<typeof INDIVIDUALS> = { ...CHARACTERISTICA, study_name: 'S', study_sid: 'PKDB1', individual_name: 'i1', individual_pk: 1, individual_group_pk: 2, characteristica_pk: 5 };

  it('a repeated subject row that differs in any one of its own fields is reported by that column and skipped', () => {
    const cases = [
      ['group_name', 'name'],
      ['group_count', 'count'],
      ['group_parent_pk', 'parent_pk'],
      ['study_sid', 'study_sid'],
      ['study_name', 'study_name'],
    ] as const;
    for (const [column, field] of cases) {
      const log = new ProblemLog('zip', false);
      const changed = { ...GROUP, characteristica_pk: 6, [column]: other(GROUP[column]) } as SpecRow<typeof GROUPS>;
      const groups = buildGroups([{ line: 2, row: rowCells(GROUPS, GROUP) }, { line: 3, row: rowCells(GROUPS, changed) }], log);
      expect(groups).toHaveLength(1);
      expect(groups[0].characteristica.map((c) => c.pk)).toEqual([5]);
      expect(log.problems).toEqual([{ file: 'groups.csv', line: 3, column, message: `subject 1: ${field} is ${JSON.stringify(GROUP[column])} on line 2 but ${JSON.stringify(changed[column])} here` }]);
    }
    const individualCases = [
      ['individual_name', 'name'],
      ['individual_group_pk', 'group_pk'],
      ['study_sid', 'study_sid'],
      ['study_name', 'study_name'],
    ] as const;
    for (const [column, field] of individualCases) {
      const log = new ProblemLog('zip', false);
      const changed = { ...INDIVIDUAL, characteristica_pk: 6, [column]: other(INDIVIDUAL[column]) } as SpecRow<typeof INDIVIDUALS>;
      const individuals = buildIndividuals([{ line: 2, row: rowCells(INDIVIDUALS, INDIVIDUAL) }, { line: 3, row: rowCells(INDIVIDUALS, changed) }], log);
      expect(individuals).toHaveLength(1);
      expect(log.problems).toEqual([{ file: 'individuals.csv', line: 3, column, message: `subject 1: ${field} is ${JSON.stringify(INDIVIDUAL[column])} on line 2 but ${JSON.stringify(changed[column])} here` }]);
    }
  });

  it('rows repeating a subject add its characteristica', () => {
    const log = new ProblemLog('zip', false);
    const rows = [5, 6, 7].map((pk, k) => ({ line: k + 2, row: rowCells(INDIVIDUALS, { ...INDIVIDUAL, characteristica_pk: pk }) }));
    const individuals = buildIndividuals(rows, log);
    expect(log.count).toBe(0);
    expect(individuals.map((i) => i.characteristica.map((c) => c.pk))).toEqual([[5, 6, 7]]);
  });
});
