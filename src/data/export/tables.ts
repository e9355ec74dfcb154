/**
 * Parsed rows of studies/groups/individuals/interventions/outputs.csv to
 * dataset records. groups.csv and individuals.csv hold one row per subject ×
 * characteristica and outputs.csv one row per (output, intervention): rows of
 * one entity are collapsed by pk, and must agree on the entity's own fields
 * (a row that contradicts an earlier one is reported and skipped).
 */
import type { CharacteristicaRecord, GroupRecord, IndividualRecord, InterventionRecord, OutputRecord, StudyRecord } from '../model.js';
import { UniqueKeys, type Parsed, type ProblemLog } from './cells.js';
import { columnsOf, GROUPS, INDIVIDUALS, INTERVENTIONS, OUTPUTS, STUDIES, type Cells, type ColumnReaders } from './columns.js';
import { collectOutputs, outputsFromColumns } from './output-columns.js';

const S = columnsOf(STUDIES);
const G = columnsOf(GROUPS);
const I = columnsOf(INDIVIDUALS);
const N = columnsOf(INTERVENTIONS);

export function buildStudies(rows: Iterable<Parsed<typeof STUDIES>>, log: ProblemLog): StudyRecord[] {
  const unique = new UniqueKeys<string>(STUDIES.file, 'sid', 'study', log);
  const studies: StudyRecord[] = [];
  for (const { line, row } of rows) {
    if (!unique.claim(S.sid(row), line)) continue;
    studies.push({
      sid: S.sid(row),
      name: S.name(row),
      licence: S.licence(row),
      access: S.access(row),
      date: S.date(row),
      creator: S.creator(row),
      curators: S.curators(row),
      substances: S.substances(row),
      reference_pmid: S.reference_pmid(row),
      reference_title: S.reference_title(row),
      reference_date: S.reference_date(row),
    });
  }
  return studies;
}

type SubjectSpec = typeof GROUPS | typeof INDIVIDUALS;
type Subject = GroupRecord | IndividualRecord;

/** The characteristica columns groups.csv and individuals.csv share, each at its own place in the two files. */
type CharacteristicaReaders<P extends SubjectSpec> = Pick<
  ColumnReaders<P>,
  | 'characteristica_pk'
  | 'count'
  | 'measurement_type'
  | 'calculation_type'
  | 'choice'
  | 'substance'
  | 'value'
  | 'mean'
  | 'median'
  | 'min'
  | 'max'
  | 'sd'
  | 'se'
  | 'cv'
  | 'unit'
>;

/**
 * Collapses subject × characteristica rows by subject pk. A row with an empty
 * `characteristica_pk` stands for a subject without characteristica.
 */
function collapseSubjects<P extends SubjectSpec, R extends Subject>(
  file: string,
  rows: Iterable<Parsed<P>>,
  log: ProblemLog,
  C: CharacteristicaReaders<P>,
  pkOf: (row: Cells<P>) => number,
  subjectOf: (row: Cells<P>) => R,
  groupCountOf: (row: Cells<P>) => number | null,
  /** The subject's own fields, which every row repeats, with the CSV column and reader of each. */
  subjectColumns: readonly [keyof R & string, string, (row: Cells<P>) => unknown][],
): R[] {
  const bySubject = new Map<number, { subject: R; line: number }>();
  rows: for (const { line, row } of rows) {
    const pk = pkOf(row);
    const known = bySubject.get(pk);
    // A repeated subject is compared field by field with the row, without building it again.
    if (known) {
      for (const [field, column, read] of subjectColumns) {
        if (known.subject[field] === read(row)) continue;
        const message = `subject ${pk}: ${field} is ${JSON.stringify(known.subject[field])} on line ${known.line} but ${JSON.stringify(read(row))} here`;
        log.add({ file, line, column, message });
        continue rows;
      }
    }
    const characteristicaPk = C.characteristica_pk(row);
    const measurementType = C.measurement_type(row);
    if (characteristicaPk !== null && measurementType === null) {
      log.add({ file, line, column: 'measurement_type', message: 'missing value' });
      continue;
    }
    const target = known?.subject ?? subjectOf(row);
    if (!known) bySubject.set(pk, { subject: target, line });
    if (characteristicaPk === null) continue;
    const characteristica: CharacteristicaRecord = {
      pk: characteristicaPk,
      count: C.count(row),
      measurement_type: measurementType!,
      calculation_type: C.calculation_type(row),
      choice: C.choice(row),
      substance: C.substance(row),
      group_count: groupCountOf(row),
      value: C.value(row),
      mean: C.mean(row),
      median: C.median(row),
      min: C.min(row),
      max: C.max(row),
      sd: C.sd(row),
      se: C.se(row),
      cv: C.cv(row),
      unit: C.unit(row),
    };
    target.characteristica.push(characteristica);
  }
  return [...bySubject.values()].map((entry) => entry.subject);
}

export function buildGroups(rows: Iterable<Parsed<typeof GROUPS>>, log: ProblemLog): GroupRecord[] {
  return collapseSubjects(
    GROUPS.file,
    rows,
    log,
    G,
    G.group_pk,
    (row): GroupRecord => ({
      pk: G.group_pk(row),
      name: G.group_name(row),
      count: G.group_count(row),
      parent_pk: G.group_parent_pk(row),
      study_sid: G.study_sid(row),
      study_name: G.study_name(row),
      characteristica: [],
    }),
    G.group_count,
    [
      ['name', 'group_name', G.group_name],
      ['count', 'group_count', G.group_count],
      ['parent_pk', 'group_parent_pk', G.group_parent_pk],
      ['study_sid', 'study_sid', G.study_sid],
      ['study_name', 'study_name', G.study_name],
    ],
  );
}

export function buildIndividuals(rows: Iterable<Parsed<typeof INDIVIDUALS>>, log: ProblemLog): IndividualRecord[] {
  return collapseSubjects(
    INDIVIDUALS.file,
    rows,
    log,
    I,
    I.individual_pk,
    (row): IndividualRecord => ({
      pk: I.individual_pk(row),
      name: I.individual_name(row),
      group_pk: I.individual_group_pk(row),
      study_sid: I.study_sid(row),
      study_name: I.study_name(row),
      characteristica: [],
    }),
    () => null,
    [
      ['name', 'individual_name', I.individual_name],
      ['group_pk', 'individual_group_pk', I.individual_group_pk],
      ['study_sid', 'study_sid', I.study_sid],
      ['study_name', 'study_name', I.study_name],
    ],
  );
}

export function buildInterventions(rows: Iterable<Parsed<typeof INTERVENTIONS>>, log: ProblemLog): InterventionRecord[] {
  const unique = new UniqueKeys<number>(INTERVENTIONS.file, 'intervention_pk', 'intervention', log);
  const interventions: InterventionRecord[] = [];
  for (const { line, row } of rows) {
    if (!unique.claim(N.intervention_pk(row), line)) continue;
    interventions.push({
      pk: N.intervention_pk(row),
      raw_pk: N.raw_pk(row),
      normed: N.normed(row),
      study_sid: N.study_sid(row),
      study_name: N.study_name(row),
      name: N.name(row),
      route: N.route(row),
      form: N.form(row),
      application: N.application(row),
      time: N.time(row),
      time_end: N.time_end(row),
      time_unit: N.time_unit(row),
      measurement_type: N.measurement_type(row),
      calculation_type: N.calculation_type(row),
      choice: N.choice(row),
      substance: N.substance(row),
      value: N.value(row),
      mean: N.mean(row),
      median: N.median(row),
      min: N.min(row),
      max: N.max(row),
      sd: N.sd(row),
      se: N.se(row),
      cv: N.cv(row),
      unit: N.unit(row),
    });
  }
  return interventions;
}

/** Collapses (output, intervention) rows by output pk; `intervention_pks` is the sorted union (see ./output-columns.ts). */
export function buildOutputs(rows: Iterable<Parsed<typeof OUTPUTS>>, log: ProblemLog): OutputRecord[] {
  return outputsFromColumns(collectOutputs(rows, log));
}
