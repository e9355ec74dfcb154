/**
 * timecourses.csv and scatters.csv to records, the outputs' subset links, and
 * the info-node terms the export reveals. Subsets name info nodes by sid +
 * label (`apap` / `paracetamol`) while outputs.csv uses names; pairing a
 * subset's sid with its member outputs' name gives the `{sid, name, label}`
 * terms (PK-DB calculation §2).
 */
import type { OutputRecord, ScatterRecord, TermRecord, TimecourseRecord } from '../model.js';
import { UniqueKeys, type Parsed, type ProblemLog } from './cells.js';
import { columnsOf, SCATTER_AXIS, SCATTERS, TIMECOURSES, type Cells } from './columns.js';

const T = columnsOf(TIMECOURSES);
const X = columnsOf(SCATTERS);

/** The per-point list columns that must have one element per `output_pk`. */
const ALIGNED = ['time', 'value', 'mean', 'median', 'min', 'max', 'sd', 'se', 'cv'] as const;

export function buildTimecourses(rows: Iterable<Parsed<typeof TIMECOURSES>>, log: ProblemLog): TimecourseRecord[] {
  const unique = new UniqueKeys<number>(TIMECOURSES.file, 'subset_pk', 'subset', log);
  const timecourses: TimecourseRecord[] = [];
  for (const { line, row } of rows) {
    if (!unique.claim(T.subset_pk(row), line)) continue;
    const points = T.output_pk(row).length;
    const misaligned = ALIGNED.find((column) => {
      const list = T[column](row);
      return Array.isArray(list) && list.length !== points;
    });
    if (misaligned !== undefined) {
      const length = (T[misaligned](row) as unknown[]).length;
      const message = `${length} elements but output_pk has ${points}`;
      log.add({ file: TIMECOURSES.file, line, column: misaligned, message });
      continue;
    }
    timecourses.push({
      subset_pk: T.subset_pk(row),
      subset_name: T.subset_name(row),
      study_sid: T.study_sid(row),
      study_name: T.study_name(row),
      output_pk: T.output_pk(row),
      intervention_pk: T.intervention_pk(row),
      group_pk: T.group_pk(row),
      individual_pk: T.individual_pk(row),
      normed: T.normed(row),
      tissue: T.tissue(row),
      tissue_label: T.tissue_label(row),
      method: T.method(row),
      method_label: T.method_label(row),
      label: T.label(row),
      time: T.time(row),
      time_unit: T.time_unit(row),
      measurement_type: T.measurement_type(row),
      measurement_type_label: T.measurement_type_label(row),
      choice: T.choice(row),
      choice_label: T.choice_label(row),
      substance: T.substance(row),
      substance_label: T.substance_label(row),
      value: T.value(row),
      mean: T.mean(row),
      median: T.median(row),
      min: T.min(row),
      max: T.max(row),
      sd: T.sd(row),
      se: T.se(row),
      cv: T.cv(row),
      unit: T.unit(row),
    });
  }
  return timecourses;
}

/** The readers of one scatter axis's columns (`x_…` or `y_…`), with each column's name without the prefix. */
function axisReaders(prefix: 'x_' | 'y_'): [string, (cells: Cells<typeof SCATTERS>) => unknown][] {
  const readers = X as unknown as Record<string, (cells: Cells<typeof SCATTERS>) => unknown>;
  return Object.keys(SCATTER_AXIS).map((key) => [key, readers[prefix + key]]);
}

const AXES = { x: axisReaders('x_'), y: axisReaders('y_') };

function axisOf(readers: [string, (cells: Cells<typeof SCATTERS>) => unknown][], row: Cells<typeof SCATTERS>): ScatterRecord['x'] {
  return Object.fromEntries(readers.map(([key, read]) => [key, read(row)])) as ScatterRecord['x'];
}

export function buildScatters(rows: Iterable<Parsed<typeof SCATTERS>>, log: ProblemLog): ScatterRecord[] {
  const unique = new UniqueKeys<number>(SCATTERS.file, 'subset_pk', 'subset', log);
  const scatters: ScatterRecord[] = [];
  for (const { line, row } of rows) {
    if (!unique.claim(X.subset_pk(row), line)) continue;
    scatters.push({
      subset_pk: X.subset_pk(row),
      subset_name: X.subset_name(row),
      study_sid: X.study_sid(row),
      study_name: X.study_name(row),
      x: axisOf(AXES.x, row),
      y: axisOf(AXES.y, row),
    });
  }
  return scatters;
}

/** Sets `subset_pk` on every output listed in a timecourse's `output_pk`. */
export function linkTimecourseOutputs(outputs: OutputRecord[], timecourses: readonly TimecourseRecord[]): void {
  const subsetOf = new Map<number, number>();
  for (const tc of timecourses) for (let k = 0; k < tc.output_pk.length; k++) subsetOf.set(tc.output_pk[k], tc.subset_pk);
  for (let i = 0; i < outputs.length; i++) outputs[i].subset_pk = subsetOf.get(outputs[i].pk) ?? null;
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
  // The first member output of each subset, found in one pass over the outputs (the last of a repeated pk).
  const firstMembers = [
    ...timecourses.map((tc) => tc.output_pk[0]),
    ...scatters.flatMap((scatter) => [scatter.x, scatter.y].map(({ outputs_pk: pks }) => (Array.isArray(pks) ? pks[0] : pks))),
  ];
  const outputByPk = new Map<unknown, OutputRecord | undefined>(firstMembers.map((pk) => [pk, undefined]));
  for (let i = 0; i < outputs.length; i++) if (outputByPk.has(outputs[i].pk)) outputByPk.set(outputs[i].pk, outputs[i]);
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
