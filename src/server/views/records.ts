/**
 * Intervention and output projections: /interventions/, /outputs/ (term
 * objects, raw and normed rows) and the flat /pkdata/interventions/,
 * /pkdata/outputs/ (terms as sid + `_label`; one output item per output x
 * intervention, as outputs.csv; NOTES.md §6).
 */
import type { InterventionRecord, OutputRecord } from '../../data/model.js';
import type { FlatIntervention, FlatOutput, IndividualRef, Intervention, InterventionRef, Output } from '../../api/schemas/index.js';
import type { TermRefValue, ViewContext } from './context.js';
import { groupStub, statsOf } from './subjects.js';

export function individualStub(ctx: ViewContext, pk: number | null): IndividualRef | null {
  if (pk === null) return null;
  return { pk, name: ctx.individualsByPk.get(pk)?.name ?? '' };
}

export function interventionStubs(ctx: ViewContext, pks: number[]): InterventionRef[] {
  return pks.map((pk) => ({ pk, name: ctx.interventionsByPk.get(pk)?.name ?? '' }));
}

/** A term as the flat views write it: `{[key]: sid, [key_label]: label}`. */
function flatTerm<K extends string>(ctx: ViewContext, key: K, name: string | null) {
  const ref = ctx.term(name);
  return { [key]: ref?.sid ?? null, [`${key}_label`]: ref?.label ?? null } as Record<K | `${K}_label`, string | null>;
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
    measurement_type: ctx.term(i.measurement_type) as TermRefValue,
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
    ...flatTerm(ctx, 'route', i.route),
    ...flatTerm(ctx, 'form', i.form),
    ...flatTerm(ctx, 'application', i.application),
    time: i.time,
    time_end: i.time_end,
    time_unit: i.time_unit,
    measurement_type: ctx.term(i.measurement_type)?.sid ?? i.measurement_type,
    measurement_type_label: ctx.term(i.measurement_type)?.label ?? null,
    ...flatTerm(ctx, 'calculation_type', i.calculation_type),
    ...flatTerm(ctx, 'choice', i.choice),
    ...flatTerm(ctx, 'substance', i.substance),
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
    measurement_type: ctx.term(o.measurement_type) as TermRefValue,
    calculation_type: ctx.term(o.calculation_type),
    choice: ctx.term(o.choice),
    substance: ctx.term(o.substance),
    ...statsOf(o),
    time: o.time,
    time_unit: o.time_unit,
  };
}

/** One item per linked intervention; an output without interventions has none (as in outputs.csv). */
export function flatOutputItems(ctx: ViewContext, o: OutputRecord): FlatOutput[] {
  const shared = {
    study_sid: o.study_sid,
    study_name: o.study_name,
    output_pk: o.pk,
  };
  const rest = {
    group_pk: o.group_pk,
    individual_pk: o.individual_pk,
    normed: o.normed,
    calculated: o.calculated,
    ...flatTerm(ctx, 'tissue', o.tissue),
    ...flatTerm(ctx, 'method', o.method),
    label: o.label,
    output_type: o.output_type ?? '',
    time: o.time,
    time_unit: o.time_unit,
    measurement_type: ctx.term(o.measurement_type)?.sid ?? o.measurement_type,
    measurement_type_label: ctx.term(o.measurement_type)?.label ?? null,
    ...flatTerm(ctx, 'calculation_type', o.calculation_type),
    ...flatTerm(ctx, 'choice', o.choice),
    ...flatTerm(ctx, 'substance', o.substance),
    ...statsOf(o),
  };
  return o.intervention_pks.map((intervention_pk) => ({ ...shared, intervention_pk, ...rest }));
}
