/**
 * One broken record is a finding, never a crashed run: runQa on the fixtures with a few fields of a few records set
 * to hostile values of their own type (fast-check). Every run completes, every check runs (no `check-failed`), and
 * the findings are well-formed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import type { DatasetTables } from '../../src/data/model.js';
import { runQa } from '../../src/qa/run.js';
import { writeQaOutputs } from '../../src/report/write.js';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const fixtures = await loadFixtures();

const NUMBERS = [0, -1, -0.5, 1e-300, 1e300, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1e6, 3];
const STRINGS = ['', 'bogus', 'mg', 'hr', 'µg/kg/h', 'liter / hour', '1/0', 'mole', 'gram / kilogram', 'min', 'dimensionless', 'x'.repeat(300)];

const number = fc.oneof(fc.constantFrom(...NUMBERS), fc.integer({ min: -5, max: 1000 }));
const nullableNumber = fc.oneof(number, fc.constant(null));
const text = fc.oneof(fc.constantFrom(...STRINGS), fc.string({ maxLength: 8 }));
const nullableText = fc.oneof(text, fc.constant(null));
const list = fc.array(fc.oneof(number, fc.constant(null)), { maxLength: 12 });
const pks = fc.array(fc.constantFrom(-1, 0, 1, 2, 3, 999999), { maxLength: 3 });
const link = fc.oneof(fc.constantFrom(-1, 1, 2, 999999), fc.constant(null));

/** A field of one table and a hostile value of its declared type (src/data/model.ts). */
function fields(names: readonly string[], value: fc.Arbitrary<unknown>) {
  return fc.record({ name: fc.constantFrom(...names), value });
}
const STATS = ['value', 'mean', 'median', 'min', 'max', 'sd', 'se', 'cv'];
/** A characteristic of hostile content: body weight 0 or NaN in any unit, an age of −1, a species or phenotype of any name. */
const characteristic = fc.record({
  pk: fc.nat(), count: nullableNumber, group_count: nullableNumber, calculation_type: fc.constant(null), substance: nullableText,
  measurement_type: fc.constantFrom('weight', 'body weight', 'age', 'sex', 'healthy', 'disease', 'species', 'cyp2d6 phenotype', 'height', 'bmi'),
  choice: nullableText, value: nullableNumber, mean: nullableNumber, median: nullableNumber, min: nullableNumber, max: nullableNumber,
  sd: nullableNumber, se: nullableNumber, cv: nullableNumber, unit: nullableText,
});
const characteristica = fields(['characteristica'], fc.array(characteristic, { maxLength: 4 }));

const FIELDS: Record<TableName, fc.Arbitrary<{ name: string; value: unknown }>> = {
  outputs: fc.oneof(
    fields([...STATS, 'time'], nullableNumber),
    fields(['unit', 'time_unit', 'tissue', 'substance', 'output_type', 'calculation_type', 'choice'], nullableText),
    fields(['measurement_type'], text),
    fields(['group_pk', 'individual_pk', 'subset_pk'], link),
    fields(['intervention_pks'], pks),
  ),
  interventions: fc.oneof(
    fields(STATS, nullableNumber),
    fields(['unit', 'route', 'form', 'application', 'time', 'time_end', 'time_unit', 'substance', 'choice'], nullableText),
    fields(['measurement_type'], text),
  ),
  timecourses: fc.oneof(
    fields(['value', 'mean', 'median', 'sd', 'se'], fc.oneof(list, fc.constant(null))),
    fields(['time'], list),
    fields(['sd', 'se'], nullableNumber),
    fields(['unit', 'time_unit', 'tissue', 'substance'], nullableText),
    fields(['measurement_type'], text),
    fields(['group_pk', 'individual_pk'], link),
    fields(['intervention_pk', 'output_pk'], pks),
  ),
  groups: fc.oneof(fields(['count', 'parent_pk'], fc.oneof(nullableNumber, link)), fields(['name'], text), characteristica),
  individuals: fc.oneof(fields(['group_pk'], link), fields(['name'], text), characteristica),
  info_nodes: fields(['mass'], nullableNumber),
};

type TableName = 'outputs' | 'interventions' | 'timecourses' | 'groups' | 'individuals' | 'info_nodes';
const TABLES: readonly TableName[] = ['outputs', 'interventions', 'timecourses', 'groups', 'individuals', 'info_nodes'];

const corruption = fc.constantFrom(...TABLES).chain((table) => fc.record({ table: fc.constant(table), index: fc.nat(), field: FIELDS[table] }));

/** The fixtures with each corruption applied to a copy of its record (an index beyond the table wraps). */
function corrupted(corruptions: readonly { table: TableName; index: number; field: { name: string; value: unknown } }[]): DatasetTables {
  const tables = { ...fixtures.tables } as DatasetTables;
  for (const { table, index, field } of corruptions) {
    const records = [...((tables[table] ?? []) as unknown as Record<string, unknown>[])];
    if (records.length === 0) continue;
    const k = index % records.length;
    records[k] = { ...records[k], [field.name]: field.value };
    (tables as unknown as Record<string, unknown>)[table] = records;
  }
  return tables;
}

describe('runQa on hostile records (fast-check)', () => {
  it('completes with every check run, whatever a few fields of a few records hold', () => {
    fc.assert(
      fc.property(fc.array(corruption, { minLength: 1, maxLength: 12 }), (corruptions) => {
        const result = runQa(Dataset.fromTables(corrupted(corruptions), fixtures.source));
        const failed = result.findings.filter((f) => f.kind === 'check-failed');
        expect(failed.map((f) => f.message)).toEqual([]);
        for (const f of result.findings) {
          expect(typeof f.message).toBe('string');
          expect(['major', 'minor', 'info']).toContain(f.severity);
        }
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 150), seed: Number(process.env.FUZZ_SEED ?? 20261127) },
    );
  });

  it('writes its report, HTML pages and all, whatever a few fields of a few records hold', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pkdb-fuzz-'));
    let run = 0;
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(corruption, { minLength: 1, maxLength: 12 }), async (corruptions) => {
          const dataset = Dataset.fromTables(corrupted(corruptions), fixtures.source);
          const dir = join(root, String(run++));
          const written = await writeQaOutputs(runQa(dataset), dir, { html: true, png: false, dataset });
          expect(written).toContain('findings.json');
          expect(readdirSync(join(dir, 'report', 'studies')).length).toBeGreaterThan(0);
          rmSync(dir, { recursive: true, force: true });
        }),
        { numRuns: Number(process.env.FUZZ_REPORT_RUNS ?? 20), seed: Number(process.env.FUZZ_SEED ?? 20261127) },
      );
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
