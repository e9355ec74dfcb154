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
 * off by r, or the curve off by 1/r), that record is the one to fix and the
 * finding says so and by which checks. Where both are found off, or neither,
 * the finding stays undecided.
 *
 * Other undecided majors name the records that may hold their slip: a value
 * per dose or a concentration above what its dose can give is off in itself
 * (its output, or the curve it stems from) or in its dose. Where other majors
 * blame exactly one of those records (a dose's own reference, a dose label,
 * the curve's siblings) by a factor of the size the finding names (within
 * ×CORROBORATION_FACTOR; which way round depends on the check), that record
 * is the one to fix.
 */
import { EITHER_SIDE, LEVEL_EXPONENT } from './curve-cause.js';
import type { ReportedParameter } from './tolerances.js';
import { AUC_CMAX_LOWEST } from './checks/plausibility.js';
import type { Culprit, Finding } from './finding.js';

/**
 * How far apart the two factors may lie: a group's reported Cmax against its mean curve carries up to ×1.5 of its
 * own (tolerances.ts `ordinaryExcess`), and a reference finding's ratio is against the other studies' median.
 */
export const CORROBORATION_FACTOR = 2;

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
  const add = (map: Map<number, Finding[]>, pk: number, f: Finding) => {
    const list = map.get(pk);
    if (list) list.push(f);
    else map.set(pk, [f]);
  };
  for (const f of findings) {
    if (f.severity !== 'major') continue;
    if (f.culprit === 'output' && f.output_pk !== null) add(outputs, f.output_pk, f);
    else if (f.culprit === 'timecourse' && f.subset_pk !== null) add(timecourses, f.subset_pk, f);
    else if (f.culprit === 'dose' && f.intervention_pk != null) add(doses, f.intervention_pk, f);
  }
  return { outputs, timecourses, doses };
}

/**
 * The dosing a finding's slip may sit in: its intervention, or (a calculated volume, physiology.ts) `details.dose_pk`,
 * kept out of the intervention so that the finding's id stays (finding-id.ts).
 */
export function doseOf(f: Finding): number | null {
  if (f.intervention_pk != null) return f.intervention_pk;
  const pk = f.details?.dose_pk;
  return typeof pk === 'number' ? pk : null;
}

/** Whether two findings name factors of one size (within ×CORROBORATION_FACTOR, either way round). */
function sameSizedFactor(a: Finding, b: Finding): boolean {
  const bs = causeFactors(b).map((x) => Math.abs(Math.log(x)));
  return causeFactors(a).some((x) => bs.some((y) => Math.abs(Math.abs(Math.log(x)) - y) <= Math.log(CORROBORATION_FACTOR)));
}

const RECORD_WORDS: Record<Culprit, string> = { output: 'the reported value', timecourse: 'the curve', dose: 'the dose' };

/**
 * An undecided major that names the records its slip may sit in (its output, its curve, its dose) settled by the
 * other majors that blame exactly one of them by a factor of the same size; null when none or several are blamed.
 */
function settleOpen(f: Finding, blames: Blames): { culprit: Culprit; evidence: Finding[] } | null {
  const others = (list: readonly Finding[] | undefined) => (list ?? []).filter((e) => e !== f && sameSizedFactor(f, e));
  const candidates: [Culprit, Finding[]][] = [
    ['output', f.output_pk === null ? [] : others(blames.outputs.get(f.output_pk))],
    ['timecourse', f.subset_pk === null ? [] : others(blames.timecourses.get(f.subset_pk))],
    ['dose', doseOf(f) === null ? [] : others(blames.doses.get(doseOf(f) as number))],
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
 * Open majors that share one record, settled on it: a reported AUC above its Cmax × interval (plausibility: the AUC
 * or the Cmax) and a reported-vs-recomputed major on one of those two outputs (the value or its curve; open, or
 * settled on the value already) whose ratio,
 * undone on that output, brings the AUC within Cmax × interval too (and not below the plausibility check's
 * lowest AUC / (Cmax · t)). One slip in that output explains both; a slip in
 * the curve does not touch the two reported values, nor one in the other output the curve's comparison. Returns the
 * findings to settle with their text, by finding.
 */
function sharedRecords(findings: readonly Finding[]): Map<Finding, string> {
  // Open, or settled on the value already (then the plausibility finding follows it).
  const openComparisons = new Map<number, Finding>();
  for (const f of findings) {
    if (f.kind === 'reported-vs-recomputed' && f.severity === 'major' && (!f.culprit || f.culprit === 'output') && f.output_pk !== null && f.ratio !== null && f.ratio > 0) openComparisons.set(f.output_pk, f);
  }
  const settled = new Map<Finding, string>();
  for (const f of findings) {
    if (f.kind !== 'plausibility' || f.severity !== 'major' || f.culprit || f.details?.rule !== 'auc-above-cmax-times-interval') continue;
    const q = f.ratio;
    const cmaxPk = f.details?.cmax_output_pk;
    if (q === null || !(q > 1) || f.output_pk === null || typeof cmaxPk !== 'number') continue;
    // The AUC ×r its curve (undone: q / r), or the Cmax ×r its curve (undone: q · r).
    const onAuc = openComparisons.get(f.output_pk);
    const onCmax = openComparisons.get(cmaxPk);
    // Undone, the slip must bring AUC / (Cmax · t) into the window the plausibility check names factors for: a Cmax
    // ×1/1939 its curve (the curve ×1000) undone would put the AUC at ×0.0012 its Cmax × interval, no fit.
    const fits = (undone: number) => undone > AUC_CMAX_LOWEST && undone <= 1;
    const aucFits = onAuc !== undefined && fits(q / (onAuc.ratio as number));
    const cmaxFits = onCmax !== undefined && fits(q * (onCmax.ratio as number));
    if (aucFits === cmaxFits) continue;
    const comparison = (aucFits ? onAuc : onCmax) as Finding;
    const which = aucFits ? 'the AUC' : 'the Cmax';
    const text = `${which} is the record to fix: it is ×${fmt(comparison.ratio as number)} its curve and puts the AUC at ×${fmt(q)} Cmax × interval; one slip in it explains both, one in the curve or in the other value only one`;
    // The plausibility finding is the AUC's (its output_pk): named only when the AUC is the one.
    if (aucFits) settled.set(f, text);
    if (!comparison.culprit) settled.set(comparison, text);
  }
  return settled;
}

/**
 * The findings with each undecided major settled where the other checks blame exactly one of its records by its
 * factor (see the header), or where two open majors share one record (`sharedRecords`); the others unchanged, in order.
 */
export function corroborate(findings: readonly Finding[]): Finding[] {
  const blames = blamesByRecord(findings);
  const settled = findings.map((f) => settleByOthers(f, blames));
  // Then the majors still open that share one record.
  const shared = sharedRecords(settled);
  if (shared.size === 0) return settled;
  return settled.map((f) => {
    const text = shared.get(f);
    return text === undefined ? f : settle(f, 'output', text, [f.kind === 'plausibility' ? 'reported-vs-recomputed' : 'plausibility']);
  });
}

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
  const onCurve = f.subset_pk === null ? [] : (blames.timecourses.get(f.subset_pk) ?? []).filter((e) => findsOffBy(e, inverse ? r : 1 / r));
  const onDose = dosePk === null ? [] : (blames.doses.get(dosePk) ?? []).filter((e) => findsOffBy(e, 1 / r));
  const found = ([['output', onOutput], ['timecourse', onCurve], ['dose', onDose]] as const).filter(([, evidence]) => evidence.length > 0);
  if (found.length !== 1) return f;
  const [culprit, evidence] = found[0];
  const curveBy = inverse ? r : 1 / r;
  const which =
    culprit === 'output' ? `the reported value (×${fmt(r)} its curve)` : culprit === 'timecourse' ? `the curve (×${fmt(curveBy)} ${inverse ? 'the level the reported value implies' : 'the reported value'})` : `the dose (×${fmt(1 / r)} the dose the reported value implies)`;
  const text = `${which} is the record to fix: ${kindsOf(evidence)} find${evidence.length === 1 ? 's' : ''} it off by the same factor`;
  return settle(f, culprit, text, evidence.map((e) => e.kind));
}
