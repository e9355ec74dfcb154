/** Subsets (timecourses and scatters), data points (/pkdata/data/) and flat timecourses (/pkdata/timecourses/). */
import { z } from 'zod';
import { GroupRef, IndividualRef, InterventionRef, nullableInt, nullableNumber, nullableString, statsShape, StudyRef, TermRef } from './common.js';

/** In subset points an absent group or individual is `{}`, not null (spec "Common conventions"). */
const Absent = z.record(z.string(), z.never());

/** One output as a subset point holds it (SubSetElasticSerializer). */
export const SubsetOutput = z.looseObject({
  pk: z.number().int(),
  group: z.union([GroupRef, Absent]),
  individual: z.union([IndividualRef, Absent]),
  interventions: z.array(InterventionRef),
  ex: z.looseObject({ pk: z.number().int() }),
  normed: z.boolean(),
  ...statsShape,
  time_unit: nullableString,
  time: nullableNumber,
  tissue: TermRef.nullable(),
  method: TermRef.nullable(),
  measurement_type: TermRef,
  substance: TermRef.nullable(),
  choice: TermRef.nullable(),
  label: nullableString,
});
export type SubsetOutput = z.infer<typeof SubsetOutput>;

/** /subsets/ item. Timecourse points hold one output, scatter points two (x, y; PK-DB API notes §6). */
export const Subset = z.looseObject({
  pk: z.number().int(),
  study: StudyRef,
  name: z.string(),
  data_type: z.string(),
  array: z.array(z.array(SubsetOutput)),
});
export type Subset = z.infer<typeof Subset>;

/** /pkdata/data/ item: which output fills which dimension of which data point. */
export const DataPoint = z.looseObject({
  study_sid: z.string(),
  study_name: z.string(),
  data_pk: z.number().int(),
  data_name: z.string(),
  data_type: z.string(),
  subset_pk: z.number().int(),
  subset_name: z.string(),
  data_point_pk: z.number().int(),
  output_pk: z.number().int(),
  dimension: z.number().int(),
});
export type DataPoint = z.infer<typeof DataPoint>;

/**
 * A per-point series of timecourses.csv as JSON: aligned with `time`, null
 * where a point lacks the value, null when the whole series is missing, and a
 * scalar where PK-DB collapsed identical values (sd and se, PK-DB API notes §5).
 */
const series = z.union([z.array(nullableNumber), z.number()]).nullable();

/**
 * /pkdata/timecourses/ item: the timecourses.csv columns (PK-DB API notes §8) with real
 * lists and nulls. Terms are sids with separate labels. Scatters appear here
 * too (no data_type filter exists), hence the scalar-or-list pks.
 */
export const FlatTimecourse = z.looseObject({
  study_sid: z.string(),
  study_name: z.string(),
  output_pk: z.union([z.array(z.number().int()), z.number().int()]),
  subset_pk: z.number().int(),
  subset_name: z.string(),
  intervention_pk: z.union([z.array(z.number().int()), z.number().int()]).nullable(),
  group_pk: nullableInt,
  individual_pk: nullableInt,
  normed: z.boolean(),
  tissue: nullableString,
  tissue_label: nullableString,
  method: nullableString,
  method_label: nullableString,
  label: nullableString,
  time: series,
  time_unit: nullableString,
  measurement_type: z.string(),
  measurement_type_label: nullableString,
  choice: nullableString,
  choice_label: nullableString,
  substance: nullableString,
  substance_label: nullableString,
  value: series,
  mean: series,
  median: series,
  min: series,
  max: series,
  sd: series,
  se: series,
  cv: series,
  unit: nullableString,
});
export type FlatTimecourse = z.infer<typeof FlatTimecourse>;
