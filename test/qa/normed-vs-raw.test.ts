import { describe, expect, it } from 'vitest';
import type { DatasetTables, GroupRecord, InfoNodeRecord, InterventionRecord, OutputRecord } from '../../src/data/model.js';
import { checkNormedVsRaw } from '../../src/qa/normed-vs-raw.js';
import { SHARED_EXPORT, describeShared } from '../helpers/shared.js';
import { readExport } from '../../src/data/export/read.js';
import { expectedFixtureFindings, fixtureTables } from '../../src/data/fixtures.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };

function output(pk: number, fields: Partial<OutputRecord>): OutputRecord {
  return {
    ...STATS, unit: null, pk, raw_pk: null, normed: false, calculated: false, study_sid: 'SYN9999', study_name: 'Handmade2024',
    group_pk: 1, individual_pk: null, intervention_pks: [1], tissue: 'plasma', method: null, label: 'Tab1', output_type: 'output',
    time: null, time_unit: null, measurement_type: 'cmax', calculation_type: null, choice: null, substance: 'caffeine', subset_pk: null,
    ...fields,
  };
}

function intervention(pk: number, fields: Partial<InterventionRecord>): InterventionRecord {
  return {
    ...STATS, unit: null, pk, raw_pk: null, normed: false, study_sid: 'SYN9999', study_name: 'Handmade2024', name: 'caf_oral',
    route: 'oral', form: 'capsule', application: 'single dose', time: '0', time_end: null, time_unit: 'hr', measurement_type: 'dosing',
    calculation_type: null, choice: null, substance: 'caffeine', ...fields,
  };
}

function tables(fields: Partial<DatasetTables>): DatasetTables {
  return { studies: [], groups: [], individuals: [], interventions: [], outputs: [], timecourses: [], scatters: [], terms: [], ...fields };
}

/** A raw cmax of 5 mg/l and its correct normed copy (0.005 g/l). */
const rawCmax = output(1, { mean: 5, sd: 1, unit: 'mg/l' });
const goodCopy = output(2, { raw_pk: 1, normed: true, mean: 0.005, sd: 0.001, unit: 'gram / liter' });

describe('checkNormedVsRaw: raw and normed records', () => {
  it('passes a correct copy (and the matching dosing)', () => {
    const dose = intervention(10, { value: 200, unit: 'mg' });
    const doseCopy = intervention(11, { raw_pk: 10, normed: true, value: 0.2, unit: 'gram' });
    expect(checkNormedVsRaw(tables({ outputs: [rawCmax, goodCopy], interventions: [dose, doseCopy] }))).toEqual([]);
  });

  it('finds a ×1000 slip and names the factor', () => {
    const slipped = { ...goodCopy, mean: 5, sd: 1 };
    const [f, ...rest] = checkNormedVsRaw(tables({ outputs: [rawCmax, slipped] }));
    expect(rest).toEqual([]);
    expect(f).toMatchObject({
      kind: 'normed-vs-raw', severity: 'major', output_pk: 2, subject: 'group:1', measurement_type: 'cmax',
      reported: 5, reported_unit: 'gram / liter', recomputed: 0.005, recomputed_unit: 'gram / liter',
    });
    expect(f.ratio).toBeCloseTo(1000, 9);
    expect(f.suspected_cause).toMatch(/×1000/);
    expect(f.details).toMatchObject({ raw: rawCmax, normed: slipped, raw_unit: 'mg/l', expected_unit: 'gram / liter' });
  });

  it('finds a minutes/hours slip in a tmax copy', () => {
    const raw = output(1, { measurement_type: 'tmax', value: 90, unit: 'min' });
    const copy = output(2, { measurement_type: 'tmax', raw_pk: 1, normed: true, value: 90, unit: 'hour' });
    const [f] = checkNormedVsRaw(tables({ outputs: [raw, copy] }));
    expect(f).toMatchObject({ severity: 'major', recomputed: 1.5 });
    expect(f.suspected_cause).toMatch(/×60 \(minutes vs hours\)/);
  });

  it('reports an unexplained difference as minor', () => {
    const copy = { ...goodCopy, mean: 0.0051 };
    const [f] = checkNormedVsRaw(tables({ outputs: [rawCmax, copy] }));
    expect(f).toMatchObject({ severity: 'minor', suspected_cause: null });
  });

  it('finds a missing normed copy and a copy whose raw_pk points nowhere', () => {
    const orphan = output(3, { raw_pk: 99, normed: true, mean: 1, unit: 'gram / liter' });
    const findings = checkNormedVsRaw(tables({ outputs: [rawCmax, orphan] }));
    expect(findings.map((f) => [f.severity, f.message])).toEqual([
      ['major', 'output 1 has no normed copy'],
      ['minor', 'normed output 3 points to raw_pk 99, which is not in the dataset'],
    ]);
  });

  it('reports a unit that is not the expected normalised unit, and a dimension mismatch', () => {
    const wrongSpelling = { ...goodCopy, mean: 5, sd: 1, unit: 'mg/l' };
    const [unitFinding] = checkNormedVsRaw(tables({ outputs: [rawCmax, wrongSpelling] }));
    expect(unitFinding).toMatchObject({ severity: 'minor', reported_unit: 'mg/l', recomputed_unit: 'gram / liter' });
    expect(unitFinding.message).toMatch(/not the expected normalised unit 'gram \/ liter'/);

    const wrongDimension = { ...goodCopy, unit: 'hour' };
    const [dimFinding] = checkNormedVsRaw(tables({ outputs: [rawCmax, wrongDimension] }));
    expect(dimFinding.severity).toBe('major');
    expect(dimFinding.message).toMatch(/dimension \[time\] of 'hour' differs from \[mass\] \/ \[length\] \*\* 3/);
  });

  it('converts molar raw records with the info nodes’ molar mass, exactly', () => {
    const node: InfoNodeRecord = {
      sid: 'caf', name: 'caffeine', label: 'caffeine', ntype: 'substance', dtype: null, deprecated: false, description: null, synonyms: [], mass: 194.19076,
    };
    const raw = output(1, { mean: 50, unit: '\u00B5mol/l' });
    const good = output(2, { raw_pk: 1, normed: true, mean: 50e-6 * 194.19076, unit: 'gram / liter' });
    expect(checkNormedVsRaw(tables({ outputs: [raw, good], info_nodes: [node] }))).toEqual([]);
    // With the built-in 194.19 g/mol the same copy agrees to ~4e-7: allowed for the rounded table.
    expect(checkNormedVsRaw(tables({ outputs: [raw, good] }))).toEqual([]);
    // A substance whose node has no mass stays molar, as in PK-DB.
    const molar = output(2, { raw_pk: 1, normed: true, mean: 5e-5, unit: 'mole / liter' });
    expect(checkNormedVsRaw(tables({ outputs: [raw, molar], info_nodes: [{ ...node, mass: null }] }))).toEqual([]);
  });

  it('says which molar mass PK-DB must have used when the dataset gives none', () => {
    const raw = output(1, { mean: 50, unit: '\u00B5mol/l', substance: 'mystery' });
    const copy = output(2, { raw_pk: 1, normed: true, mean: 50e-6 * 300, unit: 'gram / liter', substance: 'mystery' });
    const [f] = checkNormedVsRaw(tables({ outputs: [raw, copy] }));
    expect(f.severity).toBe('info');
    expect(f.details?.inferred_molar_mass).toBeCloseTo(300, 9);
  });

  it('links copies without raw_pk by identity (the API /outputs/ has none)', () => {
    const other = output(3, { measurement_type: 'tmax', value: 2, unit: 'h' });
    const copies = [
      output(4, { normed: true, mean: 0.005, sd: 0.001, unit: 'gram / liter' }),
      output(5, { measurement_type: 'tmax', normed: true, value: 120, unit: 'hour' }),
    ];
    const findings = checkNormedVsRaw(tables({ outputs: [rawCmax, other, ...copies] }));
    expect(findings.map((f) => f.severity)).toEqual(['info', 'major']);
    expect(findings[1]).toMatchObject({ output_pk: 5, recomputed: 2 });
    expect(findings[1].suspected_cause).toMatch(/×60/);
  });

  it('tolerates sd/se/cv that PK-DB completed for group outputs', () => {
    const completed = { ...goodCopy, se: 0.0005, cv: 0.2 };
    expect(checkNormedVsRaw(tables({ outputs: [rawCmax, completed] }))).toEqual([]);
  });

  it('reports an unparseable raw unit without stopping', () => {
    const raw = output(1, { mean: 5, unit: 'mg per litre-ish' });
    const copy = output(2, { raw_pk: 1, normed: true, mean: 0.005, unit: 'gram / liter' });
    const findings = checkNormedVsRaw(tables({ outputs: [raw, copy, { ...rawCmax, pk: 3 }, { ...goodCopy, pk: 4, raw_pk: 3 }] }));
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'unit', severity: 'minor' });
    expect(findings[0].message).toContain("'mg per litre-ish'");
  });
});

describe('checkNormedVsRaw: normed-only data', () => {
  it('accepts normalised units and reports the others by severity', () => {
    const normedOnly = [
      output(1, { normed: true, mean: 0.005, unit: 'gram / liter' }),
      output(2, { normed: true, calculated: true, measurement_type: 'vd', value: 3, unit: 'liter * milligram / millimole', output_type: null }),
      output(3, { normed: true, measurement_type: 'cmax', mean: 5, unit: 'mg/l' }),
      output(4, { normed: true, calculated: true, measurement_type: 'kel', value: 0.1, unit: '1 / minute', output_type: null }),
      output(5, { normed: true, calculated: true, measurement_type: 'clearance', value: 3, unit: 'milliliter / meter ** 2 / minute', output_type: null }),
      output(6, { normed: true, measurement_type: 'brand new type', value: 3, unit: 'gram' }),
      output(7, { normed: true, measurement_type: 'brand new type', value: 4, unit: 'gram' }),
      output(8, { normed: true, measurement_type: 'auc_end', value: 4, unit: 'gram * hour / liter', time: 24, time_unit: 'na' }),
    ];
    const findings = checkNormedVsRaw(tables({ outputs: normedOnly }));
    const summary = findings.map((f) => [f.kind, f.severity, f.output_pk ?? f.measurement_type]);
    expect(summary).toEqual([
      ['unit', 'info', 2],
      ['unit', 'minor', 3],
      ['unit', 'minor', 5],
      ['unit', 'info', 'brand_new_type'],
      ['unit', 'minor', null],
    ]);
    expect(findings[2].message).toMatch(/the pkdb profile stores liter \/ hour/);
    expect(findings[3].message).toMatch(/^2 normed output/);
  });

  it('checks characteristica units once each', () => {
    const group: GroupRecord = {
      pk: 1, name: 'all', count: 10, parent_pk: null, study_sid: 'SYN9999', study_name: 'Handmade2024',
      characteristica: [
        { ...STATS, pk: 1, count: 10, measurement_type: 'age', calculation_type: null, choice: null, substance: null, group_count: 10, mean: 30, unit: 'year' },
        { ...STATS, pk: 2, count: 10, measurement_type: 'weight', calculation_type: null, choice: null, substance: null, group_count: 10, mean: 70000, unit: 'gram' },
      ],
    };
    const findings = checkNormedVsRaw(tables({ groups: [group, { ...group, pk: 2 }] }));
    expect(findings).toHaveLength(1);
    expect(findings[0].message).toMatch(/normed characteristica 2: 'gram' .* is not a normalised weight unit/);
  });
});

describe('checkNormedVsRaw on the bundled fixtures', () => {
  it('finds the planted normed-vs-raw errors with their factor, and nothing else', async () => {
    const findings = checkNormedVsRaw(await fixtureTables());
    const planted = (await expectedFixtureFindings()).filter((f) => f.kind === 'normed-vs-raw');
    expect(planted.length).toBeGreaterThan(0);
    expect(findings.map((f) => f.output_pk).sort()).toEqual(planted.map((f) => f.output_pk).sort());
    for (const p of planted) {
      const f = findings.find((x) => x.output_pk === p.output_pk);
      expect(f).toMatchObject({ kind: 'normed-vs-raw', severity: 'major', measurement_type: p.measurement_type, subject: p.subject });
      expect(Math.abs((f?.ratio as number) / (p.ratio as number) - 1)).toBeLessThan(1e-9);
      expect(Math.abs((f?.recomputed as number) / (p.recomputed as number) - 1)).toBeLessThan(1e-9);
      expect(f?.suspected_cause).toMatch(p.ratio as number < 1 ? /×1\/1000/ : /×1000/);
    }
  });
});

describeShared('checkNormedVsRaw on the shared export', SHARED_EXPORT, () => {
  it('finds only the known oddities and the `na` time unit', async () => {
    const { tables: exported } = await readExport(SHARED_EXPORT);
    const findings = checkNormedVsRaw(exported);
    const summary = findings.map((f) => `${f.severity} ${f.output_pk ?? ''} ${f.reported_unit ?? ''}`.trim());
    expect(summary.sort()).toEqual([
      'info 103210 microgram * milliliter / hour / micromole',
      'info 103215 liter * milligram / millimole',
      'info 103216 liter * milligram / millimole',
      'minor',
    ]);
    expect(findings.find((f) => f.severity === 'minor')?.message).toMatch(/4 normed output.*time_unit 'na'/);
  });
});
