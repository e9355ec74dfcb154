import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProblemLog } from '../../src/data/export/cells.js';
import { OUTPUTS, rowCells, type SpecRow } from '../../src/data/export/columns.js';
import { OUTPUT_OWN_FIELDS } from '../../src/data/export/output-columns.js';
import { buildOutputs } from '../../src/data/export/tables.js';

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
});
