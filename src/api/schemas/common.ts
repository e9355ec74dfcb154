/**
 * Building blocks shared by the PK-DB v1 resource schemas
 * (PK-DB API spec "Common conventions", PK-DB API notes §6).
 *
 * Every object is a `z.looseObject`: PK-DB's serializers grow fields over
 * time, and a crawl must not fail because the server learnt something new.
 * `unknownKeys()` (./validate.ts) lists what a strict reader would reject.
 */
import { z } from 'zod';

/** Nullable integer pk or count. */
export const nullableInt = z.number().int().nullable();
/** Nullable number (statistics, molar mass, time). */
export const nullableNumber = z.number().nullable();
export const nullableString = z.string().nullable();

/** Info-node reference `{sid, name, label}` (spec: TermRef). */
export const TermRef = z.looseObject({
  sid: z.string(),
  name: z.string(),
  label: z.string(),
});
export type TermRef = z.infer<typeof TermRef>;

/** The statistics block on characteristica, interventions and outputs (the resources' schemas spread `statsShape`). */
export const statsShape = {
  value: nullableNumber,
  mean: nullableNumber,
  median: nullableNumber,
  min: nullableNumber,
  max: nullableNumber,
  sd: nullableNumber,
  se: nullableNumber,
  cv: nullableNumber,
  unit: nullableString,
};
/**
 * The block alone, and the type of the dataset records' statistics fields
 * (src/data/model.ts): a strict object, so that `keyof` a record lists its
 * fields rather than any string.
 */
export const Stats = z.object(statsShape);
export type Stats = z.infer<typeof Stats>;

/** `study` nested in groups, individuals, interventions, outputs, subsets: no pk (PK-DB API notes §6). */
export const StudyRef = z.looseObject({ sid: z.string(), name: z.string() });
export type StudyRef = z.infer<typeof StudyRef>;

export const GroupRef = z.looseObject({ pk: z.number().int(), name: z.string(), count: nullableInt });
export type GroupRef = z.infer<typeof GroupRef>;

export const IndividualRef = z.looseObject({ pk: z.number().int(), name: z.string() });
export type IndividualRef = z.infer<typeof IndividualRef>;

export const InterventionRef = z.looseObject({ pk: z.number().int(), name: z.string() });
export type InterventionRef = z.infer<typeof InterventionRef>;

/** A calendar date as PK-DB writes it (YYYY-MM-DD). */
export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD');

/** A term as the flat views give it: the sid-style code plus a separate `_label` column, both nullable. */
export function flatTerm<K extends string>(key: K): Record<K | `${K}_label`, typeof nullableString> {
  return { [key]: nullableString, [`${key}_label`]: nullableString } as Record<K | `${K}_label`, typeof nullableString>;
}

/**
 * The measurement part every flat intervention and output row ends with:
 * measurement type (a sid, plus label), calculation type, choice, substance
 * and the statistics block.
 */
export const flatMeasurementShape = {
  measurement_type: z.string(),
  measurement_type_label: nullableString,
  ...flatTerm('calculation_type'),
  ...flatTerm('choice'),
  ...flatTerm('substance'),
  ...statsShape,
};
