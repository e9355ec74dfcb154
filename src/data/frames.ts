/**
 * DataFrame views of dataset tables for notebooks, as arquero ColumnTables:
 * flat tables with one row per record, subjects one row per subject ×
 * characteristica, and timecourses long (one row per point).
 *
 * arquero rather than danfojs-node (the design card's choice): danfojs-node
 * cannot be installed offline (its xlsx dependency is a URL tarball and
 * @tensorflow/tfjs-node downloads libtensorflow at install), while arquero
 * reads the same CSV about 3× faster in less than half the memory
 * (Dependency notes, docs/references.md).
 */
import * as aq from 'arquero';
import type { ColumnTable } from 'arquero';
import type {
  CharacteristicaRecord,
  DatasetTables,
  GroupRecord,
  IndividualRecord,
  OutputRecord,
  TimecourseRecord,
} from './model.js';

export interface DatasetFrames {
  studies: ColumnTable;
  /** One row per group × characteristica (a group without any: one row, characteristica columns null). */
  groups: ColumnTable;
  /** One row per individual × characteristica. */
  individuals: ColumnTable;
  interventions: ColumnTable;
  /** One row per output; `intervention_pks` is an array column. */
  outputs: ColumnTable;
  /** One row per timecourse point. */
  timecourses: ColumnTable;
  /** Groups' and individuals' characteristica together: `subject_kind`, `subject_pk`, then the characteristica. */
  characteristica: ColumnTable;
}

export function frames(tables: DatasetTables): DatasetFrames {
  return {
    studies: aq.from(tables.studies.map(({ detail: _detail, ...study }) => study)),
    groups: aq.from(tables.groups.flatMap(groupRows)),
    individuals: aq.from(tables.individuals.flatMap(individualRows)),
    interventions: aq.from(tables.interventions),
    outputs: aq.from(tables.outputs),
    timecourses: aq.from(timecoursePoints(tables.timecourses, tables.outputs)),
    characteristica: aq.from([
      ...tables.groups.flatMap((g) => g.characteristica.map((c) => ({ subject_kind: 'group', subject_pk: g.pk, study_sid: g.study_sid, ...characteristicaColumns(c) }))),
      ...tables.individuals.flatMap((i) =>
        i.characteristica.map((c) => ({ subject_kind: 'individual', subject_pk: i.pk, study_sid: i.study_sid, ...characteristicaColumns(c) })),
      ),
    ]),
  };
}

const NO_CHARACTERISTICA = characteristicaColumns(null);

function characteristicaColumns(c: CharacteristicaRecord | null) {
  return {
    characteristica_pk: c?.pk ?? null,
    measurement_type: c?.measurement_type ?? null,
    calculation_type: c?.calculation_type ?? null,
    choice: c?.choice ?? null,
    substance: c?.substance ?? null,
    count: c?.count ?? null,
    value: c?.value ?? null,
    mean: c?.mean ?? null,
    median: c?.median ?? null,
    min: c?.min ?? null,
    max: c?.max ?? null,
    sd: c?.sd ?? null,
    se: c?.se ?? null,
    cv: c?.cv ?? null,
    unit: c?.unit ?? null,
  };
}

function groupRows(g: GroupRecord) {
  const subject = { group_pk: g.pk, group_name: g.name, group_count: g.count, group_parent_pk: g.parent_pk, study_sid: g.study_sid, study_name: g.study_name };
  if (g.characteristica.length === 0) return [{ ...subject, ...NO_CHARACTERISTICA }];
  return g.characteristica.map((c) => ({ ...subject, ...characteristicaColumns(c) }));
}

function individualRows(i: IndividualRecord) {
  const subject = { individual_pk: i.pk, individual_name: i.name, individual_group_pk: i.group_pk, study_sid: i.study_sid, study_name: i.study_name };
  if (i.characteristica.length === 0) return [{ ...subject, ...NO_CHARACTERISTICA }];
  return i.characteristica.map((c) => ({ ...subject, ...characteristicaColumns(c) }));
}

/** Element k of a per-point series, or the series' single value when it collapsed to a scalar. */
function at(series: (number | null)[] | number | null, k: number): number | null {
  if (series === null || typeof series === 'number') return series;
  return series[k] ?? null;
}

/**
 * The long form of the timecourses. `substance` and `tissue` are the member
 * output's names (as in the outputs frame, so the two join), falling back to
 * the timecourse's sid when the output is not in the tables.
 */
function timecoursePoints(timecourses: readonly TimecourseRecord[], outputs: readonly OutputRecord[]) {
  const outputByPk = new Map(outputs.map((o) => [o.pk, o]));
  return timecourses.flatMap((tc) =>
    tc.output_pk.map((outputPk, k) => {
      const output = outputByPk.get(outputPk);
      return {
        subset_pk: tc.subset_pk,
        study_sid: tc.study_sid,
        output_pk: outputPk,
        time: tc.time[k] ?? null,
        value: at(tc.value, k),
        mean: at(tc.mean, k),
        median: at(tc.median, k),
        sd: at(tc.sd, k),
        se: at(tc.se, k),
        unit: tc.unit,
        time_unit: tc.time_unit,
        measurement_type: output?.measurement_type ?? tc.measurement_type,
        substance: output?.substance ?? tc.substance,
        tissue: output?.tissue ?? tc.tissue,
        group_pk: tc.group_pk,
        individual_pk: tc.individual_pk,
      };
    }),
  );
}
