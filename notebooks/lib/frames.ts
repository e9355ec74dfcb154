/**
 * arquero DataFrames of a Dataset for exploration: one row per study,
 * substance, group and characteristic. Records with a normed copy are
 * counted once (the normed copy), as `pkdb summary` counts distinct entities.
 */
import * as aq from 'arquero';
import type { Dataset } from '../../src/data/dataset.js';
import type { CharacteristicaRecord } from '../../src/data/model.js';
import { molarMassLookup } from '../../src/units/molar-mass.js';

/** Raw records that have a normed copy are the same entity twice; keep the normed one. */
export function distinct<R extends { pk: number; normed: boolean; raw_pk: number | null }>(records: readonly R[]): R[] {
  const hasNormedCopy = new Set(records.filter((r) => r.normed && r.raw_pk !== null).map((r) => r.raw_pk));
  return records.filter((r) => r.normed || !hasNormedCopy.has(r.pk));
}

/** The counts `pkdb summary --json` prints: distinct entities, not CSV rows. */
export function datasetCounts(dataset: Dataset) {
  const t = dataset.tables;
  const outputs = distinct(t.outputs);
  return {
    studies: t.studies.length,
    groups: t.groups.length,
    individuals: t.individuals.length,
    interventions: distinct(t.interventions).length,
    outputs: outputs.length,
    calculated_outputs: outputs.filter((o) => o.calculated).length,
    timecourses: t.timecourses.length,
    scatters: t.scatters.length,
  };
}

export function studiesFrame(dataset: Dataset) {
  return aq.from(
    dataset.tables.studies.map((s) => ({
      sid: s.sid,
      name: s.name,
      substances: s.substances.join(', '),
      pmid: s.reference_pmid,
      groups: dataset.groupsOfStudy(s.sid).length,
      individuals: dataset.individualsOfStudy(s.sid).length,
      outputs: distinct(dataset.outputsOfStudy(s.sid)).length,
      timecourses: dataset.timecoursesOfStudy(s.sid).length,
    })),
  );
}

/** One row per substance: how many studies, outputs and timecourses mention it, and its molar mass. */
export function substancesFrame(dataset: Dataset) {
  const massOf = molarMassLookup(dataset.tables);
  const rows = new Map<string, { studies: Set<string>; outputs: number; timecourses: number }>();
  const entry = (substance: string) => {
    let row = rows.get(substance);
    if (!row) rows.set(substance, (row = { studies: new Set(), outputs: 0, timecourses: 0 }));
    return row;
  };
  for (const o of distinct(dataset.tables.outputs)) {
    if (!o.substance || o.output_type === 'timecourse' || o.output_type === 'array') continue;
    const row = entry(o.substance);
    row.studies.add(o.study_sid);
    row.outputs++;
  }
  for (const tc of dataset.tables.timecourses) {
    // Timecourses carry the substance sid; outputs (and the term table) the name.
    const name = dataset.memberOutputs(tc)[0]?.substance ?? dataset.term(tc.substance ?? '')?.name ?? tc.substance;
    if (!name) continue;
    const row = entry(name);
    row.studies.add(tc.study_sid);
    row.timecourses++;
  }
  return aq
    .from(
      [...rows].map(([substance, r]) => ({
        substance,
        studies: r.studies.size,
        outputs: r.outputs,
        timecourses: r.timecourses,
        molar_mass_g_per_mol: massOf(substance)?.mass ?? null,
      })),
    )
    .orderby(aq.desc('studies'), aq.desc('outputs'), 'substance');
}

export function groupsFrame(dataset: Dataset) {
  return aq.from(
    dataset.tables.groups.map((g) => ({
      study_sid: g.study_sid,
      group_pk: g.pk,
      group: g.name,
      count: g.count,
      parent: g.parent_pk === null ? null : (dataset.group(g.parent_pk)?.name ?? String(g.parent_pk)),
      characteristica: g.characteristica.length,
    })),
  );
}

/** `34.2 ± 5.1 year`, `homo sapiens`, `25–61 year`: a characteristic as a reader would write it. */
export function characteristicText(c: CharacteristicaRecord): string {
  const g = (x: number) => String(Number(x.toPrecision(3)));
  const unit = c.unit && c.unit !== 'dimensionless' ? ` ${c.unit}` : '';
  const centre = c.mean ?? c.median ?? c.value;
  if (centre !== null) return `${g(centre)}${c.sd !== null ? ` ± ${g(c.sd)}` : ''}${unit}`;
  if (c.min !== null && c.max !== null) return `${g(c.min)}–${g(c.max)}${unit}`;
  return c.choice ?? '';
}

/** Long table: one row per group and characteristic (normed, inherited ones included). */
export function characteristicaFrame(dataset: Dataset) {
  return aq.from(
    dataset.tables.groups.flatMap((g) =>
      g.characteristica.map((c) => ({
        study_sid: g.study_sid,
        group: g.name,
        measurement_type: c.measurement_type,
        substance: c.substance,
        count: c.count,
        text: characteristicText(c),
        mean: c.mean,
        sd: c.sd,
        choice: c.choice,
        unit: c.unit,
      })),
    ),
  );
}
