/**
 * Which record to fix, read across the checks. A reported-vs-recomputed major
 * sets a reported value against its own curve, and its ratio is the same
 * whichever of the two slipped: a Cmax ×1/10 its curve is a Cmax typed a
 * decade low or a curve a decade high. The other checks compare each of the
 * two with other records — the reported value with its own PK identities, its
 * sibling arms and the reference of other studies; the curve with its group's
 * other members, its sibling arms and the reference — and say which record
 * they find off (`Finding.culprit`). Where a major of theirs finds exactly one
 * of the two off, by the same factor (within ×CORROBORATION_FACTOR) and the
 * way round that explains the ratio (a reported value ×r its curve: the value
 * off by r, or the curve off by 1/r; for a CL or V, whose recomputation divides
 * the dose, the curve off by r or the dose by 1/r, a third record), that record
 * is the one to fix and the finding says so and by which checks. Where several
 * are found off, or none, the finding stays undecided.
 *
 * Other undecided majors name the records that may hold their slip: a value
 * per dose or a concentration above what its dose can give is off in itself
 * (its output, or the curve it stems from) or in its dose. Where other majors
 * blame exactly one of those records (a dose's own reference, a dose label,
 * the curve's siblings) by a factor of the size the finding names (within
 * ×CORROBORATION_FACTOR; which way round depends on the check), that record
 * is the one to fix.
 *
 * Last, the majors still open that share one record are settled on it
 * (shared-record.ts: one slip in it explains them all).
 */
import { isTimeFactor } from './causes.js';
import { EITHER_SIDE, LEVEL_EXPONENT } from './curve-cause.js';
import { blamesDoseThroughValue, doseOf, type Culprit, type Finding } from './finding.js';
import { CORROBORATION_FACTOR, RECORD_WORDS, sharedRecords } from './shared-record.js';
import type { ReportedParameter } from './tolerances.js';
import { pushTo } from '../data/records.js';

export { CORROBORATION_FACTOR };

/** Parameters a curve's time axis does not move: its level alone (Cmax) or both its level and its time (V = CL/λz). */
const LEVEL_ONLY: ReadonlySet<string> = new Set(['cmax', 'vd', 'vd_ss']);

/** Whether a finding names only time factors (×60, ×24, ×1440 or their inverse): a slip of a time axis. */
function timeSlip(f: Finding): boolean {
  const factors = causeFactors(f);
  return factors.length > 0 && factors.every(isTimeFactor);
}

/** The kinds whose undecided majors are settled here: a reported value against its own curve. */
const SETTLED: ReadonlySet<Finding['kind']> = new Set(['reported-vs-recomputed']);
/** Kinds whose open culprit is meant: a swap names both records, an input problem and a stored calculated output no slip. */
const OPEN_BY_DESIGN: ReadonlySet<Finding['kind']> = new Set(['swap', 'input', 'calculated']);

const fmt = (x: number) => String(+x.toPrecision(3));

/** The factors a finding names (`details.cause_factors`), positive numbers only. */
function causeFactors(f: Finding): number[] {
  const factors = f.details?.cause_factors;
  return Array.isArray(factors) ? factors.filter((x): x is number => typeof x === 'number' && x > 0) : [];
}

/**
 * Whether `evidence` finds its record off by `factor` (its ratio on the side of `factor`, and a cause of the same
 * size within CORROBORATION_FACTOR): the same slip seen from another comparison.
 */
export function findsOffBy(evidence: Finding, factor: number): boolean {
  const lnFactor = Math.log(factor);
  const direction = evidence.ratio !== null && evidence.ratio > 0 ? Math.sign(Math.log(evidence.ratio)) : null;
  return causeFactors(evidence).some((x) => {
    const ln = Math.log(x);
    const sameWay = direction !== null ? direction === Math.sign(lnFactor) : Math.sign(ln) === Math.sign(lnFactor);
    return sameWay && Math.abs(Math.abs(ln) - Math.abs(lnFactor)) <= Math.log(CORROBORATION_FACTOR);
  });
}

/** The majors that blame a record, by output pk, subset pk and dosing pk. */
interface Blames {
  outputs: Map<number, Finding[]>;
  timecourses: Map<number, Finding[]>;
  doses: Map<number, Finding[]>;
}

/**
 * The majors that name a record to fix, as the checks wrote them (a reported-vs-recomputed major that its check
 * settled already, by its dose or by the other studies, counts; one settled here does not).
 */
function blamesByRecord(findings: readonly Finding[]): Blames {
  const outputs = new Map<number, Finding[]>();
  const timecourses = new Map<number, Finding[]>();
  const doses = new Map<number, Finding[]>();
  for (const f of findings) {
    if (f.severity !== 'major') continue;
    const dose = f.culprit === 'dose' ? doseOf(f) : null;
    if (f.culprit === 'output' && f.output_pk !== null) pushTo(outputs, f.output_pk, f);
    else if (f.culprit === 'timecourse' && f.subset_pk !== null) pushTo(timecourses, f.subset_pk, f);
    else if (dose !== null) pushTo(doses, dose, f);
  }
  return { outputs, timecourses, doses };
}

/** Whether two findings name factors of one size (within ×CORROBORATION_FACTOR, either way round). */
function sameSizedFactor(a: Finding, b: Finding): boolean {
  const bs = causeFactors(b).map((x) => Math.abs(Math.log(x)));
  return causeFactors(a).some((x) => bs.some((y) => Math.abs(Math.abs(Math.log(x)) - y) <= Math.log(CORROBORATION_FACTOR)));
}

/**
 * An undecided major that names the records its slip may sit in (its output, its curve, its dose) settled by the
 * other majors that blame exactly one of them by a factor of the same size; null when none or several are blamed.
 */
function settleOpen(f: Finding, blames: Blames): { culprit: Culprit; evidence: Finding[] } | null {
  const others = (list: readonly Finding[] | undefined) => (list ?? []).filter((e) => e !== f && sameSizedFactor(f, e));
  const candidates: [Culprit, Finding[]][] = [
    ['output', f.output_pk === null ? [] : others(blames.outputs.get(f.output_pk))],
    ['timecourse', f.subset_pk === null ? [] : others(blames.timecourses.get(f.subset_pk))],
    ['dose', others(blames.doses.get(doseOf(f) ?? NaN))],
  ];
  const blamed = candidates.filter(([, evidence]) => evidence.length > 0);
  return blamed.length === 1 ? { culprit: blamed[0][0], evidence: blamed[0][1] } : null;
}

/** The kinds (and their count) of the findings, for a sentence: `group-members`, `pk-identity and reference-range`. */
function kindsOf(findings: readonly Finding[]): string {
  const kinds = [...new Set(findings.map((f) => f.kind))];
  return kinds.length === 1 ? kinds[0] : `${kinds.slice(0, -1).join(', ')} and ${kinds[kinds.length - 1]}`;
}

/**
 * The finding with its record to fix named: the culprit, the reason appended to its cause (a curve-level cause's open
 * side, EITHER_SIDE, replaced), and the kinds of finding that told it (`culprit_by`).
 */
export function settle(f: Finding, culprit: Culprit, reason: string, by: readonly string[]): Finding {
  const cause = f.suspected_cause?.endsWith(EITHER_SIDE) ? f.suspected_cause.slice(0, -EITHER_SIDE.length) : f.suspected_cause;
  return { ...f, culprit, suspected_cause: cause ? `${cause} — ${reason}` : reason, details: { ...f.details, culprit_by: [...new Set(by)] } };
}

/**
 * The findings with each undecided major settled where the other checks blame exactly one of its records by its
 * factor (see the header), or where two open majors share one record (`sharedRecords`); the others unchanged, in order.
 */
export function corroborate(findings: readonly Finding[]): Finding[] {
  const ownDose = doseBlames(findings);
  const redone = ownDose.size === 0 ? findings : findings.map((f) => byOwnDose(f, ownDose));
  const blames = blamesByRecord(redone);
  const settled = redone.map((f) => settleByOthers(f, blames));
  // Then the majors still open that share one record.
  const shared = sharedRecords(settled);
  if (shared.size === 0) return settled;
  return settled.map((f) => {
    const s = shared.get(f);
    return s === undefined ? f : settle(f, s.culprit, s.text, s.by);
  });
}

/**
 * Checks that judge a dose itself, not through the values that divide it: its label (`dose-label`), the other
 * studies' doses (`reference-range` of a dosing), its study's other doses (`dose-siblings`).
 */
const DOSE_OWN_CHECKS: ReadonlySet<string> = new Set(['dose-label', 'reference-range/dosing', 'dose-siblings']);

/** Whether a finding is one of DOSE_OWN_CHECKS (a kind, or a kind's check on a dosing). */
const ofDoseItself = (f: Finding) => DOSE_OWN_CHECKS.has(f.kind) || DOSE_OWN_CHECKS.has(f.check ?? '');

/** The majors of DOSE_OWN_CHECKS that blame a dose, by dosing pk. */
function doseBlames(findings: readonly Finding[]): Map<number, Finding[]> {
  const byDose = new Map<number, Finding[]>();
  for (const f of findings) if (f.severity === 'major' && f.culprit === 'dose' && f.intervention_pk != null && ofDoseItself(f)) pushTo(byDose, f.intervention_pk, f);
  return byDose;
}

/**
 * A value per dose (`details.per_dose`) that its check blamed on itself, while a check of its dose's own finds the
 * dose off by the inverse factor (within ×CORROBORATION_FACTOR): the dose's slip explains the value, and a second
 * slip of the value is the less likely story. A caffeine Cmax per dose ×1/1000 the other studies', under a dose
 * whose label says 162 mg and whose value says 162 g, is the dose's. Likewise a concentration or AUC above what its
 * dose can give (physiology) under a dose found too small by a factor that, undone, puts it back within the bound
 * (a paracetamol curve ×4.6 above the bound of a 1000 mg dose curated as 14.3 mg). Other findings unchanged.
 */
function byOwnDose(f: Finding, ownDose: ReadonlyMap<number, Finding[]>): Finding {
  if (f.severity !== 'major' || (f.culprit !== 'output' && f.culprit !== 'timecourse')) return f;
  const perDose = f.details?.per_dose === true;
  const ceiling = f.kind === 'physiology' && ABOVE_DOSE_CEILING.has(f.details?.rule as string);
  if (!perDose && !ceiling) return f;
  const dosePk = doseOf(f);
  if (dosePk === null || f.ratio === null || !(f.ratio > 0)) return f;
  const ratio = f.ratio;
  const evidence = (ownDose.get(dosePk) ?? []).filter((e) =>
    perDose
      ? e.ratio !== null && e.ratio > 0 && findsOffBy(f, 1 / e.ratio) && findsOffBy(e, 1 / ratio)
      : causeFactors(e).some((d) => d < 1 && ratio * d <= 1),
  );
  if (evidence.length === 0) return f;
  const what = perDose ? 'which explains this value per dose' : 'which puts this value back within what the dose can give';
  const text = `the dose is the record to fix: ${kindsOf(evidence)} find${evidence.length === 1 ? 's' : ''} it off by ${perDose ? 'the inverse factor' : 'a factor'}, ${what}`;
  return settle(f, 'dose', text, evidence.map((e) => e.kind));
}

/**
 * Physiology rules that hold a value below what its dose can give (dose / plasma volume, and with the half-life for an
 * AUC): a dose curated too small (by d < 1) lowers the bound by d, and explains a value above it by up to 1/d.
 */
const ABOVE_DOSE_CEILING: ReadonlySet<string> = new Set(['concentration-above-dose-per-plasma', 'auc-above-dose-per-plasma-clearance']);


/** A finding settled by the majors that blame one of its records (see the header), or the finding unchanged. */
function settleByOthers(f: Finding, blames: Blames): Finding {
  if (f.severity !== 'major' || f.culprit) return f;
  if (!SETTLED.has(f.kind)) {
    // A pair of arms names both records (within-study `pair_record`): either may hold the slip, and says so.
    if (OPEN_BY_DESIGN.has(f.kind) || f.details?.pair_record !== undefined) return f;
    const settled = settleOpen(f, blames);
    if (!settled) return f;
    const text = `${RECORD_WORDS[settled.culprit]} is the record to fix: ${kindsOf(settled.evidence)} find${settled.evidence.length === 1 ? 's' : ''} it off by a factor of that size`;
    return settle(f, settled.culprit, text, settled.evidence.map((e) => e.kind));
  }
  if (f.ratio === null || !(f.ratio > 0) || f.ratio === 1) return f;
  const r = f.ratio;
  // A CL or V recomputed from the curve moves against its level (CL = dose/AUC): a curve high by c gives r = c, a
  // dose high by d gives r = 1/d. A Cmax, an AUC or a t½ moves with the curve (or its time axis) and not with the dose.
  const inverse = LEVEL_EXPONENT[f.measurement_type as ReportedParameter] === -1;
  const dosePk = inverse ? doseOf(f) : null;
  const onOutput = f.output_pk === null ? [] : (blames.outputs.get(f.output_pk) ?? []).filter((e) => findsOffBy(e, r));
  // A curve's time axis (minutes as hours) moves its AUCs, CL and t½, not its Cmax or V (= CL/λz): no witness for those.
  const levelOnly = LEVEL_ONLY.has(f.measurement_type ?? '');
  const onCurve = f.subset_pk === null ? [] : (blames.timecourses.get(f.subset_pk) ?? []).filter((e) => findsOffBy(e, inverse ? r : 1 / r) && !(levelOnly && timeSlip(e)));
  // The dose high by 1/r; a finding that blames it through a value per dose sees that value low by r.
  const onDose = dosePk === null ? [] : (blames.doses.get(dosePk) ?? []).filter((e) => findsOffBy(e, blamesDoseThroughValue(e) ? r : 1 / r));
  const found = ([['output', onOutput], ['timecourse', onCurve], ['dose', onDose]] as const).filter(([, evidence]) => evidence.length > 0);
  if (found.length !== 1) return f;
  const [culprit, evidence] = found[0];
  const curveBy = inverse ? r : 1 / r;
  const which =
    culprit === 'output' ? `the reported value (×${fmt(r)} its curve)` : culprit === 'timecourse' ? `the curve (×${fmt(curveBy)} ${inverse ? 'the level the reported value implies' : 'the reported value'})` : `the dose (×${fmt(1 / r)} the dose the reported value implies)`;
  const text = `${which} is the record to fix: ${kindsOf(evidence)} find${evidence.length === 1 ? 's' : ''} it off by the same factor`;
  return settle(f, culprit, text, evidence.map((e) => e.kind));
}
