/**
 * Building a "next release" of a dataset for tests of stable ids and of
 * `pkdb diff`: renumber a study's pks (as PK-DB does when a study is
 * re-uploaded), copy a study under a new sid, drop records.
 */
import type { DatasetTables, TimecourseRecord } from '../../src/data/model.js';

/** A deep copy (records are shared between tables otherwise). */
export function cloneTables(tables: DatasetTables): DatasetTables {
  return structuredClone(tables);
}

/** Adds `offset` to every pk of the records of `sid` (and to the pks they refer to). Mutates `tables`. */
export function renumberStudy(tables: DatasetTables, sid: string, offset: number): void {
  const add = (pk: number | null) => (pk === null ? null : pk + offset);
  for (const g of tables.groups) if (g.study_sid === sid) Object.assign(g, { pk: g.pk + offset, parent_pk: add(g.parent_pk) });
  for (const i of tables.individuals) if (i.study_sid === sid) Object.assign(i, { pk: i.pk + offset, group_pk: add(i.group_pk) });
  for (const i of tables.interventions) if (i.study_sid === sid) Object.assign(i, { pk: i.pk + offset, raw_pk: add(i.raw_pk) });
  for (const o of tables.outputs) {
    if (o.study_sid !== sid) continue;
    Object.assign(o, {
      pk: o.pk + offset, raw_pk: add(o.raw_pk), group_pk: add(o.group_pk), individual_pk: add(o.individual_pk),
      intervention_pks: o.intervention_pks.map((pk) => pk + offset), subset_pk: add(o.subset_pk),
    });
  }
  for (const tc of tables.timecourses) {
    if (tc.study_sid !== sid) continue;
    Object.assign(tc, {
      subset_pk: tc.subset_pk + offset, output_pk: tc.output_pk.map((pk) => pk + offset), intervention_pk: tc.intervention_pk.map((pk) => pk + offset),
      group_pk: add(tc.group_pk), individual_pk: add(tc.individual_pk),
    } satisfies Partial<TimecourseRecord>);
  }
  for (const s of tables.scatters) if (s.study_sid === sid) s.subset_pk += offset;
}

/** A copy of study `sid` as `newSid` / `newName`, every pk shifted by `offset`. Mutates `tables`. */
export function copyStudy(tables: DatasetTables, sid: string, newSid: string, newName: string, offset: number): void {
  const part = cloneTables({
    ...tables,
    studies: tables.studies.filter((s) => s.sid === sid),
    groups: tables.groups.filter((r) => r.study_sid === sid),
    individuals: tables.individuals.filter((r) => r.study_sid === sid),
    interventions: tables.interventions.filter((r) => r.study_sid === sid),
    outputs: tables.outputs.filter((r) => r.study_sid === sid),
    timecourses: tables.timecourses.filter((r) => r.study_sid === sid),
    scatters: tables.scatters.filter((r) => r.study_sid === sid),
  });
  renumberStudy(part, sid, offset);
  const rename = <R extends { study_sid: string; study_name: string }>(r: R) => Object.assign(r, { study_sid: newSid, study_name: newName });
  tables.studies.push(...part.studies.map((s) => Object.assign(s, { sid: newSid, name: newName })));
  tables.groups.push(...part.groups.map(rename));
  tables.individuals.push(...part.individuals.map(rename));
  tables.interventions.push(...part.interventions.map(rename));
  tables.outputs.push(...part.outputs.map(rename));
  tables.timecourses.push(...part.timecourses.map(rename));
  tables.scatters.push(...part.scatters.map(rename));
}
