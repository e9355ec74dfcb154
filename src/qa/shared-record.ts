/**
 * Open majors that share one record (corroborate.ts runs this after the majors that blame a record outright). Each
 * open major names the records its slip may sit in, each off by a factor: a reported value against its own curve
 * (the value off by r, the curve by 1/r — by r for a CL or V, whose recomputation divides the dose, which may be off
 * by 1/r), a pair of arms (one arm off by r, or the other by 1/r), a value above what its dose can give or a volume
 * below the plasma volume (physiology: the value, or a calculated one's curve, or the dose, off by at least the
 * bound's factor), two curves of one profile (curve-pair: either), a value that cannot be (plausibility: the
 * value, or one of the two values an inequality holds), a PK identity that cannot tell its odd one out (any of its values, or the dose),
 * a value per dose out of the other studies' range (the value, or its dose by the inverse factor). Where one record off by
 * one factor (within ×CORROBORATION_FACTOR) explains open majors of two or more kinds, no other record explains
 * two, and no major settled already blames another of a finding's records by the slip it would see there (then that
 * record explains it as well), one slip in it explains them all while a slip in any other explains only one: that record is the one to fix
 * (a curve ×1000 that its reported Cmax and its sibling arm both put apart). Majors of one kind do not count twice: a Cmax and an
 * AUC off one curve alike may share the table's concentration unit (curve-cause.ts). A major settled already counts
 * on the record it blames where its own comparison names that record (a reported CL settled ×10 off its curve
 * explains an identity that cannot tell that CL from its dose); one whose evidence lies elsewhere (the other
 * studies' doses, a time axis) only blocks.
 *
 * And a reported AUC above its Cmax × interval (plausibility: the AUC or the Cmax) with a reported-vs-recomputed
 * major on one of those two outputs (open, or settled on the value already) whose ratio, undone on that output,
 * brings the AUC within Cmax × interval — and not below the plausibility check's lowest AUC / (Cmax · t): one slip
 * in that output explains both, one in the curve or the other value only one.
 */
import { AUC_CMAX_LOWEST } from './checks/plausibility.js';
import { LEVEL_EXPONENT } from './curve-cause.js';
import { blamesDoseThroughValue, CULPRIT_OF_RECORD, doseOf, type Culprit, type Finding } from './finding.js';
import type { ReportedParameter } from './tolerances.js';
import { pushTo } from '../data/records.js';

/**
 * How far apart the two factors may lie: a group's reported Cmax against its mean curve carries up to ×1.5 of its
 * own (tolerances.ts `ordinaryExcess`), and a reference finding's ratio is against the other studies' median.
 */
export const CORROBORATION_FACTOR = 2;

/** A settlement: the record to fix, why, and the kinds of finding that told it. */
export interface SharedSettlement {
  culprit: Culprit;
  text: string;
  by: string[];
}

const fmt = (x: number) => String(+x.toPrecision(3));

/** The record a culprit names, in words. */
export const RECORD_WORDS: Record<Culprit, string> = { output: 'the reported value', timecourse: 'the curve', dose: 'the dose', subject: "the subject's body measure" };

/**
 * One record (`output:12`, `timecourse:5`, `dosing:7`) off by `factor` (curated ÷ true), or by at least that much
 * (`atLeast`: a bound broken by ×q, which a slip of ×q or more, that way, explains).
 */
interface Hypothesis {
  record: string;
  factor: number;
  atLeast?: boolean;
}

/** The records an open major's slip may sit in, each with the factor it would be off by; none for other kinds. */
function hypotheses(f: Finding): Hypothesis[] {
  const r = f.ratio;
  if (r === null || !(r > 0) || !Number.isFinite(r) || r === 1) return [];
  if (f.kind === 'reported-vs-recomputed') {
    const inverse = LEVEL_EXPONENT[f.measurement_type as ReportedParameter] === -1;
    const dose = inverse ? doseOf(f) : null;
    return [
      ...(f.output_pk !== null ? [{ record: `output:${f.output_pk}`, factor: r }] : []),
      ...(f.subset_pk !== null ? [{ record: `timecourse:${f.subset_pk}`, factor: inverse ? r : 1 / r }] : []),
      ...(dose !== null ? [{ record: `dosing:${dose}`, factor: 1 / r }] : []),
    ];
  }
  if (f.kind === 'physiology') {
    // A value above what its dose can give (q > 1), or a volume below the plasma volume (q < 1): the value's record
    // (a calculated one's curve, whose level moves a volume the other way) or the dose, by at least q.
    const value = f.details?.value_record;
    const dose = doseOf(f);
    const volume = f.details?.rule === 'volume-below-plasma';
    const onCurve = typeof value === 'string' && value.startsWith('timecourse:');
    return [
      ...(typeof value === 'string' ? [{ record: value, factor: volume && onCurve ? 1 / r : r, atLeast: true }] : []),
      ...(dose !== null ? [{ record: `dosing:${dose}`, factor: volume ? r : 1 / r, atLeast: true }] : []),
    ];
  }
  if (f.kind === 'plausibility') return plausibilityHypotheses(f, r);
  if (f.kind === 'reference-range') return referenceHypotheses(f);
  if (f.kind === 'pk-identity') return identityHypotheses(f, r);
  const own = f.details?.record;
  const pair = f.details?.pair_record;
  if ((f.kind === 'within-study' || f.kind === 'curve-pair') && typeof own === 'string' && typeof pair === 'string') {
    return [
      { record: own, factor: r },
      { record: pair, factor: 1 / r },
    ];
  }
  return [];
}

/** The first factor a finding names (`details.cause_factors`), or null. */
function firstFactor(f: Finding): number | null {
  const factors = f.details?.cause_factors;
  const x = Array.isArray(factors) ? factors[0] : undefined;
  return typeof x === 'number' && x > 0 ? x : null;
}

/**
 * A plausibility major: a value that cannot be, off by the factor it names (a tmax 1 min after an oral dose ×1/60);
 * an AUC∞ below AUClast (AUC∞ low or AUClast high, by at least the ratio).
 */
function plausibilityHypotheses(f: Finding, r: number): Hypothesis[] {
  if (f.output_pk === null) return [];
  const rule = f.details?.rule;
  // An AUC above Cmax × interval has its own rule (`aucAboveCmax`: a slip that overshoots the window is none).
  if (rule === 'auc-above-cmax-times-interval') return [];
  const other = rule === 'auc-inf-below-auc-end' ? f.details?.auc_end_output_pk : undefined;
  if (typeof other === 'number') {
    return [
      { record: `output:${f.output_pk}`, factor: r, atLeast: true },
      { record: `output:${other}`, factor: 1 / r, atLeast: true },
    ];
  }
  const factor = firstFactor(f);
  return factor === null ? [] : [{ record: `output:${f.output_pk}`, factor }];
}

/**
 * A value per dose out of the other studies' range by the factor it names (`details.per_dose`), open between the value
 * and its dose: the value's record (its output, or the curve its Cmax or AUC per dose stems from) off by that factor,
 * or the dose by its inverse.
 */
function referenceHypotheses(f: Finding): Hypothesis[] {
  const factor = firstFactor(f);
  const dose = doseOf(f);
  if (factor === null || f.details?.per_dose !== true || dose === null) return [];
  const value = f.output_pk !== null ? `output:${f.output_pk}` : f.subset_pk !== null ? `timecourse:${f.subset_pk}` : null;
  return [...(value !== null ? [{ record: value, factor }] : []), { record: `dosing:${dose}`, factor: 1 / factor }];
}

/**
 * A PK identity major that cannot tell its odd one out: its value (`output_pk`) or one of its `details.candidates`
 * (another output, or the dose), each off by the factor that would reconcile the identity.
 */
function identityHypotheses(f: Finding, r: number): Hypothesis[] {
  const list: Hypothesis[] = f.output_pk !== null ? [{ record: `output:${f.output_pk}`, factor: r }] : [];
  const candidates = f.details?.candidates;
  if (!Array.isArray(candidates)) return list;
  for (const c of candidates as { output_pk?: unknown; intervention_pk?: unknown; factor?: unknown }[]) {
    if (typeof c.factor !== 'number' || !(c.factor > 0)) continue;
    if (typeof c.output_pk === 'number') list.push({ record: `output:${c.output_pk}`, factor: c.factor });
    else if (typeof c.intervention_pk === 'number') list.push({ record: `dosing:${c.intervention_pk}`, factor: c.factor });
  }
  return list;
}

/** Whether the finding's own fields point at the record (its culprit can only name one of those). */
function pointsAt(f: Finding, record: string): boolean {
  const [kind, pkText] = [record.slice(0, record.lastIndexOf(':')), Number(record.slice(record.lastIndexOf(':') + 1))];
  if (kind === 'output') return f.output_pk === pkText;
  if (kind === 'timecourse') return f.subset_pk === pkText;
  return kind === 'dosing' && doseOf(f) === pkText;
}

/** Whether one slip explains both: the same way, of one size (within ×CORROBORATION_FACTOR), or at least a bound's. */
function sameSlip(a: Hypothesis, b: Hypothesis): boolean {
  const la = Math.log(a.factor);
  const lb = Math.log(b.factor);
  if (Math.sign(la) !== Math.sign(lb)) return false;
  // Two bounds say only which way: no size to share.
  if (a.atLeast && b.atLeast) return false;
  if (a.atLeast) return Math.abs(lb) >= Math.abs(la);
  if (b.atLeast) return Math.abs(la) >= Math.abs(lb);
  return Math.abs(la - lb) <= Math.log(CORROBORATION_FACTOR);
}

/** The record kind a hypothesis names (`output`, `timecourse`, `dosing`). */
const recordKind = (record: string) => record.slice(0, record.lastIndexOf(':')) as keyof typeof CULPRIT_OF_RECORD;

/**
 * The record a settled major blames, as a hypothesis: by its own hypotheses (`own`) where they name it (`fromOwn`),
 * else by its first factor.
 */
function blamedRecord(f: Finding, own: readonly Hypothesis[]): { h: Hypothesis; fromOwn: boolean } | null {
  if (!f.culprit || f.culprit === 'subject') return null;
  const named = own.find((h) => CULPRIT_OF_RECORD[recordKind(h.record)] === f.culprit);
  if (named) return { h: named, fromOwn: true };
  const factor = firstFactor(f);
  const pk = f.culprit === 'output' ? f.output_pk : f.culprit === 'timecourse' ? f.subset_pk : doseOf(f);
  if (factor === null || pk === null) return null;
  const record = `${f.culprit === 'dose' ? 'dosing' : f.culprit}:${pk}`;
  // The factor the way the finding's ratio goes (a cause list may hold a factor's inverse); the inverse of a value
  // per dose's for the dose it blames through that value.
  const up = f.ratio !== null && f.ratio > 0 ? f.ratio >= 1 : factor >= 1;
  const valued = up === factor >= 1 ? factor : 1 / factor;
  return { h: { record, factor: blamesDoseThroughValue(f) ? 1 / valued : valued }, fromOwn: false };
}

/**
 * Whether a major settled already blames another of the finding's records by the slip the finding would see there:
 * then two records explain it (a calculated volume below the plasma volume from a curve that its reported values put
 * ×14 too high, as well as from a dose), and it is not settled on either.
 */
function otherRecordBlamed(own: readonly Hypothesis[], settledOn: string, blamed: ReadonlyMap<string, Hypothesis[]>): boolean {
  return own.some((h) => h.record !== settledOn && (blamed.get(h.record) ?? []).some((b) => sameSlip(h, b)));
}

/** Open majors settled on the one record a single slip would explain them by (see the header). */
function oneSlipForSeveral(findings: readonly Finding[]): Map<Finding, SharedSettlement> {
  const blamed = new Map<string, Hypothesis[]>();
  const byRecord = new Map<string, { f: Finding; h: Hypothesis }[]>();
  // The open majors' hypotheses, each read once.
  const openHypotheses = new Map<Finding, Hypothesis[]>();
  for (const f of findings) {
    if (f.severity !== 'major') continue;
    const own = hypotheses(f);
    if (f.culprit) {
      const b = blamedRecord(f, own);
      if (!b) continue;
      pushTo(blamed, b.h.record, b.h);
      // Evidence for settling too where the finding's own hypotheses name the record it blames (a reported value, its
      // curve or its dose against each other, a bound, an identity): those speak of one record's level as the open do.
      if (b.fromOwn) pushTo(byRecord, b.h.record, { f, h: b.h });
      continue;
    }
    openHypotheses.set(f, own);
    for (const h of own) pushTo(byRecord, h.record, { f, h });
  }
  // Per finding, the records on which a slip of its factor explains majors of two or more kinds.
  const explained = new Map<Finding, { record: string; factor: number; others: Finding[] }[]>();
  for (const [record, list] of byRecord) {
    if (list.length < 2) continue;
    for (const { f, h } of list) {
      if (f.culprit) continue;
      const matching = list.filter((o) => o.f !== f && o.f.kind !== f.kind && sameSlip(o.h, h));
      if (matching.length === 0) continue;
      // The slip's size: an exact factor's (this finding's, or the first other's where this one is a bound).
      const factor = h.atLeast ? (matching.find((o) => !o.h.atLeast)?.h.factor ?? h.factor) : h.factor;
      const others = matching.map((o) => o.f);
      const known = explained.get(f);
      if (known) known.push({ record, factor, others });
      else explained.set(f, [{ record, factor, others }]);
    }
  }
  const settled = new Map<Finding, SharedSettlement>();
  for (const [f, records] of explained) {
    if (records.length !== 1 || !pointsAt(f, records[0].record) || otherRecordBlamed(openHypotheses.get(f) ?? [], records[0].record, blamed)) continue;
    const { record, factor, others } = records[0];
    const culprit = CULPRIT_OF_RECORD[recordKind(record)];
    const kinds = [...new Set(others.map((o) => o.kind))];
    settled.set(f, {
      culprit,
      text: `${RECORD_WORDS[culprit]} is the record to fix: one slip in it (×${fmt(factor)}) explains this finding and the ${others.every((o) => !o.culprit) ? 'open ' : ''}${kinds.join(' and ')} finding${others.length === 1 ? '' : 's'} on it too, one in any other of their records only one`,
      by: kinds,
    });
  }
  return settled;
}

/** An AUC above its Cmax × interval and the comparison of one of the two with its curve (see the header). */
function aucAboveCmax(findings: readonly Finding[]): Map<Finding, SharedSettlement> {
  // Open, or settled on the value already (then the plausibility finding follows it).
  const comparisons = new Map<number, Finding>();
  for (const f of findings) {
    if (f.kind === 'reported-vs-recomputed' && f.severity === 'major' && (!f.culprit || f.culprit === 'output') && f.output_pk !== null && f.ratio !== null && f.ratio > 0) comparisons.set(f.output_pk, f);
  }
  const settled = new Map<Finding, SharedSettlement>();
  for (const f of findings) {
    if (f.kind !== 'plausibility' || f.severity !== 'major' || f.culprit || f.details?.rule !== 'auc-above-cmax-times-interval') continue;
    const q = f.ratio;
    const cmaxPk = f.details?.cmax_output_pk;
    if (q === null || !(q > 1) || f.output_pk === null || typeof cmaxPk !== 'number') continue;
    // Undone, the slip must bring AUC / (Cmax · t) into the window the plausibility check names factors for: a Cmax
    // ×1/1939 its curve (the curve ×1000) undone would put the AUC at ×0.0012 its Cmax × interval, no fit.
    const fits = (undone: number) => undone > AUC_CMAX_LOWEST && undone <= 1;
    const onAuc = comparisons.get(f.output_pk);
    const onCmax = comparisons.get(cmaxPk);
    const aucFits = onAuc !== undefined && fits(q / (onAuc.ratio as number));
    const cmaxFits = onCmax !== undefined && fits(q * (onCmax.ratio as number));
    if (aucFits === cmaxFits) continue;
    const comparison = (aucFits ? onAuc : onCmax) as Finding;
    const text = `${aucFits ? 'the AUC' : 'the Cmax'} is the record to fix: it is ×${fmt(comparison.ratio as number)} its curve and puts the AUC at ×${fmt(q)} Cmax × interval; one slip in it explains both, one in the curve or in the other value only one`;
    // The plausibility finding is the AUC's (its output_pk): named only when the AUC is the one.
    if (aucFits) settled.set(f, { culprit: 'output', text, by: ['reported-vs-recomputed'] });
    if (!comparison.culprit) settled.set(comparison, { culprit: 'output', text, by: ['plausibility'] });
  }
  return settled;
}

/** The open majors (and plausibility findings following a settled comparison) that share one record, settled on it. */
export function sharedRecords(findings: readonly Finding[]): Map<Finding, SharedSettlement> {
  const settled = aucAboveCmax(findings);
  for (const [f, s] of oneSlipForSeveral(findings)) if (!settled.has(f)) settled.set(f, s);
  return settled;
}
