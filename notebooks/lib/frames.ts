/**
 * Aggregated arquero DataFrames for exploring a Dataset: one row per study and
 * per substance (src/data/frames.ts has the record-level views). Records with
 * a normed copy count once, as `Dataset.counts()` counts distinct entities.
 */
import * as aq from 'arquero';
import { countedRecords } from '../../src/data/counts.js';
import type { Dataset } from '../../src/data/dataset.js';
import { molarMassLookup } from '../../src/units/molar-mass.js';

export function studiesFrame(dataset: Dataset) {
  return aq.from(
    dataset.tables.studies.map((s) => ({
      sid: s.sid,
      name: s.name,
      substances: s.substances.join(', '),
      pmid: s.reference_pmid,
      groups: dataset.groupsOfStudy(s.sid).length,
      individuals: dataset.individualsOfStudy(s.sid).length,
      outputs: countedRecords(dataset.outputsOfStudy(s.sid)).length,
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
  for (const o of countedRecords(dataset.tables.outputs)) {
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

/** `34.2 ± 5.1 year`, `homo sapiens`, `25–61 year`: a characteristic as a paper's Table 1 writes it. */
export function characteristicText(c: {
  mean: number | null;
  median: number | null;
  value: number | null;
  sd: number | null;
  min: number | null;
  max: number | null;
  choice: string | null;
  unit: string | null;
}): string {
  const g = (x: number) => String(Number(x.toPrecision(3)));
  const unit = c.unit && c.unit !== 'dimensionless' ? ` ${c.unit}` : '';
  const centre = c.mean ?? c.median ?? c.value;
  if (centre !== null) return `${g(centre)}${c.sd !== null ? ` ± ${g(c.sd)}` : ''}${unit}`;
  if (c.min !== null && c.max !== null) return `${g(c.min)}–${g(c.max)}${unit}`;
  return c.choice ?? '';
}
