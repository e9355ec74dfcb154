import { beforeAll, describe, expect, it } from 'vitest';
import { diffDatasets, fieldChange, type DatasetDiff } from '../../src/data/diff.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import { REMOVED_OUTPUT, RENUMBER_OFFSET, SLIP_OUTPUT, plantedReleases, type PlantedReleases } from '../helpers/planted-release.js';

describe('fieldChange', () => {
  it('gives new/old for numbers and for lists changed by one factor', () => {
    expect(fieldChange('value', 0.0000089, 0.0089)).toMatchObject({ old: 0.0000089, new: 0.0089 });
    expect(fieldChange('value', 0.0000089, 0.0089)!.factor).toBeCloseTo(1000, 9);
    expect(fieldChange('value', 2, 2)).toBeNull();
    expect(fieldChange('value', 0.1 + 0.2, 0.3)).toBeNull(); // float noise of a re-export
    expect(fieldChange('mean', [1, 2, null], [60, 120, null])!.factor).toBeCloseTo(60, 12);
    expect(fieldChange('mean', [1, 2, 3], [1, 4, 9])!.factor).toBeNull();
    expect(fieldChange('mean', [1, 2], [1, 2, 3])).toMatchObject({ factor: null });
    expect(fieldChange('unit', 'mg', 'g')).toEqual({ field: 'unit', old: 'mg', new: 'g', factor: null });
    expect(fieldChange('unit', null, null)).toBeNull();
  });
});

describe('diffDatasets', () => {
  let planted: PlantedReleases;
  let diff: DatasetDiff;
  beforeAll(async () => {
    planted = await plantedReleases();
    diff = diffDatasets(planted.oldDs.tables, planted.newDs.tables);
  });

  it('finds nothing between a dataset and itself', async () => {
    const { tables } = await loadFixtures();
    const same = diffDatasets(tables, tables);
    expect(same.records).toEqual([]);
    expect(same.studies).toEqual({ added: [], removed: [], changed: [] });
    expect(same.counts.outputs.unchanged).toBeGreaterThan(100);
  });

  it('lists the added study with all its records, and the studies whose records changed', () => {
    expect(diff.studies.added).toEqual(['SYN0099']);
    expect(diff.studies.removed).toEqual([]);
    expect(diff.studies.changed).toEqual(['SYN0002', 'SYN0004']);
    const copied = planted.oldDs.tables.outputs.filter((o) => o.study_sid === 'SYN0003' && o.output_type !== 'timecourse').length;
    expect(diff.records.filter((r) => r.table === 'outputs' && r.change === 'added' && r.study_sid === 'SYN0099')).toHaveLength(copied);
    expect(diff.counts.timecourses.added).toBe(planted.oldDs.tables.timecourses.filter((t) => t.study_sid === 'SYN0003').length);
  });

  it('shows the fixed slip as a changed value ×1000 with old and new values', () => {
    const changed = diff.records.filter((r) => r.change === 'changed');
    expect(changed).toHaveLength(1);
    const [slip] = changed;
    expect(slip).toMatchObject({ table: 'outputs', study_sid: 'SYN0002', old_pk: SLIP_OUTPUT, new_pk: SLIP_OUTPUT });
    expect(slip.key).toContain('individual:');
    expect(slip.key).toContain('cmax');
    expect(slip.fields).toHaveLength(1);
    expect(slip.fields[0]).toMatchObject({ field: 'value', old: 0.0000089 });
    expect(slip.fields[0].factor).toBeCloseTo(1000, 9);
  });

  it('shows the removed record with its old pk', () => {
    const removed = diff.records.filter((r) => r.change === 'removed');
    expect(removed).toEqual([expect.objectContaining({ table: 'outputs', study_sid: 'SYN0004', old_pk: REMOVED_OUTPUT, new_pk: null, fields: [] })]);
  });

  it('matches a renumbered study by its keys: no change, and a pk map to the new pks', () => {
    expect(diff.records.filter((r) => r.study_sid === 'SYN0005')).toEqual([]);
    for (const o of planted.oldDs.tables.outputs.filter((x) => x.study_sid === 'SYN0005')) {
      expect(diff.pkMap.output.get(o.pk), `output ${o.pk}`).toBe(o.pk + RENUMBER_OFFSET);
    }
    for (const t of planted.oldDs.tables.timecourses.filter((x) => x.study_sid === 'SYN0005')) {
      expect(diff.pkMap.subset.get(t.subset_pk)).toBe(t.subset_pk + RENUMBER_OFFSET);
    }
    expect(diff.pkMap.output.get(SLIP_OUTPUT)).toBe(SLIP_OUTPUT);
  });

  it('tells apart records sharing a key by unit, then by their order, which survives renumbering', async () => {
    const { tables } = await loadFixtures();
    const g = tables.groups[0];
    const twin = { ...g, pk: 9999 };
    const withTwin = { ...tables, groups: [...tables.groups, twin] };
    const d = diffDatasets(tables, withTwin);
    // Ambiguous in the new release: both sides number that name in pk order, so only the twin is new.
    expect(d.records.map((r) => [r.change, r.key])).toEqual([['added', `${g.study_sid}|${g.name}#2`]]);
    // Two outputs alike but for their unit (clearance absolute and per kg) match by unit even when renumbered.
    const o = tables.outputs.find((x) => x.output_type !== 'timecourse' && x.unit !== null)!;
    const perKg = { ...o, pk: 90_001, unit: `${o.unit} / kilogram`, value: 0.27 };
    const before = { ...tables, outputs: [...tables.outputs, perKg] };
    const after = { ...tables, outputs: [...tables.outputs.filter((x) => x !== o), { ...o, pk: 90_002 }, { ...perKg, pk: 80_000, value: 0.28 }] };
    const byUnit = diffDatasets(before, after);
    expect(byUnit.records).toHaveLength(1);
    expect(byUnit.records[0]).toMatchObject({ change: 'changed', old_pk: 90_001, new_pk: 80_000, fields: [{ field: 'value', old: 0.27, new: 0.28 }] });
    expect(byUnit.records[0].key).toContain('#unit=');
    expect(byUnit.pkMap.output.get(o.pk)).toBe(90_002);
  });
});
