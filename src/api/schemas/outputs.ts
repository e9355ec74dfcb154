/**
 * Outputs: full (/outputs/) and flat (/pkdata/outputs/) views.
 *
 * Calculated outputs have no label and no output_type (PK-DB API notes §5.7), and the
 * real export has outputs without tissue or substance, hence the nullables
 * beyond the spec's "null seen" fields.
 */
import { z } from 'zod';
import { flatMeasurementShape, flatTerm, GroupRef, IndividualRef, InterventionRef, nullableInt, nullableNumber, nullableString, statsShape, StudyRef, TermRef } from './common.js';

export const Output = z.looseObject({
  pk: z.number().int(),
  normed: z.boolean(),
  calculated: z.boolean(),
  tissue: TermRef.nullable(),
  method: TermRef.nullable(),
  label: nullableString,
  /** output, timecourse or array; empty for calculated outputs. */
  output_type: nullableString,
  study: StudyRef,
  group: GroupRef.nullable(),
  individual: IndividualRef.nullable(),
  interventions: z.array(InterventionRef),
  measurement_type: TermRef,
  calculation_type: TermRef.nullable(),
  choice: TermRef.nullable(),
  substance: TermRef.nullable(),
  ...statsShape,
  time: nullableNumber,
  time_unit: nullableString,
});
export type Output = z.infer<typeof Output>;

/** /pkdata/outputs/ item: one per (output, intervention) pair. */
export const FlatOutput = z.looseObject({
  study_sid: z.string(),
  study_name: z.string(),
  output_pk: z.number().int(),
  intervention_pk: z.number().int(),
  group_pk: nullableInt,
  individual_pk: nullableInt,
  normed: z.boolean(),
  calculated: z.boolean(),
  ...flatTerm('tissue'),
  ...flatTerm('method'),
  label: nullableString,
  /** Empty string for outputs outside a timecourse (spec); null tolerated for calculated ones. */
  output_type: nullableString,
  time: nullableNumber,
  time_unit: nullableString,
  ...flatMeasurementShape,
});
export type FlatOutput = z.infer<typeof FlatOutput>;
