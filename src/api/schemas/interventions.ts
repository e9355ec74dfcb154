/**
 * Interventions: full (/interventions/) and flat (/pkdata/interventions/) views.
 *
 * The spec shows route, form, application, substance, time and time_unit as
 * always set, but the real 2020-10-16 export has each of them empty for some
 * non-dosing interventions (e.g. 54 of 1037 without route), so they are nullable.
 */
import { z } from 'zod';
import { flatMeasurementShape, flatTerm, nullableInt, nullableString, statsShape, StudyRef, TermRef } from './common.js';

export const Intervention = z.looseObject({
  pk: z.number().int(),
  /** true: the unit-normalised copy of the curated record with the same name. */
  normed: z.boolean(),
  name: z.string(),
  route: TermRef.nullable(),
  form: TermRef.nullable(),
  application: TermRef.nullable(),
  /** Numeric text, possibly negative, or a dosing pattern `S<start>T<interval>R<repeats>` (PK-DB API notes §4). */
  time: nullableString,
  time_end: nullableString,
  time_unit: nullableString,
  study: StudyRef,
  measurement_type: TermRef,
  calculation_type: TermRef.nullable(),
  choice: TermRef.nullable(),
  substance: TermRef.nullable(),
  ...statsShape,
});
export type Intervention = z.infer<typeof Intervention>;

export const FlatIntervention = z.looseObject({
  study_sid: z.string(),
  study_name: z.string(),
  intervention_pk: z.number().int(),
  /** For a normed record: the pk of the curated record it was derived from. */
  raw_pk: nullableInt,
  normed: z.boolean(),
  name: z.string(),
  ...flatTerm('route'),
  ...flatTerm('form'),
  ...flatTerm('application'),
  time: nullableString,
  time_end: nullableString,
  time_unit: nullableString,
  ...flatMeasurementShape,
});
export type FlatIntervention = z.infer<typeof FlatIntervention>;
