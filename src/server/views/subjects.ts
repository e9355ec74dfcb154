/**
 * Subject projections: /groups/, /individuals/ (nested characteristica with
 * term objects) and their flat views /pkdata/groups/, /pkdata/individuals/
 * (one item per subject x characteristica, terms as names; PK-DB API notes §6, §8).
 */
import type { CharacteristicaRecord, GroupRecord, IndividualRecord } from '../../data/model.js';
import { statsOf } from '../../data/records.js';
import type { Characteristica, FlatGroupCharacteristica, FlatIndividualCharacteristica, Group, GroupRef, Individual, TermRef } from '../../api/schemas/index.js';
import type { ViewContext } from './context.js';


export function groupStub(ctx: ViewContext, pk: number | null): GroupRef | null {
  if (pk === null) return null;
  return ctx.shared(`group ${pk}`, () => {
    const g = ctx.groupsByPk.get(pk);
    return { pk, name: g?.name ?? '', count: g?.count ?? null };
  });
}

/** Subject counts are required integers in the API; a source without them gives 0. */
const countOf = (n: number | null): number => n ?? 0;

function characteristicaItem(ctx: ViewContext, c: CharacteristicaRecord): Characteristica {
  return {
    pk: c.pk,
    count: countOf(c.count),
    measurement_type: ctx.term(c.measurement_type) as TermRef,
    calculation_type: ctx.term(c.calculation_type),
    choice: ctx.term(c.choice),
    substance: ctx.term(c.substance),
    ...statsOf(c),
    group_count: c.group_count,
  };
}

export function groupItem(ctx: ViewContext, g: GroupRecord): Group {
  return {
    pk: g.pk,
    name: g.name,
    parent: groupStub(ctx, g.parent_pk),
    count: countOf(g.count),
    study: ctx.studyRef(g.study_sid, g.study_name),
    characteristica: g.characteristica.map((c) => characteristicaItem(ctx, c)),
  };
}

/** An individual outside any group (never in PK-DB data) gets a stub with pk 0, since the API requires one. */
export function individualItem(ctx: ViewContext, i: IndividualRecord): Individual {
  return {
    pk: i.pk,
    name: i.name,
    study: ctx.studyRef(i.study_sid, i.study_name),
    group: groupStub(ctx, i.group_pk) ?? { pk: 0, name: '', count: null },
    characteristica: i.characteristica.map((c) => characteristicaItem(ctx, c)),
  };
}

function flatCharacteristica(c: CharacteristicaRecord) {
  return {
    characteristica_pk: c.pk,
    count: countOf(c.count),
    measurement_type: c.measurement_type,
    calculation_type: c.calculation_type,
    choice: c.choice,
    substance: c.substance,
    ...statsOf(c),
  };
}

export function flatGroupItems(g: GroupRecord): FlatGroupCharacteristica[] {
  return g.characteristica.map((c) => ({
    study_sid: g.study_sid,
    study_name: g.study_name,
    group_pk: g.pk,
    group_name: g.name,
    group_count: countOf(g.count),
    group_parent_pk: g.parent_pk,
    ...flatCharacteristica(c),
  }));
}

export function flatIndividualItems(i: IndividualRecord): FlatIndividualCharacteristica[] {
  return i.characteristica.map((c) => ({
    study_sid: i.study_sid,
    study_name: i.study_name,
    individual_pk: i.pk,
    individual_name: i.name,
    individual_group_pk: i.group_pk,
    ...flatCharacteristica(c),
  }));
}
