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

const S = columnsOf(STUDIES);
const G = columnsOf(GROUPS);
const I = columnsOf(INDIVIDUALS);
const N = columnsOf(INTERVENTIONS);
const O = columnsOf(OUTPUTS);

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
  /** Whether the row repeats every one of `subjectColumns` (written out, as `sameOutput`: it runs for most rows). */
  sameSubject: (subject: R, row: Cells<P>) => boolean,
): R[] {
  const bySubject = new Map<number, { subject: R; line: number }>();
  rows: for (const { line, row } of rows) {
    const pk = pkOf(row);
    const known = bySubject.get(pk);
    // A repeated subject is compared field by field with the row, without building it again; the field that differs is named.
    if (known && !sameSubject(known.subject, row)) {
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
    (group, row) =>
      group.name === G.group_name(row) &&
      group.count === G.group_count(row) &&
      group.parent_pk === G.group_parent_pk(row) &&
      group.study_sid === G.study_sid(row) &&
      group.study_name === G.study_name(row),
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
    (individual, row) =>
      individual.name === I.individual_name(row) &&
      individual.group_pk === I.individual_group_pk(row) &&
      individual.study_sid === I.study_sid(row) &&
      individual.study_name === I.study_name(row),
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

/** Every output field except pk, the intervention set and the subset link, which the rows do not repeat. */
export const OUTPUT_OWN_FIELDS = [
  'raw_pk',
  'normed',
  'calculated',
  'study_sid',
  'study_name',
  'group_pk',
  'individual_pk',
  'tissue',
  'method',
  'label',
  'output_type',
  'time',
  'time_unit',
  'measurement_type',
  'calculation_type',
  'choice',
  'substance',
  'value',
  'mean',
  'median',
  'min',
  'max',
  'sd',
  'se',
  'cv',
  'unit',
] as const satisfies readonly (keyof OutputRecord)[];

/**
 * Whether a repeated row agrees with the output built from the first one on
 * every field of OUTPUT_OWN_FIELDS, written out so that each read is a plain
 * load: it runs for every repeated row of outputs.csv (a quarter of its 80 000
 * rows), and the contradiction is only named when this says there is one.
 */
function sameOutput(o: OutputRecord, r: Cells<typeof OUTPUTS>): boolean {
  return (
    o.raw_pk === O.raw_pk(r) &&
    o.normed === O.normed(r) &&
    o.calculated === O.calculated(r) &&
    o.study_sid === O.study_sid(r) &&
    o.study_name === O.study_name(r) &&
    o.group_pk === O.group_pk(r) &&
    o.individual_pk === O.individual_pk(r) &&
    o.tissue === O.tissue(r) &&
    o.method === O.method(r) &&
    o.label === O.label(r) &&
    o.output_type === O.output_type(r) &&
    o.time === O.time(r) &&
    o.time_unit === O.time_unit(r) &&
    o.measurement_type === O.measurement_type(r) &&
    o.calculation_type === O.calculation_type(r) &&
    o.choice === O.choice(r) &&
    o.substance === O.substance(r) &&
    o.value === O.value(r) &&
    o.mean === O.mean(r) &&
    o.median === O.median(r) &&
    o.min === O.min(r) &&
    o.max === O.max(r) &&
    o.sd === O.sd(r) &&
    o.se === O.se(r) &&
    o.cv === O.cv(r) &&
    o.unit === O.unit(r)
  );
}

/** Collapses (output, intervention) rows by output pk; `intervention_pks` is the sorted union. */
export function buildOutputs(rows: Iterable<Parsed<typeof OUTPUTS>>, log: ProblemLog): OutputRecord[] {
  const outputs: OutputRecord[] = [];
  /** Output pk -> its index in `outputs`, and the line of its first row at the same index in `lines`. */
  const indexOf = new Map<number, number>();
  const lines: number[] = [];
  for (const { line, row } of rows) {
    const pk = O.output_pk(row);
    const interventionPk = O.intervention_pk(row);
    if ((O.group_pk(row) === null) === (O.individual_pk(row) === null)) {
      const message = 'exactly one of group_pk and individual_pk must be set';
      log.add({ file: OUTPUTS.file, line, column: 'group_pk', message });
      continue;
    }
    const known = indexOf.get(pk);
    if (known !== undefined) {
      const output = outputs[known];
      // The row repeats the output for another intervention: its own fields (named alike in row and record) must agree.
      if (!sameOutput(output, row)) {
        const key = OUTPUT_OWN_FIELDS.find((field) => output[field] !== O[field](row))!;
        const message = `output ${pk}: ${key} is ${JSON.stringify(output[key])} on line ${lines[known]} but ${JSON.stringify(O[key](row))} here`;
        log.add({ file: OUTPUTS.file, line, column: key, message });
        continue;
      }
      if (interventionPk !== null) output.intervention_pks.push(interventionPk);
      continue;
    }
    indexOf.set(pk, outputs.length);
    lines.push(line);
    outputs.push({
      pk,
      raw_pk: O.raw_pk(row),
      normed: O.normed(row),
      calculated: O.calculated(row),
      study_sid: O.study_sid(row),
      study_name: O.study_name(row),
      group_pk: O.group_pk(row),
      individual_pk: O.individual_pk(row),
      intervention_pks: interventionPk === null ? [] : [interventionPk],
      tissue: O.tissue(row),
      method: O.method(row),
      label: O.label(row),
      output_type: O.output_type(row),
      time: O.time(row),
      time_unit: O.time_unit(row),
      measurement_type: O.measurement_type(row),
      calculation_type: O.calculation_type(row),
      choice: O.choice(row),
      substance: O.substance(row),
      value: O.value(row),
      mean: O.mean(row),
      median: O.median(row),
      min: O.min(row),
      max: O.max(row),
      sd: O.sd(row),
      se: O.se(row),
      cv: O.cv(row),
      unit: O.unit(row),
      subset_pk: null,
    });
  }
  // Sets, ascending and without repeats; rows mostly come in that order already, which one look tells. A pair is
  // swapped or deduplicated in place of the general Set, copy and sort (8,900 of the shared export's 14,000 sets of
  // several are pairs the other way round); the look is a plain loop, no closure per output (58,000 of them).
  for (let i = 0; i < outputs.length; i++) {
    const output = outputs[i];
    const pks = output.intervention_pks;
    if (pks.length < 2) continue;
    if (pks.length === 2) {
      if (pks[0] > pks[1]) output.intervention_pks = [pks[1], pks[0]];
      else if (pks[0] === pks[1]) output.intervention_pks = [pks[0]];
      continue;
    }
    let k = 1;
    while (k < pks.length && pks[k - 1] < pks[k]) k++;
    if (k < pks.length) output.intervention_pks = [...new Set(pks)].sort((a, b) => a - b);
  }
  return outputs;
}
