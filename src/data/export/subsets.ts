/**
 * timecourses.csv and scatters.csv to records, the outputs' subset links, and
 * the info-node terms the export reveals. Subsets name info nodes by sid +
 * label (`apap` / `paracetamol`) while outputs.csv uses names; pairing a
 * subset's sid with its member outputs' name gives the `{sid, name, label}`
 * terms (PK-DB calculation §2).
 */
import type { OutputRecord, ScatterRecord, TermRecord, TimecourseRecord } from '../model.js';
import { UniqueKeys, type Parsed, type ProblemLog } from './cells.js';
import { SCATTER_AXIS, SCATTERS, TIMECOURSES } from './columns.js';

/** The per-point list columns that must have one element per `output_pk`. */
const ALIGNED = ['time', 'value', 'mean', 'median', 'min', 'max', 'sd', 'se', 'cv'] as const;

export function buildTimecourses(rows: Iterable<Parsed<typeof TIMECOURSES>>, log: ProblemLog): TimecourseRecord[] {
  const unique = new UniqueKeys<number>(TIMECOURSES.file, 'subset_pk', 'subset', log);
  const timecourses: TimecourseRecord[] = [];
  for (const { line, row } of rows) {
    if (!unique.claim(row.subset_pk, line)) continue;
    const points = row.output_pk.length;
    const misaligned = ALIGNED.find((column) => {
      const list = row[column];
      return Array.isArray(list) && list.length !== points;
    });
    if (misaligned !== undefined) {
      const length = (row[misaligned] as unknown[]).length;
      const message = `${length} elements but output_pk has ${points}`;
      log.add({ file: TIMECOURSES.file, line, column: misaligned, message });
      continue;
    }
    timecourses.push({
      subset_pk: row.subset_pk,
      subset_name: row.subset_name,
      study_sid: row.study_sid,
      study_name: row.study_name,
      output_pk: row.output_pk,
      intervention_pk: row.intervention_pk,
      group_pk: row.group_pk,
      individual_pk: row.individual_pk,
      normed: row.normed,
      tissue: row.tissue,
      tissue_label: row.tissue_label,
      method: row.method,
      method_label: row.method_label,
      label: row.label,
      time: row.time,
      time_unit: row.time_unit,
      measurement_type: row.measurement_type,
      measurement_type_label: row.measurement_type_label,
      choice: row.choice,
      choice_label: row.choice_label,
      substance: row.substance,
      substance_label: row.substance_label,
      value: row.value,
      mean: row.mean,
      median: row.median,
      min: row.min,
      max: row.max,
      sd: row.sd,
      se: row.se,
      cv: row.cv,
      unit: row.unit,
    });
  }
  return timecourses;
}

export function buildScatters(rows: Iterable<Parsed<typeof SCATTERS>>, log: ProblemLog): ScatterRecord[] {
  const unique = new UniqueKeys<number>(SCATTERS.file, 'subset_pk', 'subset', log);
  const scatters: ScatterRecord[] = [];
  for (const { line, row } of rows) {
    if (!unique.claim(row.subset_pk, line)) continue;
    const cells = row as unknown as Record<string, unknown>;
    const axis = (prefix: 'x_' | 'y_') =>
      Object.fromEntries(Object.keys(SCATTER_AXIS).map((key) => [key, cells[prefix + key]]));
    scatters.push({
      subset_pk: row.subset_pk,
      subset_name: row.subset_name,
      study_sid: row.study_sid,
      study_name: row.study_name,
      x: axis('x_'),
      y: axis('y_'),
    });
  }
  return scatters;
}

/** Sets `subset_pk` on every output listed in a timecourse's `output_pk`. */
export function linkTimecourseOutputs(outputs: OutputRecord[], timecourses: readonly TimecourseRecord[]): void {
  const subsetOf = new Map<number, number>();
  for (const tc of timecourses) for (const pk of tc.output_pk) subsetOf.set(pk, tc.subset_pk);
  for (const output of outputs) output.subset_pk = subsetOf.get(output.pk) ?? null;
}

/** The info-node fields a subset carries as sid + label, with the output field holding the name. */
const TERM_FIELDS = [
  { ntype: 'substance', sid: 'substance', label: 'substance_label' },
  { ntype: 'tissue', sid: 'tissue', label: 'tissue_label' },
  { ntype: 'method', sid: 'method', label: 'method_label' },
  { ntype: 'measurement_type', sid: 'measurement_type', label: 'measurement_type_label' },
  { ntype: 'choice', sid: 'choice', label: 'choice_label' },
] as const;

/**
 * Terms `{sid, name, label, ntype}` from each subset's sid/label pair and the
 * name its first member output carries; one term per (ntype, sid), first seen wins.
 */
export function buildTerms(
  outputs: readonly OutputRecord[],
  timecourses: readonly TimecourseRecord[],
  scatters: readonly ScatterRecord[],
): TermRecord[] {
  const outputByPk = new Map(outputs.map((o) => [o.pk, o]));
  const terms = new Map<string, TermRecord>();
  const add = (fields: Record<string, unknown>, memberPk: unknown) => {
    const output = typeof memberPk === 'number' ? outputByPk.get(memberPk) : undefined;
    if (!output) return;
    for (const field of TERM_FIELDS) {
      const sid = fields[field.sid];
      const name = output[field.ntype];
      if (typeof sid !== 'string' || typeof name !== 'string') continue;
      const key = `${field.ntype}\u0000${sid}`;
      if (terms.has(key)) continue;
      const label = fields[field.label];
      terms.set(key, { sid, name, label: typeof label === 'string' ? label : name, ntype: field.ntype });
    }
  };
  for (const tc of timecourses) add(tc as unknown as Record<string, unknown>, tc.output_pk[0]);
  for (const scatter of scatters) {
    for (const axis of [scatter.x, scatter.y]) {
      const pks = axis.outputs_pk;
      const scatterFields = { ...axis, measurement_type_label: axis.measurement_type__label };
      add(scatterFields, Array.isArray(pks) ? pks[0] : pks);
    }
  }
  return [...terms.values()];
}
