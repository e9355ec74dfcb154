/**
 * `Dataset`: the tables of one PK-DB source plus the indexes analyses need.
 * Built the same way from an export zip, an API crawl or the fixtures
 * (`Dataset.fromTables`). Indexes are built lazily, once, on first use; the
 * tables themselves are never modified.
 */
import type {
  DatasetSource,
  DatasetTables,
  GroupRecord,
  IndividualRecord,
  InterventionRecord,
  OutputRecord,
  ScatterRecord,
  StudyRecord,
  TermRecord,
  TimecourseRecord,
} from './model.js';
import { countTables, type DatasetCounts } from './counts.js';
import { groupBy, indexFirst, lazy, representativeValue } from './records.js';
import { readExport, type ExportProblem, type ReadExportOptions } from './export/read.js';

/** A subject: the group or the individual an output was measured in. */
export type SubjectRef = { kind: 'group'; pk: number } | { kind: 'individual'; pk: number };

/**
 * The fields that tie outputs to a timecourse (PK-DB calculation §5): study,
 * subject, intervention set, substance, tissue and method, by name.
 */
export interface LinkKeyFields {
  study_sid: string;
  group_pk: number | null;
  individual_pk: number | null;
  intervention_pks: readonly number[];
  substance: string | null;
  tissue: string | null;
  method: string | null;
}

/** Outputs of one link key, split by how PK-DB got them. */
export interface LinkedOutputs {
  /** Curated single values (normed, not calculated, not timecourse points). */
  reported: OutputRecord[];
  /** Values PK-DB computed from a timecourse (normed, calculated). */
  calculated: OutputRecord[];
}

const EMPTY_LINKED: LinkedOutputs = Object.freeze({ reported: [], calculated: [] }) as LinkedOutputs;

/** The string form of a link key; equal keys mean "same subject, dosing, substance and tissue". */
export function linkKey(fields: LinkKeyFields): string {
  const subject = fields.group_pk != null ? `g${fields.group_pk}` : `i${fields.individual_pk ?? ''}`;
  return `${fields.study_sid}|${subject}|${ascendingPks(fields.intervention_pks)}|${fields.substance ?? ''}|${fields.tissue ?? ''}|${fields.method ?? ''}`;
}

/** Pks ascending, comma-separated; a list already ascending (most) is joined without a copy and a sort. */
function ascendingPks(pks: readonly number[]): string {
  for (let k = 1; k < pks.length; k++) if (pks[k - 1] > pks[k]) return [...pks].sort((a, b) => a - b).join(',');
  return pks.join(',');
}

export function subjectOf(record: { group_pk: number | null; individual_pk: number | null }): SubjectRef | null {
  if (record.group_pk != null) return { kind: 'group', pk: record.group_pk };
  if (record.individual_pk != null) return { kind: 'individual', pk: record.individual_pk };
  return null;
}

/** `group:12` / `individual:5`, the form findings use. */
export function subjectLabel(subject: SubjectRef | null): string | null {
  return subject ? `${subject.kind}:${subject.pk}` : null;
}

/** The group and individual pks a subject label (`subjectLabel`) names; both null for none. */
export function subjectFields(label: string | null): { group_pk: number | null; individual_pk: number | null } {
  const colon = label === null ? -1 : label.indexOf(':');
  const kind = colon < 0 ? null : (label as string).slice(0, colon);
  const pk = colon < 0 ? null : Number((label as string).slice(colon + 1));
  return { group_pk: kind === 'group' ? pk : null, individual_pk: kind === 'individual' ? pk : null };
}

export class Dataset {
  private constructor(
    readonly tables: DatasetTables,
    readonly source: DatasetSource,
  ) {}

  static fromTables(tables: DatasetTables, source: DatasetSource): Dataset {
    return new Dataset(tables, source);
  }

  /**
   * Loads a PK-DB export zip. Malformed rows are skipped and returned as
   * `problems`, the first `maxProblems` of `problemCount` (pass `strict: true`
   * to fail on the first one instead); the reader's size limits apply.
   */
  static async fromExport(
    path: string,
    options: ReadExportOptions = {},
  ): Promise<{ dataset: Dataset; problems: ExportProblem[]; problemCount: number }> {
    const { tables, problems, problemCount } = await readExport(path, options);
    return { dataset: new Dataset(tables, { kind: 'export', location: path }), problems, problemCount };
  }

  /** Distinct studies, groups, individuals, interventions, outputs (and calculated ones), timecourses, scatters. */
  counts(): DatasetCounts {
    return countTables(this.tables);
  }

  // ---- lookups by identifier -------------------------------------------------

  private readonly studyIndex = lazy(() => indexFirst(this.tables.studies, (s) => s.sid));
  private readonly groupIndex = lazy(() => indexFirst(this.tables.groups, (g) => g.pk));
  private readonly individualIndex = lazy(() => indexFirst(this.tables.individuals, (i) => i.pk));
  private readonly interventionIndex = lazy(() => indexFirst(this.tables.interventions, (i) => i.pk));
  private readonly outputIndex = lazy(() => indexFirst(this.tables.outputs, (o) => o.pk));
  private readonly timecourseIndex = lazy(() => indexFirst(this.tables.timecourses, (t) => t.subset_pk));
  private readonly termIndex = lazy(() => {
    // Terms are looked up by name (what outputs carry) and by sid (what timecourses carry).
    const map = new Map<string, TermRecord>();
    for (const term of this.tables.terms) {
      map.set(term.sid, term);
      map.set(term.name, term);
    }
    return map;
  });

  study(sid: string): StudyRecord | undefined {
    return this.studyIndex().get(sid);
  }
  group(pk: number): GroupRecord | undefined {
    return this.groupIndex().get(pk);
  }
  individual(pk: number): IndividualRecord | undefined {
    return this.individualIndex().get(pk);
  }
  intervention(pk: number): InterventionRecord | undefined {
    return this.interventionIndex().get(pk);
  }
  output(pk: number): OutputRecord | undefined {
    return this.outputIndex().get(pk);
  }
  timecourse(subsetPk: number): TimecourseRecord | undefined {
    return this.timecourseIndex().get(subsetPk);
  }
  /** A term by name or sid. */
  term(nameOrSid: string): TermRecord | undefined {
    return this.termIndex().get(nameOrSid);
  }

  // ---- per-study views -------------------------------------------------------

  private readonly outputsByStudy = lazy(() => groupBy(this.tables.outputs, (o) => o.study_sid));
  private readonly interventionsByStudy = lazy(() => groupBy(this.tables.interventions, (i) => i.study_sid));
  private readonly timecoursesByStudy = lazy(() => groupBy(this.tables.timecourses, (t) => t.study_sid));
  private readonly groupsByStudy = lazy(() => groupBy(this.tables.groups, (g) => g.study_sid));
  private readonly individualsByStudy = lazy(() => groupBy(this.tables.individuals, (i) => i.study_sid));
  private readonly scattersByStudy = lazy(() => groupBy(this.tables.scatters, (s) => s.study_sid));

  outputsOfStudy(sid: string): readonly OutputRecord[] {
    return this.outputsByStudy().get(sid) ?? [];
  }
  interventionsOfStudy(sid: string): readonly InterventionRecord[] {
    return this.interventionsByStudy().get(sid) ?? [];
  }
  timecoursesOfStudy(sid: string): readonly TimecourseRecord[] {
    return this.timecoursesByStudy().get(sid) ?? [];
  }
  groupsOfStudy(sid: string): readonly GroupRecord[] {
    return this.groupsByStudy().get(sid) ?? [];
  }
  individualsOfStudy(sid: string): readonly IndividualRecord[] {
    return this.individualsByStudy().get(sid) ?? [];
  }
  scattersOfStudy(sid: string): readonly ScatterRecord[] {
    return this.scattersByStudy().get(sid) ?? [];
  }

  // ---- timecourse relations --------------------------------------------------

  /** The outputs behind a timecourse's points, in the timecourse's list order (missing pks skipped). */
  memberOutputs(tc: TimecourseRecord): OutputRecord[] {
    const members: OutputRecord[] = [];
    for (const pk of tc.output_pk) {
      const output = this.output(pk);
      if (output) members.push(output);
    }
    return members;
  }

  /**
   * `memberOutputs(tc)[0]` without building the list: what a timecourse's substance, tissue and key are read
   * from (a timecourse has a member output per point; 2,142 of the shared export are asked this by several steps).
   */
  firstMemberOutput(tc: TimecourseRecord): OutputRecord | undefined {
    const pks = tc.output_pk;
    for (let k = 0; k < pks.length; k++) {
      const output = this.output(pks[k]);
      if (output) return output;
    }
    return undefined;
  }

  /**
   * A timecourse's substance and tissue as its outputs name them (timecourses.csv writes sids there, outputs names),
   * else its labels, else its sids.
   */
  curveNames(tc: TimecourseRecord): { substance: string | null; tissue: string | null } {
    const member = this.firstMemberOutput(tc);
    return { substance: member?.substance ?? tc.substance_label ?? tc.substance, tissue: member?.tissue ?? tc.tissue_label ?? tc.tissue };
  }

  /**
   * The normed interventions of a timecourse whose measurement type is exactly
   * `dosing` (any substance; `qualitative dosing` does not count), as PK-DB's
   * 2020 calculation selected them (PK-DB calculation §3.3).
   */
  dosingOf(tc: TimecourseRecord): InterventionRecord[] {
    const dosing: InterventionRecord[] = [];
    for (const pk of tc.intervention_pk) {
      const intervention = this.intervention(pk);
      if (intervention && intervention.normed && intervention.measurement_type === 'dosing') dosing.push(intervention);
    }
    return dosing;
  }

  /**
   * The link key of a timecourse. Substance, tissue and method come from its
   * member outputs (by name): timecourses.csv writes sids there, outputs write names.
   */
  timecourseKey(tc: TimecourseRecord): string | null {
    const first = this.firstMemberOutput(tc);
    if (!first) return null;
    return linkKey({
      study_sid: tc.study_sid,
      group_pk: tc.group_pk,
      individual_pk: tc.individual_pk,
      intervention_pks: tc.intervention_pk,
      substance: first.substance,
      tissue: first.tissue,
      method: first.method,
    });
  }

  private readonly linkedIndex = lazy(() => {
    const map = new Map<string, LinkedOutputs>();
    const outputs = this.tables.outputs;
    for (let i = 0; i < outputs.length; i++) {
      const output = outputs[i];
      if (!output.normed || output.output_type === 'timecourse' || output.output_type === 'array') continue;
      const key = linkKey(output);
      let entry = map.get(key);
      if (!entry) map.set(key, (entry = { reported: [], calculated: [] }));
      (output.calculated ? entry.calculated : entry.reported).push(output);
    }
    return map;
  });

  /** Reported and calculated single-value outputs sharing a link key (normed records only). */
  outputsByKey(key: string): LinkedOutputs {
    return this.linkedIndex().get(key) ?? EMPTY_LINKED;
  }

  /** Reported and calculated outputs that belong to the same subject, dosing, substance and tissue as a timecourse. */
  outputsLinkedTo(tc: TimecourseRecord): LinkedOutputs {
    const key = this.timecourseKey(tc);
    return key ? this.outputsByKey(key) : EMPTY_LINKED;
  }

  /**
   * Body weight of a subject in kilograms (mean, else median, else value of its
   * normed `weight` characteristica), for telling per-kg from absolute values.
   */
  bodyWeightKg(subject: SubjectRef): number | null {
    const record = subject.kind === 'group' ? this.group(subject.pk) : this.individual(subject.pk);
    const weight = record?.characteristica.find((c) => c.measurement_type === 'weight' && c.unit === 'kilogram');
    if (!weight) return null;
    return representativeValue(weight);
  }

  /** Number of subjects in a group (1 for an individual). */
  subjectCount(subject: SubjectRef): number | null {
    return subject.kind === 'group' ? (this.group(subject.pk)?.count ?? null) : 1;
  }
}
