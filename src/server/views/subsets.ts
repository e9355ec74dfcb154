/**
 * Subset projections: /subsets/ (timecourses and scatters with their array of
 * points), /pkdata/data/ (one item per data point x dimension) and
 * /pkdata/timecourses/ (timecourses.csv columns as JSON; PK-DB API notes §6, §8).
 *
 * Known substitutions, since an export has no Data/DataPoint/OutputEx tables:
 * `ex.pk` is the subset pk; `data_pk`/`data_name` are the subset's pk and name;
 * a timecourse point's `data_point_pk` is its output pk (one output per point).
 */
import type { ScatterRecord, TimecourseRecord } from '../../data/model.js';
import type { DataPoint, FlatTimecourse, Subset, SubsetOutput, TermRef } from '../../api/schemas/index.js';
import type { ViewContext } from './context.js';
import { individualStub, interventionStubs } from './records.js';
import { groupStub } from './subjects.js';

const LIST_STATS = ['value', 'mean', 'median', 'min', 'max', 'se', 'sd', 'cv'] as const;

/** Element k of a per-point column; a scalar (collapsed) column applies to every point. */
function at(column: unknown, k: number): unknown {
  if (Array.isArray(column)) return column[k] ?? null;
  return column ?? null;
}

function asNumber(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** The Stats numbers of point k, from per-point lists or collapsed scalars. */
function statsAt(columns: Record<string, unknown>, k: number) {
  const pick = (key: (typeof LIST_STATS)[number]) => asNumber(at(columns[key], k));
  return {
    value: pick('value'),
    mean: pick('mean'),
    median: pick('median'),
    min: pick('min'),
    max: pick('max'),
    se: pick('se'),
    sd: pick('sd'),
    cv: pick('cv'),
  };
}

function asPk(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
}

function timecoursePoint(ctx: ViewContext, tc: TimecourseRecord, k: number): SubsetOutput {
  const stats = statsAt(tc as unknown as Record<string, unknown>, k);
  return {
    pk: tc.output_pk[k],
    group: groupStub(ctx, tc.group_pk) ?? {},
    individual: individualStub(ctx, tc.individual_pk) ?? {},
    interventions: interventionStubs(ctx, tc.intervention_pk),
    ex: { pk: tc.subset_pk },
    normed: tc.normed,
    ...stats,
    unit: tc.unit,
    time_unit: tc.time_unit,
    time: tc.time[k] ?? null,
    tissue: ctx.termBySid(tc.tissue, tc.tissue_label),
    method: ctx.termBySid(tc.method, tc.method_label),
    measurement_type: ctx.termBySid(tc.measurement_type, tc.measurement_type_label) as TermRef,
    substance: ctx.termBySid(tc.substance, tc.substance_label),
    choice: ctx.termBySid(tc.choice, tc.choice_label),
    label: tc.label,
  };
}

function scatterPointCount(s: ScatterRecord): number {
  const pks = s.x.outputs_pk;
  return Array.isArray(pks) ? pks.length : 1;
}

/** `interventions` is one shared tuple or a list of per-point tuples. */
function scatterInterventions(column: unknown, k: number): number[] {
  if (!Array.isArray(column)) return [];
  const perPoint = column.length > 0 && column.every(Array.isArray);
  const pks = perPoint ? (column[k] as unknown[]) ?? [] : column;
  return pks.map(asPk).filter((pk): pk is number => pk !== null);
}

function scatterDimension(ctx: ViewContext, s: ScatterRecord, d: Record<string, unknown>, k: number): SubsetOutput {
  const str = (key: string) => {
    const v = at(d[key], k);
    return v === null || v === undefined ? null : String(v);
  };
  const stats = statsAt(d, k);
  return {
    pk: asPk(at(d.outputs_pk, k)) ?? 0,
    group: groupStub(ctx, asPk(at(d.group_pk, k))) ?? {},
    individual: individualStub(ctx, asPk(at(d.individual_pk, k))) ?? {},
    interventions: interventionStubs(ctx, scatterInterventions(d.interventions, k)),
    ex: { pk: s.subset_pk },
    normed: at(d.normed, k) !== false,
    ...stats,
    unit: str('unit'),
    time_unit: str('time_unit'),
    time: asNumber(at(d.time, k)),
    tissue: ctx.termBySid(str('tissue'), str('tissue_label')),
    method: ctx.termBySid(str('method'), str('method_label')),
    measurement_type: ctx.termBySid(str('measurement_type') ?? '', str('measurement_type__label')) as TermRef,
    substance: ctx.termBySid(str('substance'), str('substance_label')),
    choice: ctx.termBySid(str('choice'), str('choice_label')),
    label: str('label'),
  };
}

export function timecourseSubsetItem(ctx: ViewContext, tc: TimecourseRecord): Subset {
  return {
    pk: tc.subset_pk,
    study: ctx.studyRef(tc.study_sid, tc.study_name),
    name: tc.subset_name,
    data_type: 'timecourse',
    array: tc.output_pk.map((_, k) => [timecoursePoint(ctx, tc, k)]),
  };
}

export function scatterSubsetItem(ctx: ViewContext, s: ScatterRecord): Subset {
  const points = Array.from({ length: scatterPointCount(s) }, (_, k) => [
    scatterDimension(ctx, s, s.x, k),
    scatterDimension(ctx, s, s.y, k),
  ]);
  return { pk: s.subset_pk, study: ctx.studyRef(s.study_sid, s.study_name), name: s.subset_name, data_type: 'scatter', array: points };
}

function dataPoint(
  subset: { study_sid: string; study_name: string; subset_pk: number; subset_name: string },
  data_type: string,
  data_point_pk: number,
  output_pk: number,
  dimension: number,
): DataPoint {
  return {
    study_sid: subset.study_sid,
    study_name: subset.study_name,
    data_pk: subset.subset_pk,
    data_name: subset.subset_name,
    data_type,
    subset_pk: subset.subset_pk,
    subset_name: subset.subset_name,
    data_point_pk,
    output_pk,
    dimension,
  };
}

export function timecourseDataItems(tc: TimecourseRecord) {
  return tc.output_pk.map((pk) => dataPoint(tc, 'timecourse', pk, pk, 0));
}

export function scatterDataItems(s: ScatterRecord) {
  const items: DataPoint[] = [];
  for (let k = 0; k < scatterPointCount(s); k++) {
    const pointPk = asPk(at(s.x.data_point, k)) ?? asPk(at(s.y.data_point, k)) ?? k;
    const xPk = asPk(at(s.x.outputs_pk, k));
    const yPk = asPk(at(s.y.outputs_pk, k));
    if (xPk !== null) items.push(dataPoint(s, 'scatter', pointPk, xPk, 0));
    if (yPk !== null) items.push(dataPoint(s, 'scatter', pointPk, yPk, 1));
  }
  return items;
}

/** /pkdata/timecourses/ item: the timecourses.csv columns in their order. */
export function flatTimecourseItem(tc: TimecourseRecord): FlatTimecourse {
  return {
    study_sid: tc.study_sid,
    study_name: tc.study_name,
    output_pk: tc.output_pk,
    subset_pk: tc.subset_pk,
    subset_name: tc.subset_name,
    intervention_pk: tc.intervention_pk,
    group_pk: tc.group_pk,
    individual_pk: tc.individual_pk,
    normed: tc.normed,
    tissue: tc.tissue,
    tissue_label: tc.tissue_label,
    method: tc.method,
    method_label: tc.method_label,
    label: tc.label,
    time: tc.time,
    time_unit: tc.time_unit,
    measurement_type: tc.measurement_type,
    measurement_type_label: tc.measurement_type_label,
    choice: tc.choice,
    choice_label: tc.choice_label,
    substance: tc.substance,
    substance_label: tc.substance_label,
    value: tc.value,
    mean: tc.mean,
    median: tc.median,
    min: tc.min,
    max: tc.max,
    sd: tc.sd,
    se: tc.se,
    cv: tc.cv,
    unit: tc.unit,
  };
}
