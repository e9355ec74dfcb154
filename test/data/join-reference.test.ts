import { describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import { joinReference, largestPk, shiftPks } from '../../src/data/join-reference.js';
import type { DatasetTables } from '../../src/data/model.js';
import { filterStudies } from '../../src/data/select.js';
import { runQa } from '../../src/qa/run.js';
import { cloneTables, renumberStudy } from '../helpers/releases.js';

describe('joinReference', () => {
  it('moves every pk of the reference past the checked tables’ largest, links alike, and keeps the checked version of a shared study', async () => {
    const { tables } = await loadFixtures();
    // Two databases: the checked one holds SYN0002 (a newer version) and SYN0012, the reference the whole fixtures.
    const checked = filterStudies(tables, ['SYN0002', 'SYN0012']);
    const before = JSON.stringify(tables);
    const { tables: joined, referenceStudies } = joinReference(checked, tables);
    const offset = largestPk(checked) + 1;
    expect(referenceStudies).toEqual(tables.studies.map((s) => s.sid).filter((sid) => sid !== 'SYN0002' && sid !== 'SYN0012'));
    expect(joined.studies.map((s) => s.sid).sort()).toEqual(tables.studies.map((s) => s.sid).sort());
    // The checked records are the input's own, pks unchanged.
    expect(joined.outputs.filter((o) => o.study_sid === 'SYN0002')).toEqual(checked.outputs.filter((o) => o.study_sid === 'SYN0002'));
    // No pk of one table twice; every link of a moved record points at a moved record of its own study.
    const pks = (xs: { pk: number }[]) => xs.map((x) => x.pk);
    for (const list of [pks(joined.groups), pks(joined.individuals), pks(joined.interventions), pks(joined.outputs), joined.timecourses.map((t) => t.subset_pk)]) {
      expect(new Set(list).size).toBe(list.length);
    }
    const groupStudy = new Map(joined.groups.map((g) => [g.pk, g.study_sid]));
    const interventionStudy = new Map(joined.interventions.map((i) => [i.pk, i.study_sid]));
    for (const o of joined.outputs.filter((x) => referenceStudies.includes(x.study_sid))) {
      expect(o.pk).toBeGreaterThanOrEqual(offset);
      if (o.group_pk !== null) expect(groupStudy.get(o.group_pk)).toBe(o.study_sid);
      for (const pk of o.intervention_pks) expect(interventionStudy.get(pk)).toBe(o.study_sid);
    }
    const outputPks = new Set(pks(joined.outputs));
    for (const tc of joined.timecourses) for (const pk of tc.output_pk) expect(outputPks.has(pk)).toBe(true);
    // The input is not modified.
    expect(JSON.stringify(tables)).toBe(before);
  });

  it('shifts a record and each of its links by the offset', () => {
    const tables: DatasetTables = {
      studies: [], individuals: [], scatters: [], terms: [],
      groups: [{ pk: 1, name: 'all', count: 2, parent_pk: null, study_sid: 'R', study_name: 'R', characteristica: [] }],
      interventions: [],
      outputs: [],
      timecourses: [],
    };
    const sub = { pk: 2, name: 'sub', count: 1, parent_pk: 1, study_sid: 'R', study_name: 'R', characteristica: [] };
    tables.groups.push(sub);
    const moved = shiftPks(tables, 100);
    expect(moved.groups.map((g) => [g.pk, g.parent_pk])).toEqual([[101, null], [102, 101]]);
    expect(tables.groups[1].parent_pk).toBe(1);
  });

  it('lets a study of another database, its pks colliding with the reference’s, get the findings a whole run gives it', async () => {
    const { tables } = await loadFixtures();
    const whole = runQa(Dataset.fromTables(tables, { kind: 'fixtures', location: 'whole' })).findings.filter((f) => f.study_sid === 'SYN0012');
    // SYN0012 as a curation server would hold it, renumbered onto pks the reference uses for other studies.
    const other = cloneTables(filterStudies(tables, ['SYN0012']));
    const lowest = Math.min(...[other.groups, other.individuals, other.interventions, other.outputs].flatMap((rs) => rs.map((r) => r.pk)), ...other.timecourses.map((t) => t.subset_pk));
    renumberStudy(other, 'SYN0012', 1 - lowest);
    expect(other.outputs.some((o) => tables.outputs.some((r) => r.pk === o.pk && r.study_sid !== 'SYN0012'))).toBe(true);
    const { tables: joined } = joinReference(other, tables);
    const scoped = runQa(Dataset.fromTables(joined, { kind: 'export', location: 'joined' }), { studies: ['SYN0012'] }).findings;
    // The same findings (their ids hash the renumbered pks: compared by what they say).
    const said = (fs: typeof whole) => fs.map((f) => [f.kind, f.severity, f.measurement_type, f.suspected_cause]).sort();
    expect(said(scoped)).toEqual(said(whole));
    expect(scoped).toContainEqual(expect.objectContaining({ kind: 'reference-range', severity: 'major' }));
  });
});
