/**
 * Intervention and output projections: /interventions/, /outputs/ (term
 * objects, raw and normed rows) and the flat /pkdata/interventions/,
 * /pkdata/outputs/ (terms as sid + `_label`; one output item per output x
 * intervention, as outputs.csv; PK-DB API notes §6).
 */
import type { InterventionRecord, OutputRecord } from '../../data/model.js';
import type { FlatIntervention, FlatOutput, IndividualRef, Intervention, InterventionRef, Output, TermRef } from '../../api/schemas/index.js';
import type { ViewContext } from './context.js';
import { statsOf } from '../../data/records.js';
import { groupStub } from './subjects.js';

export function individualStub(ctx: ViewContext, pk: number | null): IndividualRef | null {
  if (pk === null) return null;
  return ctx.shared(`individual ${pk}`, () => ({ pk, name: ctx.individualsByPk.get(pk)?.name ?? '' }));
}

export function interventionStubs(ctx: ViewContext, pks: number[]): InterventionRef[] {
  return ctx.shared(`interventions ${pks.join(',')}`, () => pks.map((pk) => ({ pk, name: ctx.interventionsByPk.get(pk)?.name ?? '' })));
}

/** sid and label of a term as the flat views write them (`route`, `route_label`). */
function sidOf(ctx: ViewContext, name: string | null): string | null {
  return ctx.term(name)?.sid ?? null;
}

function labelOf(ctx: ViewContext, name: string | null): string | null {
  return ctx.term(name)?.label ?? null;
}

export function interventionItem(ctx: ViewContext, i: InterventionRecord): Intervention {
  return {
    pk: i.pk,
    normed: i.normed,
    name: i.name,
    route: ctx.term(i.route),
    form: ctx.term(i.form),
    application: ctx.term(i.application),
    time: i.time,
    time_end: i.time_end,
    time_unit: i.time_unit,
    study: ctx.studyRef(i.study_sid, i.study_name),
    measurement_type: ctx.term(i.measurement_type) as TermRef,
    calculation_type: ctx.term(i.calculation_type),
    choice: ctx.term(i.choice),
    substance: ctx.term(i.substance),
    ...statsOf(i),
  };
}

export function flatInterventionItem(ctx: ViewContext, i: InterventionRecord): FlatIntervention {
  return {
    study_sid: i.study_sid,
    study_name: i.study_name,
    intervention_pk: i.pk,
    raw_pk: i.raw_pk,
    normed: i.normed,
    name: i.name,
    route: sidOf(ctx, i.route),
    route_label: labelOf(ctx, i.route),
    form: sidOf(ctx, i.form),
    form_label: labelOf(ctx, i.form),
    application: sidOf(ctx, i.application),
    application_label: labelOf(ctx, i.application),
    time: i.time,
    time_end: i.time_end,
    time_unit: i.time_unit,
    measurement_type: sidOf(ctx, i.measurement_type) ?? i.measurement_type,
    measurement_type_label: labelOf(ctx, i.measurement_type),
    calculation_type: sidOf(ctx, i.calculation_type),
    calculation_type_label: labelOf(ctx, i.calculation_type),
    choice: sidOf(ctx, i.choice),
    choice_label: labelOf(ctx, i.choice),
    substance: sidOf(ctx, i.substance),
    substance_label: labelOf(ctx, i.substance),
    ...statsOf(i),
  };
}

export function outputItem(ctx: ViewContext, o: OutputRecord): Output {
  return {
    pk: o.pk,
    normed: o.normed,
    calculated: o.calculated,
    tissue: ctx.term(o.tissue),
    method: ctx.term(o.method),
    label: o.label,
    output_type: o.output_type,
    study: ctx.studyRef(o.study_sid, o.study_name),
    group: groupStub(ctx, o.group_pk),
    individual: individualStub(ctx, o.individual_pk),
    interventions: interventionStubs(ctx, o.intervention_pks),
    measurement_type: ctx.term(o.measurement_type) as TermRef,
    calculation_type: ctx.term(o.calculation_type),
    choice: ctx.term(o.choice),
    substance: ctx.term(o.substance),
    ...statsOf(o),
    time: o.time,
    time_unit: o.time_unit,
  };
}

/**
 * One item per linked intervention; an output without interventions has none
 * (as in outputs.csv). Written as one literal per row: 80 000 rows of spreads
 * over computed keys cost V8 seconds.
 */
export function flatOutputItems(ctx: ViewContext, o: OutputRecord): FlatOutput[] {
  const tissue = ctx.term(o.tissue);
  const method = ctx.term(o.method);
  const measurement = ctx.term(o.measurement_type);
  const calculation = ctx.term(o.calculation_type);
  const choice = ctx.term(o.choice);
  const substance = ctx.term(o.substance);
  return o.intervention_pks.map((intervention_pk) => ({
    study_sid: o.study_sid,
    study_name: o.study_name,
    output_pk: o.pk,
    intervention_pk,
    group_pk: o.group_pk,
    individual_pk: o.individual_pk,
    normed: o.normed,
    calculated: o.calculated,
    tissue: tissue?.sid ?? null,
    tissue_label: tissue?.label ?? null,
    method: method?.sid ?? null,
    method_label: method?.label ?? null,
    label: o.label,
    output_type: o.output_type ?? '',
    time: o.time,
    time_unit: o.time_unit,
    measurement_type: measurement?.sid ?? o.measurement_type,
    measurement_type_label: measurement?.label ?? null,
    calculation_type: calculation?.sid ?? null,
    calculation_type_label: calculation?.label ?? null,
    choice: choice?.sid ?? null,
    choice_label: choice?.label ?? null,
    substance: substance?.sid ?? null,
    substance_label: substance?.label ?? null,
    value: o.value,
    mean: o.mean,
    median: o.median,
    min: o.min,
    max: o.max,
    sd: o.sd,
    se: o.se,
    cv: o.cv,
    unit: o.unit,
  }));
}
