/**
 * Parsed rows of studies/groups/individuals/interventions/outputs.csv to
 * dataset records. groups.csv and individuals.csv hold one row per subject ×
 * characteristica and outputs.csv one row per (output, intervention): rows of
 * one entity are collapsed by pk, and must agree on the entity's own fields
 * (a row that contradicts an earlier one is reported and skipped).
 */
import type {
  CharacteristicaRecord,
  GroupRecord,
  IndividualRecord,
  InterventionRecord,
  OutputRecord,
  Stats,
  StudyRecord,
} from '../model.js';
import { UniqueKeys, type Parsed, type ProblemLog } from './cells.js';
import { GROUPS, INDIVIDUALS, INTERVENTIONS, OUTPUTS, STUDIES } from './columns.js';

function statsOf(row: Stats): Stats {
  return {
    value: row.value,
    mean: row.mean,
    median: row.median,
    min: row.min,
    max: row.max,
    sd: row.sd,
    se: row.se,
    cv: row.cv,
    unit: row.unit,
  };
}

/** The first of `keys` on which two records of the same entity disagree. */
function firstDifference<T>(a: T, b: T, keys: readonly (keyof T & string)[]): (keyof T & string) | null {
  for (const key of keys) if (a[key] !== b[key]) return key;
  return null;
}

function contradiction<T>(what: string, key: keyof T & string, first: T, firstLine: number, here: T): string {
  return `${what}: ${key} is ${JSON.stringify(first[key])} on line ${firstLine} but ${JSON.stringify(here[key])} here`;
}

export function buildStudies(rows: Iterable<Parsed<typeof STUDIES>>, log: ProblemLog): StudyRecord[] {
  const unique = new UniqueKeys<string>(STUDIES.file, 'sid', 'study', log);
  const studies: StudyRecord[] = [];
  for (const { line, row } of rows) {
    if (!unique.claim(row.sid, line)) continue;
    studies.push({
      sid: row.sid,
      name: row.name,
      licence: row.licence,
      access: row.access,
      date: row.date,
      creator: row.creator,
      curators: row.curators,
      substances: row.substances,
      reference_pmid: row.reference_pmid,
      reference_title: row.reference_title,
      reference_date: row.reference_date,
    });
  }
  return studies;
}

/** The characteristica columns groups.csv and individuals.csv share. */
interface CharacteristicaColumns extends Stats {
  characteristica_pk: number | null;
  count: number | null;
  measurement_type: string | null;
  calculation_type: string | null;
  choice: string | null;
  substance: string | null;
}

type Subject = GroupRecord | IndividualRecord;

/**
 * Collapses subject × characteristica rows by subject pk. A row with an empty
 * `characteristica_pk` stands for a subject without characteristica.
 */
function collapseSubjects<R extends CharacteristicaColumns, S extends Subject>(
  file: string,
  rows: Iterable<{ line: number; row: R }>,
  log: ProblemLog,
  pkColumn: keyof R,
  subjectOf: (row: R) => S,
  groupCountOf: (row: R) => number | null,
  /** The subject's own fields, which every row repeats, with the CSV column each comes from. */
  subjectColumns: Partial<Record<keyof S & string, string>>,
): S[] {
  const subjectFields = Object.entries(subjectColumns) as [keyof S & string, string][];
  const bySubject = new Map<number, { subject: S; line: number }>();
  for (const { line, row } of rows) {
    const pk = row[pkColumn] as number;
    const known = bySubject.get(pk);
    // A repeated subject is compared field by field with the row, without building it again.
    const differing = known && subjectFields.find(([field, column]) => known.subject[field] !== (row as Record<string, unknown>)[column]);
    if (known && differing) {
      const [field, column] = differing;
      const here = JSON.stringify((row as Record<string, unknown>)[column]);
      const message = `subject ${pk}: ${field} is ${JSON.stringify(known.subject[field])} on line ${known.line} but ${here} here`;
      log.add({ file, line, column, message });
      continue;
    }
    if (row.characteristica_pk !== null && row.measurement_type === null) {
      log.add({ file, line, column: 'measurement_type', message: 'missing value' });
      continue;
    }
    const target = known?.subject ?? subjectOf(row);
    if (!known) bySubject.set(pk, { subject: target, line });
    if (row.characteristica_pk === null) continue;
    const characteristica: CharacteristicaRecord = {
      pk: row.characteristica_pk,
      count: row.count,
      measurement_type: row.measurement_type!,
      calculation_type: row.calculation_type,
      choice: row.choice,
      substance: row.substance,
      group_count: groupCountOf(row),
      value: row.value,
      mean: row.mean,
      median: row.median,
      min: row.min,
      max: row.max,
      sd: row.sd,
      se: row.se,
      cv: row.cv,
      unit: row.unit,
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
    'group_pk',
    (row): GroupRecord => ({
      pk: row.group_pk,
      name: row.group_name,
      count: row.group_count,
      parent_pk: row.group_parent_pk,
      study_sid: row.study_sid,
      study_name: row.study_name,
      characteristica: [],
    }),
    (row) => row.group_count,
    { name: 'group_name', count: 'group_count', parent_pk: 'group_parent_pk', study_sid: 'study_sid', study_name: 'study_name' },
  );
}

export function buildIndividuals(rows: Iterable<Parsed<typeof INDIVIDUALS>>, log: ProblemLog): IndividualRecord[] {
  return collapseSubjects(
    INDIVIDUALS.file,
    rows,
    log,
    'individual_pk',
    (row): IndividualRecord => ({
      pk: row.individual_pk,
      name: row.individual_name,
      group_pk: row.individual_group_pk,
      study_sid: row.study_sid,
      study_name: row.study_name,
      characteristica: [],
    }),
    () => null,
    { name: 'individual_name', group_pk: 'individual_group_pk', study_sid: 'study_sid', study_name: 'study_name' },
  );
}

export function buildInterventions(rows: Iterable<Parsed<typeof INTERVENTIONS>>, log: ProblemLog): InterventionRecord[] {
  const unique = new UniqueKeys<number>(INTERVENTIONS.file, 'intervention_pk', 'intervention', log);
  const interventions: InterventionRecord[] = [];
  for (const { line, row } of rows) {
    if (!unique.claim(row.intervention_pk, line)) continue;
    interventions.push({
      pk: row.intervention_pk,
      raw_pk: row.raw_pk,
      normed: row.normed,
      study_sid: row.study_sid,
      study_name: row.study_name,
      name: row.name,
      route: row.route,
      form: row.form,
      application: row.application,
      time: row.time,
      time_end: row.time_end,
      time_unit: row.time_unit,
      measurement_type: row.measurement_type,
      calculation_type: row.calculation_type,
      choice: row.choice,
      substance: row.substance,
      ...statsOf(row),
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
 * every field of OUTPUT_OWN_FIELDS. The same test as `firstDifference(...) ===
 * null`, written out so that each read is a plain property load: it runs for
 * every repeated row of outputs.csv (a third of its 80 000 rows), and
 * `firstDifference` only names the field once this says there is one.
 */
function sameOutput(o: OutputRecord, r: Parsed<typeof OUTPUTS>['row']): boolean {
  return (
    o.raw_pk === r.raw_pk &&
    o.normed === r.normed &&
    o.calculated === r.calculated &&
    o.study_sid === r.study_sid &&
    o.study_name === r.study_name &&
    o.group_pk === r.group_pk &&
    o.individual_pk === r.individual_pk &&
    o.tissue === r.tissue &&
    o.method === r.method &&
    o.label === r.label &&
    o.output_type === r.output_type &&
    o.time === r.time &&
    o.time_unit === r.time_unit &&
    o.measurement_type === r.measurement_type &&
    o.calculation_type === r.calculation_type &&
    o.choice === r.choice &&
    o.substance === r.substance &&
    o.value === r.value &&
    o.mean === r.mean &&
    o.median === r.median &&
    o.min === r.min &&
    o.max === r.max &&
    o.sd === r.sd &&
    o.se === r.se &&
    o.cv === r.cv &&
    o.unit === r.unit
  );
}

/** Collapses (output, intervention) rows by output pk; `intervention_pks` is the sorted union. */
export function buildOutputs(rows: Iterable<Parsed<typeof OUTPUTS>>, log: ProblemLog): OutputRecord[] {
  const outputs: OutputRecord[] = [];
  /** Output pk -> its index in `outputs`, and the line of its first row at the same index in `lines`. */
  const indexOf = new Map<number, number>();
  const lines: number[] = [];
  for (const { line, row } of rows) {
    if ((row.group_pk === null) === (row.individual_pk === null)) {
      const message = 'exactly one of group_pk and individual_pk must be set';
      log.add({ file: OUTPUTS.file, line, column: 'group_pk', message });
      continue;
    }
    const known = indexOf.get(row.output_pk);
    if (known !== undefined) {
      const output = outputs[known];
      // The row repeats the output for another intervention: its own fields (named alike in row and record) must agree.
      if (!sameOutput(output, row)) {
        const [first, here] = [output as unknown as Record<string, unknown>, row as unknown as Record<string, unknown>];
        const key = firstDifference(first, here, OUTPUT_OWN_FIELDS)!;
        const message = contradiction(`output ${row.output_pk}`, key, first, lines[known], here);
        log.add({ file: OUTPUTS.file, line, column: key, message });
        continue;
      }
      if (row.intervention_pk !== null) output.intervention_pks.push(row.intervention_pk);
      continue;
    }
    indexOf.set(row.output_pk, outputs.length);
    lines.push(line);
    outputs.push({
      pk: row.output_pk,
      raw_pk: row.raw_pk,
      normed: row.normed,
      calculated: row.calculated,
      study_sid: row.study_sid,
      study_name: row.study_name,
      group_pk: row.group_pk,
      individual_pk: row.individual_pk,
      intervention_pks: row.intervention_pk === null ? [] : [row.intervention_pk],
      tissue: row.tissue,
      method: row.method,
      label: row.label,
      output_type: row.output_type,
      time: row.time,
      time_unit: row.time_unit,
      measurement_type: row.measurement_type,
      calculation_type: row.calculation_type,
      choice: row.choice,
      substance: row.substance,
      value: row.value,
      mean: row.mean,
      median: row.median,
      min: row.min,
      max: row.max,
      sd: row.sd,
      se: row.se,
      cv: row.cv,
      unit: row.unit,
      subset_pk: null,
    });
  }
  for (const output of outputs) {
    if (output.intervention_pks.length > 1) output.intervention_pks = [...new Set(output.intervention_pks)].sort((a, b) => a - b);
  }
  return outputs;
}
