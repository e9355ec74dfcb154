/**
 * The QA context: everything the checks share, prepared once per run so that
 * no check recomputes a timecourse, re-reads a unit or re-derives a key
 * (issue 13, item 1). Checks (src/qa/checks/) are pure functions of it.
 *
 * What it holds (field names are the contract the checks use):
 * - `dataset`, `tables`: the dataset checked (with --study, every study: the others are the cross-study reference);
 * - `concentrationTimecourses`: every concentration timecourse, table order;
 * - `timecourses`: those that could be prepared, each with its pkdb-profile
 *   values, its standard recomputation (lazy: computed on first use), its
 *   dose (`DoseInfo`: value, unit, route, infusion duration, dose time in the
 *   timecourse's time unit) and its dosing pks; `timecoursesByKey` (match
 *   key) and `timecourseBySubset` index them;
 * - `calculated`: the stored calculated outputs against the pkdb profile;
 * - `parameters`: every reported single value and every stored calculated
 *   output, converted to a canonical unit, with its subject, intervention set,
 *   substance, tissue, route, match key and body weight (parameters.ts);
 *   `parametersByKey` indexes them by match key;
 * - `comparisons`: reported vs recomputed, computed on first use;
 * - helpers: `matchKey`, `molarMass`, `bodyWeightKg`, `dosingOfSet`, `subjectMarks`;
 * - coverage marks (coverage.ts): a check calls `examined(kind, pk, check)`
 *   for each record a comparison ran on, `notExamined(kind, pk, check, reason)`
 *   for one it could not compare; `coverage` holds them for the summary;
 * - `findings`: what went wrong while preparing (a timecourse that could not
 *   be prepared, the calculated outputs that could not be recomputed).
 */
import { Dataset, linkKey, subjectOf, type LinkKeyFields, type SubjectRef } from '../data/dataset.js';
import type { DatasetSource } from '../data/model.js';
import type { DatasetTables, InterventionRecord, TimecourseRecord } from '../data/model.js';
import { cached, lazy, pushTo, representativeValue } from '../data/records.js';
import { molarMassLookup } from '../units/molar-mass.js';
import { recomputeCalculated, type CalculatedRow } from './calculated.js';
import { compareAll, type Comparison } from './compare-reported.js';
import { CoverageLog, type RecordKind } from './coverage.js';
import { finding, type Finding } from './finding.js';
import { beyondBounds, subjectBounds } from './human-limits.js';
import { bodySurfaceM2 } from './body-surface.js';
import { saltBase } from './substance-relations.js';
import { MatchKeys } from './match-keys.js';
import { parameterValues, type ParameterValue } from './parameters.js';
import { marksPopulation, mayBeAdultHuman, mayBeHuman, subjectMarks } from './population.js';
import { doseInfo, pkdbValuesBySubset, standardRecomputation, type ParameterValues, type RecomputedTimecourse, type StandardRecomputation } from './recompute.js';
import { isDose } from './dose-units.js';

export type { RecomputedTimecourse };


export interface QaContextOptions {
  /** Called after each concentration timecourse. */
  onProgress?: (done: number, total: number) => void;
  /**
   * The studies (sids) the run is about (all when absent or empty): runQa keeps their findings, calculated rows,
   * comparisons, timecourses and coverage, and a check that looks within one study at a time may leave the others
   * out (`reported`). Every study stays in the context and is the reference of the cross-study checks, so a study
   * checked alone gets the findings of a whole run: on its export alone, its values would have no other study to be
   * set against.
   */
  studies?: readonly string[];
}

export interface QaContext {
  readonly dataset: Dataset;
  readonly tables: DatasetTables;
  /** The source of the dataset. */
  readonly source: DatasetSource;
  readonly concentrationTimecourses: readonly TimecourseRecord[];
  readonly timecourses: readonly RecomputedTimecourse[];
  readonly timecoursesByKey: ReadonlyMap<string, readonly RecomputedTimecourse[]>;
  readonly timecourseBySubset: ReadonlyMap<number, RecomputedTimecourse>;
  readonly calculated: readonly CalculatedRow[];
  readonly parameters: readonly ParameterValue[];
  readonly parametersByKey: ReadonlyMap<string, readonly ParameterValue[]>;
  /** Reported vs recomputed, best comparison per reported output; computed on first read. */
  readonly comparisons: readonly Comparison[];
  /** Problems met while preparing; runQa reports them with the checks' findings. */
  readonly findings: readonly Finding[];
  /** The matching key: study, subject, intervention set, substance, tissue (method left out). */
  matchKey(fields: LinkKeyFields): string;
  /** Molar mass in g/mol of a substance (info nodes, else the built-in table), or null. */
  molarMass(substance: string | null): number | null;
  /** Body weight in kg of the subject of a record; an individual without one inherits its group's. */
  bodyWeightKg(record: { group_pk: number | null; individual_pk: number | null }): number | null;
  /** Body surface area in m² of the subject of a record (body-surface.ts: curated, else from weight and height), else its group's. */
  bodySurfaceM2(record: { group_pk: number | null; individual_pk: number | null }): number | null;
  /**
   * The population marks of a record's subject (population.ts `subjectMarks`), one list per subject for the run;
   * an individual whose own characteristica mark nothing has its group's list (the same list).
   */
  subjectMarks(record: { group_pk: number | null; individual_pk: number | null }): readonly string[];
  /** Whether a record's subject may be taken for an adult human (population.ts `mayBeAdultHuman`), one answer per subject for the run. */
  mayBeAdultHuman(record: { group_pk: number | null; individual_pk: number | null }): boolean;
  /** The normed doses of an intervention set (dose-units.ts `isDose`: a dosing, or a qualitative dosing with an amount). */
  dosingOfSet(interventionPks: readonly number[]): InterventionRecord[];
  /**
   * The timecourse (subset pk) a value stems from: a reported output's own subset, a stored calculated output's
   * curve (calculated.ts pairs them; else the first curve of its key); null when none.
   */
  curveOf(p: ParameterValue): number | null;
  /**
   * Whether the run reports the study's findings. A check whose findings on a study depend on that study's records
   * alone (within-study, pk-identity) skips the others; the cross-study checks use every study, reported or not.
   */
  reported(studySid: string): boolean;
  /** Coverage: a comparison of `check` ran on the record (coverage.ts). */
  examined(kind: RecordKind, pk: number, check: string): void;
  /** Coverage: `check` could not compare the record, and why. */
  notExamined(kind: RecordKind, pk: number, check: string, reason: string): void;
  readonly coverage: CoverageLog;
}

export function matchKey(fields: LinkKeyFields): string {
  // The fields by name rather than `{ ...fields }`: spreading a whole output record per call cost ~40 ms per run.
  const { study_sid, group_pk, individual_pk, intervention_pks, substance, tissue } = fields;
  return linkKey({ study_sid, group_pk, individual_pk, intervention_pks, substance, tissue, method: null });
}

/** A step of the run that threw: one major finding naming it, instead of ending the run. */
export function failureFinding(what: string, error: unknown, kind: Finding['kind'] = 'check-failed'): Finding {
  const reason = error instanceof Error ? error.message : String(error);
  return finding({ kind, severity: 'major', message: `${what} failed: ${reason}` });
}

/** A dose time the standard profile could not use (recompute.ts `DoseInfo.timeProblem`). */
function doseTimeFinding(tc: TimecourseRecord, interventionPk: number | null, problem: string): Finding {
  return finding({
    kind: 'unit', severity: 'minor', study_sid: tc.study_sid, study_name: tc.study_name, subset_pk: tc.subset_pk,
    culprit: 'dose', intervention_pk: interventionPk, message: `timecourse ${tc.subset_pk}: ${problem}`,
  });
}


/**
 * The standard profile is computed on first use of `standard`: only timecourses
 * that a reported output links to, or that get a plot, need it (1,308 of the
 * shared export's 2,142), and it is most of a timecourse's cost.
 */
function recomputeTimecourse(dataset: Dataset, tc: TimecourseRecord, pkdb: ParameterValues, molarMass: (substance: string) => number | null): RecomputedTimecourse {
  const dosings = dataset.dosingOf(tc);
  const member = dataset.firstMemberOutput(tc);
  const substance = member?.substance ?? null;
  const dose = tc.time_unit ? doseInfo(dosings, substance, tc.time_unit, (dosed) => saltBase(dosed, molarMass)?.fraction ?? null) : null;
  const key = member
    ? matchKey({
        study_sid: tc.study_sid, group_pk: tc.group_pk, individual_pk: tc.individual_pk, intervention_pks: tc.intervention_pk,
        substance: member.substance, tissue: member.tissue, method: null,
      })
    : null;
  let standard: StandardRecomputation | undefined;
  return {
    tc,
    key,
    substance: substance ?? tc.substance,
    pkdb,
    get standard() {
      standard ??= standardRecomputation(tc, dose);
      return standard;
    },
    dose,
    dosingPks: dosings.map((d) => d.pk),
  };
}

/** A record's subject as a number, for per-subject caches: a group as its pk, an individual as −pk − 1; null for none. */
function subjectNumber(record: { group_pk: number | null; individual_pk: number | null }): number | null {
  return record.group_pk != null ? record.group_pk : record.individual_pk != null ? -record.individual_pk - 1 : null;
}

/** Prepares the context once; never throws on bad data (a failing step is a finding in `findings`). */
export function prepareContext(dataset: Dataset, options: QaContextOptions = {}): QaContext {
  const tables = dataset.tables;
  const findings: Finding[] = [];

  let calculated: CalculatedRow[] = [];
  try {
    calculated = recomputeCalculated(dataset);
  } catch (error) {
    findings.push(failureFinding('recomputing the stored calculated outputs', error));
  }
  const pkdbBySubset = pkdbValuesBySubset(calculated);

  const massLookup = molarMassLookup(tables);
  const molarMass = (substance: string | null) => massLookup(substance)?.mass ?? null;

  const concentrationTimecourses = tables.timecourses.filter((tc) => tc.measurement_type === 'concentration');
  const timecourses: RecomputedTimecourse[] = [];
  const timecoursesByKey = new Map<string, RecomputedTimecourse[]>();
  const timecourseBySubset = new Map<number, RecomputedTimecourse>();
  concentrationTimecourses.forEach((tc, index) => {
    try {
      const rt = recomputeTimecourse(dataset, tc, pkdbBySubset.get(tc.subset_pk) ?? {}, molarMass);
      if (rt.dose?.timeProblem) findings.push(doseTimeFinding(tc, rt.dosingPks[0] ?? null, rt.dose.timeProblem));
      timecourses.push(rt);
      timecourseBySubset.set(tc.subset_pk, rt);
      if (rt.key !== null) pushTo(timecoursesByKey, rt.key, rt);
    } catch (error) {
      findings.push({ ...failureFinding(`preparing timecourse ${tc.subset_pk}`, error), study_sid: tc.study_sid, study_name: tc.study_name, subset_pk: tc.subset_pk });
    }
    options.onProgress?.(index + 1, concentrationTimecourses.length);
  });

  // By subject as a number (a group as its pk, an individual as −pk − 1): asked per value by several checks, and a
  // label text built and hashed per ask cost more than the weights.
  const weights = new Map<number, number | null>();
  const bodyWeightKg = (record: { group_pk: number | null; individual_pk: number | null }): number | null => {
    const key = subjectNumber(record);
    if (key === null) return null;
    const known = weights.get(key);
    if (known !== undefined) return known;
    const subject = subjectOf(record) as SubjectRef;
    let weight = dataset.bodyWeightKg(subject);
    if (weight === null && subject.kind === 'individual') {
      const group = dataset.individual(subject.pk)?.group_pk;
      weight = group == null ? null : dataset.bodyWeightKg({ kind: 'group', pk: group });
    }
    // A weight no human (no adult) has is no weight to convert with: the body-measure check names it, and every per-kg
    // value made absolute with it would otherwise cry a slip of its own (a group's 71 kg curated as 710: its CL per kg
    // ×10 against the other studies, its curve's CL ×1/10 against the table). Unknown instead, as for the unweighed.
    // A human's limits only: a mouse of 25 g is no slip.
    const groupCount = subject.kind === 'group' ? (dataset.group(subject.pk)?.count ?? null) : null;
    if (weight !== null && beyondBounds(weight, subjectBounds('weight', ageOf(subject), groupCount)) !== null && mayBeHuman(dataset, record)) weight = null;
    weights.set(key, weight);
    return weight;
  };
  /** The subject's curated age in years (its own, else its group's), or null. */
  const ageOf = (subject: SubjectRef): number | null => {
    const record = subject.kind === 'group' ? dataset.group(subject.pk) : dataset.individual(subject.pk);
    const age = record?.characteristica.find((c) => c.measurement_type === 'age' && c.unit === 'year');
    return age ? representativeValue(age) : null;
  };
  // By subject as a number, as the weights: asked per value by the range, comparison, physiology and within-study steps.
  const adults = new Map<number, boolean>();
  const adultHuman = (record: { group_pk: number | null; individual_pk: number | null }): boolean => {
    const key = subjectNumber(record);
    if (key === null) return mayBeAdultHuman(dataset, record);
    let known = adults.get(key);
    if (known === undefined) adults.set(key, (known = mayBeAdultHuman(dataset, record)));
    return known;
  };
  // Marks by group (records of a group), and by individual then group (records of an individual).
  const groupMarks = new Map<number | null, readonly string[]>();
  const individualMarks = new Map<number, Map<number | null, readonly string[]>>();
  const marksOf = (r: { group_pk: number | null; individual_pk: number | null }): readonly string[] => {
    if (r.individual_pk === null) {
      let marks = groupMarks.get(r.group_pk);
      if (marks === undefined) groupMarks.set(r.group_pk, (marks = subjectMarks(dataset, r)));
      return marks;
    }
    let byGroup = individualMarks.get(r.individual_pk);
    if (byGroup === undefined) individualMarks.set(r.individual_pk, (byGroup = new Map()));
    let marks = byGroup.get(r.group_pk);
    if (marks === undefined) {
      const individual = dataset.individual(r.individual_pk);
      const groupPk = r.group_pk ?? individual?.group_pk ?? null;
      marks =
        individual && groupPk !== null && !individual.characteristica.some(marksPopulation)
          ? marksOf({ group_pk: groupPk, individual_pk: null })
          : subjectMarks(dataset, r);
      byGroup.set(r.group_pk, marks);
    }
    return marks;
  };
  const dosingOfSet = (pks: readonly number[]): InterventionRecord[] => {
    const dosing: InterventionRecord[] = [];
    for (const pk of pks) {
      const intervention = dataset.intervention(pk);
      if (intervention && intervention.normed && isDose(intervention)) dosing.push(intervention);
    }
    return dosing;
  };

  // One key string per key for the run (match-keys.ts), whoever asks.
  const keys = new MatchKeys(matchKey);
  const keyOf = (fields: LinkKeyFields, interventions?: string) => keys.of(fields, interventions);
  // A subject's body surface area (m²): its own characteristica (an individual lists its group's too), else its group's.
  const surfaces = new Map<number, number | null>();
  const surfaceOf = (record: { group_pk: number | null; individual_pk: number | null }): number | null => {
    const own = record.individual_pk != null ? dataset.individual(record.individual_pk) : record.group_pk != null ? dataset.group(record.group_pk) : null;
    const surface = own ? bodySurfaceM2(own.characteristica) : null;
    if (surface !== null || !own || !('group_pk' in own) || own.group_pk == null) return surface;
    const group = dataset.group(own.group_pk);
    return group ? bodySurfaceM2(group.characteristica) : null;
  };
  const bodySurface = (record: { group_pk: number | null; individual_pk: number | null }): number | null => {
    const key = subjectNumber(record);
    return key === null ? null : cached(surfaces, key, () => surfaceOf(record));
  };
  const parameters = lazy(() => parameterValues(tables.outputs, { matchKey: keyOf, molarMass, bodyWeightKg, dosingOfSet, bodySurfaceM2: bodySurface }));
  const parametersByKey = lazy(() => {
    const map = new Map<string, ParameterValue[]>();
    const values = parameters();
    for (let i = 0; i < values.length; i++) pushTo(map, values[i].key, values[i]);
    return map;
  });
  // A stored calculated output belongs to the timecourse PK-DB computed it from (calculated.ts pairs them).
  const subsetOfCalculated = lazy(() => {
    const map = new Map<number, number>();
    for (let i = 0; i < calculated.length; i++) {
      const row = calculated[i];
      if (row.output_pk !== null && row.subset_pk !== null) map.set(row.output_pk, row.subset_pk);
    }
    return map;
  });
  const curveOf = (p: ParameterValue): number | null =>
    p.output.subset_pk ?? (p.source === 'calculated' ? (subsetOfCalculated().get(p.output.pk) ?? timecoursesByKey.get(p.key)?.[0]?.tc.subset_pk ?? null) : null);
  const coverage = new CoverageLog();
  const scope = options.studies?.length ? new Set(options.studies) : null;
  const ctx: QaContext = {
    dataset,
    tables,
    source: dataset.source,
    concentrationTimecourses,
    timecourses,
    timecoursesByKey,
    timecourseBySubset,
    calculated,
    get parameters() {
      return parameters();
    },
    get parametersByKey() {
      return parametersByKey();
    },
    get comparisons() {
      return comparisons();
    },
    findings,
    reported: (sid) => scope === null || scope.has(sid),
    matchKey: keyOf,
    molarMass,
    bodyWeightKg,
    bodySurfaceM2: bodySurface,
    dosingOfSet,
    curveOf,
    subjectMarks: marksOf,
    mayBeAdultHuman: adultHuman,
    // Plain functions, so that checks may pass `ctx.examined` around.
    examined: (kind, pk, check) => coverage.examined(kind, pk, check),
    notExamined: (kind, pk, check, reason) => coverage.notExamined(kind, pk, check, reason),
    coverage,
  };
  const comparisons = lazy(() => compareAll(ctx));
  return ctx;
}

export type { ParameterValue };
