/**
 * A finding: one thing in the data that a curator should look at. Every check
 * (src/qa/checks/) produces these, its `kind` naming the check; the report and the CSV/JSON files are views of them.
 * The columns are those of findings.csv.
 */
export type Severity = 'major' | 'minor' | 'info';

export const SEVERITY_RANK: Record<Severity, number> = { info: 0, minor: 1, major: 2 };

export type FindingKind =
  | 'calculated'
  | 'reported-vs-recomputed'
  | 'normed-vs-raw'
  | 'unit'
  | 'input'
  | 'plausibility'
  | 'urine'
  /** PK identities among reported values of one subject and intervention set (checks/pk-identities.ts). */
  | 'pk-identity'
  | 'within-study'
  | 'time-axis'
  | 'swap'
  | 'reference-range'
  /** A dosing amount against the amount its own label names (checks/dose-label.ts). */
  | 'dose-label'
  /** A physiological bound: a volume below the plasma volume, a concentration above dose / plasma volume (checks/physiology.ts). */
  | 'physiology'
  /** A group's mean against its own individuals' values (checks/group-members.ts). */
  | 'group-members'
  /** Two concentration timecourses of one match key against each other (checks/curve-pairs.ts). */
  | 'curve-pair'
  /** A curve's pre-dose level against the study's other arms' (checks/baselines.ts). */
  | 'baseline'
  /** A dosing against the study's other dosings of its substance (checks/dose-siblings.ts). */
  | 'dose-siblings'
  /** One point of a concentration series off by a slip factor from its neighbours (checks/series-spike.ts). */
  | 'series-spike'
  /** A value of the body itself outside what any living human has (checks/human-ranges.ts). */
  | 'human-range'
  /** A reported value far off the other values of its subject and key (checks/repeated-values.ts). */
  | 'repeated-values'
  /** An amount excreted beyond its dose (checks/mass-balance.ts). */
  | 'mass-balance'
  /** A reported metabolic ratio against the ratio of its subject's curves at its time (checks/metabolic-ratios.ts). */
  | 'metabolic-ratio'
  /** A subject's weight, height, age, BMI or body surface area: human limits, BMI = weight / height², fellows (checks/body-measures.ts). */
  | 'body-measure'
  /** A check or a preparation step that threw (the message names it). */
  | 'check-failed';

/** The record to fix: a reported output, a timecourse, a dose, or a subject's characteristic (a body measure). */
export type Culprit = 'output' | 'timecourse' | 'dose' | 'subject';

/** The culprit that names a record of each kind (coverage.ts `RecordKind`: a dosing is the dose). */
export const CULPRIT_OF_RECORD = { output: 'output', timecourse: 'timecourse', dosing: 'dose' } as const satisfies Record<string, Culprit>;

export interface Finding {
  /**
   * Stable id (`F-` + 12 hex digits) from the kind, the record ids and the
   * measurement type, never the position or the values: see finding-id.ts.
   * Set by `runQa` (`withFindingIds`).
   */
  id?: string;
  /** A stable code of the check that produced it (e.g. `input/duplicate-times`); part of the id when set. */
  check?: string;
  kind: FindingKind;
  severity: Severity;
  study_sid: string | null;
  study_name: string | null;
  subset_pk: number | null;
  output_pk: number | null;
  measurement_type: string | null;
  /** `group:<pk>` or `individual:<pk>`, when the finding concerns a subject. */
  subject: string | null;
  reported: number | null;
  reported_unit: string | null;
  recomputed: number | null;
  recomputed_unit: string | null;
  /** reported / recomputed, in the same unit. */
  ratio: number | null;
  suspected_cause: string | null;
  /**
   * The record most likely holding the slip, where the checks can tell: the reported `output`
   * (output_pk), the `timecourse` (subset_pk), the `dose` (intervention_pk) or the `subject`'s characteristic
   * (subject and measurement_type, `details.characteristica`: a body weight); null when undecided.
   */
  culprit?: Culprit | null;
  /** The dosing intervention concerned (a dose slip, a dose the comparison used). */
  intervention_pk?: number | null;
  message: string;
  /** Anything else a check wants to keep (both records, the expected value, ...); JSON only. */
  details?: Record<string, unknown>;
}

export const FINDING_COLUMNS = [
  'id',
  'kind',
  'severity',
  'study_sid',
  'study_name',
  'subset_pk',
  'output_pk',
  'measurement_type',
  'subject',
  'reported',
  'reported_unit',
  'recomputed',
  'recomputed_unit',
  'ratio',
  'suspected_cause',
  'culprit',
  'intervention_pk',
  'message',
] as const satisfies readonly (keyof Finding)[];

/** A finding with every column null except those given. */
export function finding(fields: Pick<Finding, 'kind' | 'severity' | 'message'> & Partial<Finding>): Finding {
  return {
    study_sid: null,
    study_name: null,
    subset_pk: null,
    output_pk: null,
    measurement_type: null,
    subject: null,
    reported: null,
    reported_unit: null,
    recomputed: null,
    recomputed_unit: null,
    ratio: null,
    suspected_cause: null,
    ...fields,
  };
}

/**
 * The dosing a finding's slip may sit in: its intervention, or `details.dose_pk` where naming it as the intervention
 * would change the finding's id (finding-id.ts): a calculated volume's dose, a CL's or V's recomputation's dose.
 */
export function doseOf(f: Pick<Finding, 'intervention_pk' | 'details'>): number | null {
  if (f.intervention_pk != null) return f.intervention_pk;
  const pk = f.details?.dose_pk;
  return typeof pk === 'number' ? pk : null;
}

/**
 * Whether a finding blames the dose through a value per dose (`details.per_dose`): its ratio and factors are the
 * value's, and the dose is off by their inverse (an AUC per dose ×1/10 its siblings' under a dose ×10).
 */
export function blamesDoseThroughValue(f: Pick<Finding, 'culprit' | 'details'>): boolean {
  return f.culprit === 'dose' && f.details?.per_dose === true;
}
