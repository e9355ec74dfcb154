/**
 * Scoring a QA run on a slipped copy against the run on the original.
 * A finding's identity is (kind, study, output_pk, subset_pk, measurement_type);
 * a major finding of the copy whose identity the original run has no major
 * for is new. A slip is found when its study has a new major, pointed
 * when such a major names one of the slip's records, and named when such a
 * pointing major also names the slip's factor among its causes (`namesFactor`). A pointing major that names
 * the record to fix (`Finding.culprit`) blames it right when that is the slipped record (`blamesRight`), wrong
 * when it is another (the reported value blamed for its slipped curve).
 * New majors in studies the copy did not slip are false alarms.
 * A slip planted on a record the original run already flags major (a real error of the export) can add no new
 * major there: such slips are `preflagged`, and each row also gives the recall over the others (`clean`).
 */
import type { Finding } from '../../src/index.js';
import { ADULT_BODY_WEIGHT_KG } from '../../src/qa/causes.js';
import { FACTOR_TOLERANCE } from '../../src/qa/tolerances.js';
import { SLIP_CLASSES, slipClass, type SlipClass, type SlipClassName, type SlipTarget } from './slip-classes.js';
import type { Slip } from './slips.js';

export function findingIdentity(f: Finding): string {
  return JSON.stringify([f.kind, f.study_sid, f.output_pk, f.subset_pk, f.measurement_type]);
}

/** Major findings of `slipped` whose identity no major finding of `original` has. */
export function newMajors(original: readonly Finding[], slipped: readonly Finding[]): Finding[] {
  const known = new Set(original.filter((f) => f.severity === 'major').map(findingIdentity));
  return slipped.filter((f) => f.severity === 'major' && !known.has(findingIdentity(f)));
}

export interface SlipScore {
  slip: Slip;
  found: boolean;
  pointed: boolean;
  /** A pointing new major names the slip's factor (or its inverse) among its causes. */
  named: boolean;
  /**
   * The pointing new majors by the record they name to fix (`culprit`): the slipped one (the output, curve or dosing
   * the slip changed), another one (the reported value blamed for its slipped curve), or none (undecided).
   */
  blamed: Blames;
  /** Every factor the pointing new majors name. */
  namedFactors: number[];
  /** Kinds of the new majors in the slip's study. */
  kinds: string[];
  /** A record the slip points at already has a major finding in the original run. */
  preflagged: boolean;
}

export interface Blames {
  right: number;
  wrong: number;
  none: number;
}

export interface CopyScore {
  scores: SlipScore[];
  /** New majors in studies the copy did not slip (or in no study). */
  falseAlarms: Finding[];
}

/** Intervention pks a finding names, where a check gives them (the Finding columns have none today). */
function interventionsNamed(f: Finding): number[] {
  const loose = f as unknown as Record<string, unknown>;
  // A calculated volume's dose is named in details (corroborate.ts `doseOf`), its intervention kept for its id.
  const named = [loose.intervention_pk, f.details?.dose_pk, ...(Array.isArray(loose.intervention_pks) ? loose.intervention_pks : [])];
  return named.filter((pk): pk is number => typeof pk === 'number');
}

/** The characteristic a finding names (`details.characteristica`: body-measure), or null. */
function characteristicNamed(f: Finding): number | null {
  const c = f.details?.characteristica as { pk?: unknown } | undefined;
  return typeof c?.pk === 'number' ? c.pk : null;
}

export function pointsAt(f: Finding, slip: Slip): boolean {
  const r = slip.records;
  const characteristic = characteristicNamed(f);
  return (
    (f.output_pk !== null && r.pointOutputs.includes(f.output_pk)) ||
    (f.subset_pk !== null && r.pointSubsets.includes(f.subset_pk)) ||
    interventionsNamed(f).some((pk) => r.interventions.includes(pk)) ||
    (characteristic !== null && r.characteristica.includes(characteristic))
  );
}

/** Two factors are one within the checks' own tolerance for naming one (5 %). */
const SAME_FACTOR = Math.log1p(FACTOR_TOLERANCE);

/**
 * Whether the finding names the slip's factor among its suspected causes (`details.cause_factors`), either way round:
 * a check names the factor a record is off by (a curve ×10), another the one to undo (a dose's exposure ×1/10).
 */
export function namesFactor(f: Finding, slip: Slip): boolean {
  const factors = f.details?.cause_factors;
  if (!Array.isArray(factors)) return false;
  // A per-kg slip is planted as ×1/70 for any subject: a check names the subject's own weight, or any adult's.
  if ((slipClass(slip.slipClass) as SlipClass).perKg) {
    const kinds = f.details?.cause_kinds;
    return (Array.isArray(kinds) && kinds.includes('per-kg')) || factors.some((x) => typeof x === 'number' && x > 0 && Math.abs(Math.log(x)) >= Math.log(ADULT_BODY_WEIGHT_KG[0]) && Math.abs(Math.log(x)) <= Math.log(ADULT_BODY_WEIGHT_KG[1]));
  }
  const target = Math.abs(Math.log(slip.factor));
  return factors.some((x) => typeof x === 'number' && x > 0 && Math.abs(Math.abs(Math.log(x)) - target) <= SAME_FACTOR);
}

/**
 * Whether the finding's culprit (the record it says to fix) is the slip's record: the output of an output slip, the
 * curve of a timecourse or time slip, the dosing of a dose slip. Null when the finding names no culprit.
 */
export function blamesRight(f: Finding, slip: Slip): boolean | null {
  if (!f.culprit) return null;
  const r = slip.records;
  const target = (slipClass(slip.slipClass) as SlipClass).target;
  // A body weight is no output, curve or dose: any of those named is the wrong record, its characteristic the right one.
  if (f.culprit === 'subject') return target === 'weight' && r.characteristica.includes((f.details?.characteristica as { pk?: number } | undefined)?.pk ?? -1);
  if (f.culprit === 'output') return target === 'output' && f.output_pk !== null && r.outputs.includes(f.output_pk);
  if (f.culprit === 'timecourse') return (target === 'timecourse' || target === 'time') && f.subset_pk !== null && r.subsets.includes(f.subset_pk);
  return target === 'dose' && interventionsNamed(f).some((pk) => r.interventions.includes(pk));
}

/** The factors the new majors pointing at a slipped record name (for reading a bench run's misnamed slips). */
export function namedFactors(majors: readonly Finding[], slip: Slip): number[] {
  const factors = new Set<number>();
  for (const f of majors) {
    if (!pointsAt(f, slip) || !Array.isArray(f.details?.cause_factors)) continue;
    for (const x of f.details.cause_factors as unknown[]) if (typeof x === 'number') factors.add(+x.toPrecision(3));
  }
  return [...factors];
}

/** Whether a major finding of the original run points at one of the slip's records already. */
export function preflagged(originalMajors: readonly Finding[], slip: Slip): boolean {
  return originalMajors.some((f) => f.severity === 'major' && f.study_sid === slip.study_sid && pointsAt(f, slip));
}

/**
 * Whether a false alarm lies on a record the original run already flags (any severity, any check): a real error of the
 * export whose finding turned major when another study's slip moved a reference, not a clean record called wrong.
 */
export function onFlaggedRecord(alarm: Finding, original: readonly Finding[]): boolean {
  return original.some(
    (f) => f.study_sid === alarm.study_sid && f.severity !== 'info' &&
      ((alarm.output_pk !== null && f.output_pk === alarm.output_pk) ||
        (alarm.subset_pk !== null && f.subset_pk === alarm.subset_pk) ||
        // A dose's finding names its dosing alone.
        (alarm.output_pk === null && alarm.subset_pk === null && alarm.intervention_pk !== null && f.intervention_pk === alarm.intervention_pk)),
  );
}

/** Scores the slips of one copy given that copy's new majors (and the original run's findings, for `preflagged`). */
export function scoreCopy(slips: readonly Slip[], fresh: readonly Finding[], original: readonly Finding[] = []): CopyScore {
  const originalMajors = original.filter((f) => f.severity === 'major');
  const byStudy = new Map<string, Finding[]>();
  for (const f of fresh) {
    const key = f.study_sid ?? '';
    const list = byStudy.get(key);
    if (list) list.push(f);
    else byStudy.set(key, [f]);
  }
  const slipped = new Set(slips.map((s) => s.study_sid));
  const scores = slips.map((slip) => {
    const majors = byStudy.get(slip.study_sid) ?? [];
    const blames = majors.filter((f) => pointsAt(f, slip)).map((f) => blamesRight(f, slip));
    const blamed = { right: blames.filter((b) => b === true).length, wrong: blames.filter((b) => b === false).length, none: blames.filter((b) => b === null).length };
    return {
      slip, found: majors.length > 0, pointed: majors.some((f) => pointsAt(f, slip)),
      named: majors.some((f) => pointsAt(f, slip) && namesFactor(f, slip)), namedFactors: namedFactors(majors, slip),
      blamed, kinds: [...new Set(majors.map((f) => f.kind))].sort(),
      preflagged: preflagged(originalMajors, slip),
    };
  });
  const falseAlarms = fresh.filter((f) => f.study_sid === null || !slipped.has(f.study_sid));
  return { scores, falseAlarms };
}

export interface RecallRow {
  label: string;
  n: number;
  found: number;
  pointed: number;
  named: number;
  /** The pointing majors of the row's slips by the record they blame (SlipScore.blamed), summed. */
  blamed: Blames;
  /** found / n, null when n = 0. */
  recall: number | null;
  pointedRecall: number | null;
  namedRecall: number | null;
  /** How often each finding kind was among a found slip's new majors. */
  kinds: Map<string, number>;
  /** Slips on records the original run did not flag major, and the recall among them. */
  cleanN: number;
  cleanRecall: number | null;
}

function row(label: string, scores: readonly SlipScore[]): RecallRow {
  const found = scores.filter((s) => s.found).length;
  const pointed = scores.filter((s) => s.pointed).length;
  const named = scores.filter((s) => s.named).length;
  const blamed = { right: 0, wrong: 0, none: 0 };
  for (const s of scores) {
    blamed.right += s.blamed.right;
    blamed.wrong += s.blamed.wrong;
    blamed.none += s.blamed.none;
  }
  const kinds = new Map<string, number>();
  for (const s of scores) for (const k of s.kinds) kinds.set(k, (kinds.get(k) ?? 0) + 1);
  const share = (k: number) => (scores.length === 0 ? null : k / scores.length);
  const clean = scores.filter((s) => !s.preflagged);
  const cleanRecall = clean.length === 0 ? null : clean.filter((s) => s.found).length / clean.length;
  return { label, n: scores.length, found, pointed, named, blamed, recall: share(found), pointedRecall: share(pointed), namedRecall: share(named), kinds, cleanN: clean.length, cleanRecall };
}

const TARGET_LABELS: Record<SlipTarget, string> = {
  output: 'all reported-output slips', timecourse: 'all timecourse slips', time: 'all time slips', dose: 'all dose slips', weight: 'all body-weight slips',
};

/** One row per class (in SLIP_CLASSES order; an opt-in class only when planted), then one per target kind and one overall. */
export function recallTable(scores: readonly SlipScore[]): RecallRow[] {
  const of = (name: SlipClassName) => scores.filter((s) => s.slip.slipClass === name);
  const shown = SLIP_CLASSES.filter((c: SlipClass) => !c.optIn || of(c.name as SlipClassName).length > 0);
  const rows = shown.map((c) => row(c.name, of(c.name as SlipClassName)));
  for (const [target, label] of Object.entries(TARGET_LABELS)) {
    const names = new Set<string>(shown.filter((c) => c.target === target).map((c) => c.name));
    if (names.size === 0) continue;
    rows.push(row(label, scores.filter((s) => names.has(s.slip.slipClass))));
  }
  rows.push(row('overall', scores));
  return rows;
}
