/**
 * The in-memory dataset model: one set of record types, whatever the source
 * (export zip, API crawl, bundled fixtures). Field names follow PK-DB's own
 * flat views (`/pkdata/*` and the export CSVs) so that a record, a CSV row and
 * an API item can be compared by eye.
 *
 * Conventions:
 * - Info-node terms (substance, tissue, method, measurement_type, route, ...)
 *   are stored by **name**, as in outputs.csv and interventions.csv. The
 *   `terms` table maps names to `{sid, name, label}` where the source knew them.
 * - Missing values are `null`, never `undefined` or NaN.
 * - pks are integers; `study_sid` is always a string.
 */

import type { Stats } from '../api/schemas/common.js';

/** The statistics block PK-DB attaches to characteristica, interventions and outputs: the API schema's type. */
export type { Stats };
/** @deprecated The old name of `Stats`, kept until every module says `Stats`. */
export type StatsFields = Stats;

export const STAT_KEYS = ['value', 'mean', 'median', 'min', 'max', 'sd', 'se', 'cv'] as const;
export type StatKey = (typeof STAT_KEYS)[number];

/** An info-node term: `sid` is the stable id, `name` what outputs.csv writes, `label` the display text. */
export interface TermRecord {
  sid: string;
  name: string;
  label: string;
  /** substance, measurement_type, tissue, method, route, form, application, choice, ... when known. */
  ntype: string | null;
}

export interface ReferenceRecord {
  pk: number | null;
  sid: string | null;
  name: string | null;
  pmid: string | null;
  doi: string | null;
  title: string | null;
  abstract: string | null;
  journal: string | null;
  date: string | null;
  authors: { pk: number | null; first_name: string; last_name: string }[];
}

export interface PersonRecord {
  username: string;
  first_name: string | null;
  last_name: string | null;
  /** Curators only. */
  rating?: number | null;
}

export interface StudyRecord {
  sid: string;
  name: string;
  licence: string | null;
  access: string | null;
  date: string | null;
  /** Username of the creator. */
  creator: string | null;
  /** Usernames. */
  curators: string[];
  /** Substance labels, as /pkdata/studies/ lists them. */
  substances: string[];
  reference_pmid: string | null;
  reference_title: string | null;
  reference_date: string | null;
  /**
   * Details only the full API view carries (absent when loaded from an export):
   * the full reference, people with names, comments, descriptions, files.
   */
  detail?: {
    pk?: string;
    reference?: ReferenceRecord | null;
    creator?: PersonRecord | null;
    curators?: PersonRecord[];
    collaborators?: unknown[];
    comments?: { pk: number; username: string; text: string }[];
    descriptions?: { pk: number; text: string }[];
    files?: { pk: number; name: string; file: string }[];
  };
}

export interface CharacteristicaRecord extends Stats {
  pk: number;
  /** Number of subjects with this characteristic. */
  count: number | null;
  measurement_type: string;
  calculation_type: string | null;
  choice: string | null;
  substance: string | null;
  /** Size of the group the characteristic was stated for (null for an individual's own). */
  group_count: number | null;
}

export interface GroupRecord {
  pk: number;
  name: string;
  /** Number of subjects. */
  count: number | null;
  parent_pk: number | null;
  study_sid: string;
  study_name: string;
  /** Normed characteristica as PK-DB lists them, inherited ones included. */
  characteristica: CharacteristicaRecord[];
}

export interface IndividualRecord {
  pk: number;
  name: string;
  group_pk: number | null;
  study_sid: string;
  study_name: string;
  characteristica: CharacteristicaRecord[];
}

export interface InterventionRecord extends Stats {
  pk: number;
  /** For a normed copy: the pk of the curated (raw) record it was derived from. */
  raw_pk: number | null;
  normed: boolean;
  study_sid: string;
  study_name: string;
  name: string;
  route: string | null;
  form: string | null;
  application: string | null;
  /** Numeric text as PK-DB stores it (may be negative, may be a dosing pattern). */
  time: string | null;
  time_end: string | null;
  time_unit: string | null;
  measurement_type: string;
  calculation_type: string | null;
  choice: string | null;
  substance: string | null;
}

export interface OutputRecord extends Stats {
  pk: number;
  raw_pk: number | null;
  normed: boolean;
  calculated: boolean;
  study_sid: string;
  study_name: string;
  /** Exactly one of group_pk and individual_pk is set. */
  group_pk: number | null;
  individual_pk: number | null;
  /** The intervention set, ascending. */
  intervention_pks: number[];
  tissue: string | null;
  method: string | null;
  label: string | null;
  /** `output`, `timecourse`, `array`; null for calculated outputs. */
  output_type: string | null;
  time: number | null;
  time_unit: string | null;
  measurement_type: string;
  calculation_type: string | null;
  choice: string | null;
  substance: string | null;
  /** The timecourse (or, for calculated outputs, the timecourse they were computed from) when known. */
  subset_pk: number | null;
}

/**
 * A timecourse subset with its aligned per-point lists, exactly as
 * timecourses.csv (or /pkdata/timecourses/) gives it. Element k of every list
 * belongs to output `output_pk[k]`. Lists are kept in the source's order; the
 * NCA profiles re-order as their rules require. `substance`, `tissue` and
 * `method` are **sids** here (with `_label` columns), unlike outputs.
 */
export interface TimecourseRecord {
  subset_pk: number;
  subset_name: string;
  study_sid: string;
  study_name: string;
  output_pk: number[];
  intervention_pk: number[];
  group_pk: number | null;
  individual_pk: number | null;
  normed: boolean;
  tissue: string | null;
  tissue_label: string | null;
  method: string | null;
  method_label: string | null;
  label: string | null;
  time: (number | null)[];
  time_unit: string | null;
  measurement_type: string;
  measurement_type_label: string | null;
  choice: string | null;
  choice_label: string | null;
  substance: string | null;
  substance_label: string | null;
  /** A series that is entirely missing is null. */
  value: (number | null)[] | null;
  mean: (number | null)[] | null;
  median: (number | null)[] | null;
  min: (number | null)[] | null;
  max: (number | null)[] | null;
  sd: (number | null)[] | number | null;
  se: (number | null)[] | number | null;
  cv: (number | null)[] | null;
  unit: string | null;
}

/**
 * A scatter subset as scatters.csv gives it: the `x_` and `y_` columns parsed
 * into two objects (list columns as arrays, scalars as scalars).
 */
export interface ScatterRecord {
  subset_pk: number;
  subset_name: string;
  study_sid: string;
  study_name: string;
  x: Record<string, unknown>;
  y: Record<string, unknown>;
}

/** An info node (meta-information for a term), when the source had them. */
export interface InfoNodeRecord {
  sid: string;
  name: string;
  label: string;
  ntype: string;
  dtype: string | null;
  deprecated: boolean;
  description: string | null;
  synonyms: string[];
  /** Molar mass in g/mol for substances, when known. */
  mass: number | null;
  /** The whole node as the API returned it, for faithful re-serving. */
  raw?: Record<string, unknown>;
}

/** All tables of a dataset. Optional tables are absent when the source has no such data. */
export interface DatasetTables {
  studies: StudyRecord[];
  groups: GroupRecord[];
  individuals: IndividualRecord[];
  /** Raw and normed records where the source has both; exports have normed only. */
  interventions: InterventionRecord[];
  outputs: OutputRecord[];
  timecourses: TimecourseRecord[];
  scatters: ScatterRecord[];
  terms: TermRecord[];
  info_nodes?: InfoNodeRecord[];
  references?: ReferenceRecord[];
}

/** Where a dataset came from, for messages and reports. */
export interface DatasetSource {
  kind: 'export' | 'api' | 'fixtures';
  /** File path or base URL. */
  location: string;
}
