/** Groups, individuals and their characteristica: full (/groups/, /individuals/) and flat (/pkdata/groups/, /pkdata/individuals/) views. */
import { z } from 'zod';
import { GroupRef, nullableInt, nullableString, statsShape, StudyRef, TermRef } from './common.js';

/** Embedded in groups and individuals; PK-DB lists the normed copies only (PK-DB API notes §6). */
export const Characteristica = z.looseObject({
  pk: z.number().int(),
  count: z.number().int(),
  measurement_type: TermRef,
  calculation_type: TermRef.nullable(),
  choice: TermRef.nullable(),
  substance: TermRef.nullable(),
  ...statsShape,
  /** Null for the characteristica of a single individual. */
  group_count: nullableInt,
});
export type Characteristica = z.infer<typeof Characteristica>;

export const Group = z.looseObject({
  pk: z.number().int(),
  name: z.string(),
  parent: GroupRef.nullable(),
  count: z.number().int(),
  study: StudyRef,
  characteristica: z.array(Characteristica),
});
export type Group = z.infer<typeof Group>;

export const Individual = z.looseObject({
  pk: z.number().int(),
  name: z.string(),
  study: StudyRef,
  group: GroupRef,
  characteristica: z.array(Characteristica),
});
export type Individual = z.infer<typeof Individual>;

/** The term columns of the flat characteristica views hold info-node **names** (PK-DB API notes §6). */
const flatCharacteristicaShape = {
  study_sid: z.string(),
  study_name: z.string(),
  characteristica_pk: z.number().int(),
  count: z.number().int(),
  measurement_type: z.string(),
  calculation_type: nullableString,
  choice: nullableString,
  substance: nullableString,
  ...statsShape,
};

/** /pkdata/groups/ item: one per group × normed characteristica, inherited ones included. */
export const FlatGroupCharacteristica = z.looseObject({
  ...flatCharacteristicaShape,
  group_pk: z.number().int(),
  group_name: z.string(),
  group_count: z.number().int(),
  group_parent_pk: nullableInt,
});
export type FlatGroupCharacteristica = z.infer<typeof FlatGroupCharacteristica>;

/** /pkdata/individuals/ item: one per individual × characteristica. */
export const FlatIndividualCharacteristica = z.looseObject({
  ...flatCharacteristicaShape,
  individual_pk: z.number().int(),
  individual_name: z.string(),
  individual_group_pk: nullableInt,
});
export type FlatIndividualCharacteristica = z.infer<typeof FlatIndividualCharacteristica>;
