/**
 * The `within-study` check (issue 13, item 3): the records of one study —
 * groups, individuals, arms, periods — for the same substance, tissue, route
 * and other interventions, compared with each other after dose normalisation
 * (study-items.ts, study-pools.ts): reported and stored calculated Cmax, AUC,
 * CL, V, t½, kel, tmax, MRT, reported values of other measurement types by
 * their unit (`other`: one dose, one population, one time point; only a big
 * factor is major), and whole concentration curves (an individual's
 * against its group's mean and its siblings', an arm's against its sibling
 * arms'). It sees studies with at least three arms in a pool, and a record left
 * without one against the one other arm of its strict pool (a pair: only factors
 * of BIG_FACTOR and more — of ALIKE_PAIR_FACTOR for two groups of one population
 * at one dose, then major (`alikePair`) — one finding naming both records and
 * blaming neither unless the other studies name one, as the ratio cannot tell
 * which holds the slip), and still without one against the one other arm of its
 * route without the other interventions (a drug alone and with an inhibitor) for
 * factors of WIDE_PAIR_FACTOR (×300) and more; a single-arm study, or a slip shared
 * by every arm (one dosing for all), is invisible here.
 *
 * A record is off when it lies beyond max(3·s, ln 5) of the centre of the other
 * arms (never a plain ×2–3: between-subject CV is 30–80 %) and a slip factor of
 * causes.ts (×10, ×1000, ×60, ×24, per-kg …) brings it back within
 * max(2·s, ln 1.6); the others within ×1.25 of it are named after it. A value
 * calculated from a curve leads only when the curve moves by the factor too
 * (`curveAgrees`). Which record holds the slip (culprit):
 * - the dose, when the arm's exposure (Cmax, AUC, curve) is off by the factor
 *   after dose normalisation but in line before it, and its dose is that
 *   factor away from its siblings' doses;
 * - else the reported output, or the timecourse (its curve or the values PK-DB
 *   calculated from it; a time factor on those is its time axis: minutes as hours).
 *
 * Severity: biology can move an arm tenfold (an inhibitor is kept apart by the
 * pool, but a cirrhosis group is not), never by ×60 or ×1000 in one parameter
 * alone. So a factor of 30 or more is major unless another record of the same
 * arm moves the same way (then it is the arm, not a slip) — and so is a PK parameter ×30 or more its siblings' at
 * their dose whatever factor it names (a t½ ×31 theirs names ×24); ×10, ×16.7 and ×24
 * are major only when another record of the arm that biology would move along
 * with it is in line (an AUC ×10 with the same arm's CL or t½ in line cannot be
 * physiology), when the same subject lies at its own level in two other
 * periods of the study and this record alone is the factor off it, or its
 * other record of the same measure in this arm lies in line (subject-periods.ts),
 * when the dose is the culprit, when the arm's siblings are
 * of its population and agree (ALIKE_FACTOR), or when its level is off but its
 * half-life in line among subjects of one population (`eliminationInLine`);
 * otherwise minor. A record whose
 * own value the other studies of its substance place in range, and that undoing
 * the factor would throw out of it (reference-ranges.ts `referenceRefutes`), is
 * minor: the arms it was set against hold the slip (a group's total clearance
 * beside its individuals' curated renal clearances), and their own values reach
 * the reference-range check. So is a record below BIG_FACTOR that its own arm's
 * PK identities predict (`identityExplains`: a V ×0.13 beside its CL ×0.54 and
 * kel ×3): the arm differs, not the record alone. So is one individual's exposure to a metabolite below its
 * fellows' by up to ×1/150 with no other exposure of it in line (`poorMetaboliser`): a genotype or
 * phenotype nobody curated moves them all ×1/20–1/100. So is a single concentration within ABSORPTION_HOURS of an
 * oral dose below its fellows' (`lateAbsorber`): one subject's level may still be rising from near zero.
 *
 * A molar ↔ mass factor of ×2–10 (µmol/L read as mg/L: ×3.07 for midazolam) lies within between-arm spread and is never
 * named against the other arms alone; a curve, or a reported Cmax or AUC, of a dosed substance (not a metabolite) is
 * major with it only when its subject lies at one level in two other periods of the study and this record alone is
 * that factor off it, within ×1.25 (`smallMolarFindings`), every deviation taken against other subjects under the same
 * condition (`strictDeviation`).
 */
import type { QaCheck } from '../check.js';
import { isTimeFactor, molarMassSlipsOf, SMALL_MOLAR_FACTOR } from '../causes.js';
import type { QaContext } from '../context.js';
import { finding, type Culprit, type Finding, type Severity } from '../finding.js';
import { nearestSlipFactor, type SlipFactorMatch } from '../slip-factor.js';
import { referenceBacks, referenceRefutes, type Exposure } from '../range-run.js';
import { ALIKE_PAIR_FACTOR, armDeviations, BIG_FACTOR } from '../arm-deviations.js';
import { MIN_ARMS } from '../study-pools.js';
import { ALIKE_ARMS, ALIKE_FACTOR, ALIKE_K, describeDeviation, eliminationInLine, hoursAfterOralDoseOf, identityExplains, IN_LINE, intravascularRoute, lateAbsorber, lessThanAnyPhenotype, metaboliteOf, poorMetaboliser, sameDose } from '../arm-biology.js';
import type { Deviation } from '../study-pools.js';
import type { ItemMeasure } from '../study-items.js';
import { DOSE_PROPORTIONAL, type ReportedParameter } from '../tolerances.js';
import { ownPeriodsConvict, periodIndex, repeatsElsewhere, twinConvicts, type PeriodIndex } from '../subject-periods.js';

/** Thresholds on the log scale (see the header). */
export const OUTLIER_K = 3;
export const MIN_OUTLIER = Math.log(5);
export const BACK_K = 2;
export const MIN_BACK = Math.log(1.6);
/** Another record of the arm moves with it beyond ×3 (in line: within ×2, arm-biology.ts IN_LINE). */
export const SAME_WAY = Math.log(3);
/** The smallest factor named on a tmax (×60 and beyond; ×24 lies within a sampling grid's reach). */
export const TMAX_FACTOR = 50;
/** How near the deviation another slip factor must lie to be named beside the nearest one (×1.25). */
export const ALTERNATIVE_DISTANCE = Math.log(1.25);
/** A dose culprit needs the dose ratio to the siblings within ×1.5 of the factor. */
export const DOSE_RATIO_TOLERANCE = Math.log(1.5);

const fmt = (x: number) => String(+x.toPrecision(3));
const TIME_MEASURES: ReadonlySet<ItemMeasure> = new Set(['thalf', 'kel', 'tmax', 'mrt']);


/** +1 when biology (slower elimination, higher bioavailability) raises it with exposure, −1 when it lowers it, 0 when unrelated. */
const DIRECTION: Record<ItemMeasure, number> = {
  cmax: 1, auc_end: 1, auc_inf: 1, curve: 1, thalf: 1, mrt: 1, kel: -1, clearance: -1, vd: 0, vd_ss: 0, tmax: 0, other: 0,
  clearance_renal: -1, clearance_unbound: -1, clearance_intrinsic: -1, clearance_intrinsic_unbound: -1, vd_unbound: 0,
};

/**
 * Measures that, in line in the same arm, make a slip of `measure` the only explanation:
 * physiology moves AUC with CL and t½, t½ with CL (not with V), CL with AUC and t½.
 */
const CORROBORATING: Record<ItemMeasure, readonly ItemMeasure[]> = {
  cmax: ['curve', 'auc_end', 'auc_inf', 'clearance', 'thalf', 'kel', 'vd', 'vd_ss', 'mrt'],
  auc_end: ['curve', 'auc_inf', 'clearance', 'thalf', 'kel', 'mrt'],
  auc_inf: ['curve', 'auc_end', 'clearance', 'thalf', 'kel', 'mrt'],
  curve: ['cmax', 'auc_end', 'auc_inf', 'clearance'],
  clearance: ['curve', 'auc_end', 'auc_inf', 'thalf', 'kel', 'mrt'],
  vd: ['curve', 'cmax', 'clearance', 'thalf', 'kel', 'mrt'],
  vd_ss: ['curve', 'cmax', 'clearance', 'thalf', 'kel', 'mrt'],
  thalf: ['curve', 'auc_end', 'auc_inf', 'clearance', 'kel', 'mrt'],
  kel: ['curve', 'auc_end', 'auc_inf', 'clearance', 'thalf', 'mrt'],
  mrt: ['curve', 'auc_end', 'auc_inf', 'clearance', 'thalf', 'kel'],
  tmax: ['curve', 'cmax'],
  // Not a PK parameter: nothing of its arm tells a slip from biology (only BIG_FACTOR is major).
  other: [],
  // One route's or the unbound drug's share: the kidney or the binding moves it while the rest of the arm stays in
  // line (a renal impairment lowers a hepatically cleared drug's CLr, not its CL), so again only BIG_FACTOR.
  clearance_renal: [], clearance_unbound: [], clearance_intrinsic: [], clearance_intrinsic_unbound: [], vd_unbound: [],
};

/** The molar mass (g/mol) of an item's substance, when known: molar ↔ mass slips need it. */
export type MolarMassOf = (item: Deviation['item']) => number | null;

/** Beyond max(3·s, ln 5) of the centre of the other arms. */
function isOutlier(dev: Deviation): boolean {
  return Math.abs(dev.d) >= Math.max(OUTLIER_K * dev.s, MIN_OUTLIER);
}

/** The slip factor that makes a deviation an outlier, or null. */
export function slipOf(dev: Deviation, molarMass: number | null = null): SlipFactorMatch | null {
  if (!isOutlier(dev)) return null;
  const slip = nearestSlipFactor(dev.d, dev.item.family, dev.item.bodyWeightKg, Math.max(BACK_K * dev.s, MIN_BACK), undefined, molarMass, true);
  // tmax is a sampling time, spread over a grid (0.17–6 h in one study is ordinary): only ×60 and beyond.
  const minFactor = dev.item.measure === 'tmax' ? Math.max(dev.minFactor, TMAX_FACTOR) : dev.minFactor;
  return slip && Math.abs(Math.log(slip.factor)) < Math.log(minFactor) ? null : slip;
}

/**
 * Whether a slip led by a value PK-DB calculated from a curve (its Cmax, AUC) is one the curve itself shows: a unit
 * or dose slip of a curve scales every level, so its level among the other arms' curves (`curve`) must lie the factor
 * off too, or further (its level is the median ratio over the whole curve: a shape of its own moves it beyond). A
 * calculated AUC ×5.8 its fellows' beside a curve ×4.7 is the shape of a slow eliminator's curve (its extrapolation),
 * not a ×10 (Forrest1979's patient with severe liver disease). A time factor moves the AUC alone.
 */
export function curveAgrees(lead: Deviation, slip: SlipFactorMatch, devs: readonly Deviation[]): boolean {
  const curve = devs.find((d) => d.item.measure === 'curve');
  if (!curve || lead === curve || lead.item.source !== 'calculated') return true;
  if (lead.item.measure !== 'cmax' && !lead.item.measure.startsWith('auc')) return true;
  const lnf = Math.log(slip.factor);
  if (lead.item.measure !== 'cmax' && isTimeFactor(slip.factor)) return true;
  // One-sided: a curve whose level moves further than the factor (a hyperinsulinaemic group's insulin, ×3 its
  // fellows' between the peaks, then ×10) is no evidence against it; one that stays short of it is.
  return Math.sign(curve.d) === Math.sign(lnf) && Math.abs(curve.d) >= Math.abs(lnf) - Math.max(BACK_K * curve.s, MIN_BACK);
}

interface OffRecord {
  record: string;
  devs: Deviation[];
  /** Every deviation of the record, off or not (a curve's own calculated t½ beside its level). */
  all: readonly Deviation[];
  /** The deviation that decides (curve first, then the record's first off measure) and its factor. */
  lead: Deviation;
  slip: SlipFactorMatch;
}

/** A curve slip is named by the curve, a time-axis slip by the time measures (its AUC moves with them). */
const LEAD_ORDER: readonly ItemMeasure[] = ['curve', 'cmax', 'thalf', 'tmax', 'kel', 'mrt', 'auc_inf', 'auc_end', 'clearance', 'vd', 'vd_ss', 'other'];

/**
 * Whether PK-DB calculated the item from the curated dose (V = dose / (λz · AUC), CL = dose / AUC: tolerances.ts
 * DOSE_PROPORTIONAL): it follows a slip of that dose.
 */
const doseScaled = (item: { source: string; measure: ItemMeasure }) => item.source === 'calculated' && DOSE_PROPORTIONAL.has(item.measure as ReportedParameter);

/**
 * A dose slip: exposure off by the factor after normalisation, in line before, the dose that factor from the siblings';
 * or a calculated V or CL off by the factor its curated dose is from the siblings' (a V or CL of its own does not follow
 * the dose: a dose ×1/70 its siblings', mg/kg curated as mg, made a calculated V ×1/70 theirs).
 */
function doseCulprit(off: OffRecord): boolean {
  const { lead, slip } = off;
  if (doseScaled(lead.item)) {
    if (lead.doseRatio === null || !(lead.doseRatio > 0)) return false;
    return Math.abs(lead.d + Math.log(lead.doseRatio)) <= DOSE_RATIO_TOLERANCE && Math.abs(Math.log(slip.factor) - lead.d) <= DOSE_RATIO_TOLERANCE;
  }
  if (!(lead.item.measure === 'curve' || lead.item.measure === 'cmax' || lead.item.measure.startsWith('auc'))) return false;
  if (lead.dRaw === null || lead.sRaw === null || lead.doseRatio === null) return false;
  if (Math.abs(lead.dRaw) > Math.max(BACK_K * lead.sRaw, IN_LINE)) return false;
  return Math.abs(Math.log(lead.doseRatio) - Math.log(slip.factor)) <= DOSE_RATIO_TOLERANCE;
}

/**
 * Whether an arm dosed otherwise than its siblings (beyond ×2) is off per dose while its exposure as measured is
 * nearer them than half as far: the value per dose or its dose, which the dose ratio alone cannot settle (a dose
 * slipped ×1000 among arms of 10 and 30 mg, or a curve slipped in a dose-escalation study). The finding then
 * leaves the culprit open.
 */
function perDoseOnly(lead: Deviation): boolean {
  return lead.dRaw !== null && !sameDose(lead) && Math.abs(lead.dRaw) < Math.abs(lead.d) / 2;
}

function recordFinding(off: OffRecord, arm: readonly Deviation[], severity: Severity, culprit: Culprit | null, reason: string): Finding {
  const { lead, slip } = off;
  const item = lead.item;
  const timeAxis = culprit === 'timecourse' && TIME_MEASURES.has(item.measure);
  // Other factors about as near the deviation (×16.7 and ×24 for a clearance ×20): named after it, not for a dose. Only
  // within ALTERNATIVE_DISTANCE of the deviation: a wide arm spread would let half the factors bring it back in line.
  const alternatives = culprit === 'dose' || timeAxis ? [] : (slip.alternatives ?? []).filter((a) => a.distance <= ALTERNATIVE_DISTANCE);
  const scaled = doseScaled(item);
  const cause =
    culprit === 'dose'
      ? scaled
        ? `dose: the arm's calculated ${item.type} is ×${fmt(Math.exp(lead.d))} its siblings' as its curated dose ${fmt(item.dose!.value)} ${item.dose!.unit} is ×${fmt(1 / lead.doseRatio!)} theirs, and PK-DB computes it from that dose (${slip.text})`
        : `dose: the arm's exposure is ×${fmt(Math.exp(lead.d))} its siblings' per dose but in line without the dose; the curated dose ${fmt(item.dose!.value)} ${item.dose!.unit} is ×${fmt(1 / lead.doseRatio!)} theirs (${slip.text})`
      : timeAxis
        ? `${Math.abs(Math.log(slip.factor)) > Math.log(40) ? (slip.factor > 1 ? 'minutes as hours? ' : 'hours as minutes? ') : ''}the timecourse's time axis: ${slip.text}`
        : [slip, ...alternatives].map((s) => s.text).join(', or ') + (culprit === null ? ` — in the value or in its dose (×${fmt(1 / lead.doseRatio!)} its siblings')` : '');
  const tc = item.timecourse?.tc ?? null;
  const subsetPk = tc?.subset_pk ?? (off.record.startsWith('timecourse:') ? Number(off.record.slice('timecourse:'.length)) : null);
  // Two arms: the ratio is symmetric, so the finding names both records and blames neither (unless the dose).
  const partner = culprit === 'dose' ? undefined : lead.partner;
  return finding({
    kind: 'within-study',
    check: `within-study/${culprit ?? 'per-dose'}`,
    severity,
    study_sid: item.study_sid,
    study_name: item.study_name,
    subset_pk: subsetPk,
    output_pk: item.source === 'reported' ? (item.output?.pk ?? null) : null,
    measurement_type: item.type,
    subject: item.subject,
    reported: item.measure === 'curve' ? null : item.value,
    reported_unit: item.measure === 'curve' ? null : item.unit,
    recomputed: item.measure === 'curve' ? null : item.value / Math.exp(lead.d),
    recomputed_unit: item.measure === 'curve' ? null : item.unit,
    ratio: Math.exp(lead.d),
    suspected_cause: cause,
    culprit: partner ? null : culprit,
    intervention_pk: culprit === 'dose' ? item.dose!.pk : null,
    message: partner
      ? `${off.devs.map(describeDeviation).join(', ')} the only other arm of the study (${partner.record}, ${partner.subject ?? 'no subject'}); ` +
        `${slip.text.split(' (')[0]} between them — ${reason}; with two arms either may hold the slip`
      : `${off.devs.map(describeDeviation).join(', ')} the centre of ${lead.arms} other arm(s) of the study (spread ×${fmt(Math.exp(lead.s))}); ` +
        `${slip.text.split(' (')[0]} brings it back in line — ${reason}`,
    details: {
      record: off.record,
      // Compared per dose: a slip of its dose moves it too (corroborate.ts `byOwnDose`).
      ...(lead.dRaw !== null && item.dose ? { per_dose: true, ...(culprit === 'dose' ? {} : { dose_pk: item.dose.pk }) } : {}),
      ...(partner ? { pair_record: partner.record } : {}),
      factor: slip.factor,
      cause_kinds: culprit === 'dose' ? ['dose'] : [...new Set([slip, ...alternatives].map((s) => s.kind))],
      cause_factors: [slip, ...alternatives].map((s) => s.factor),
      arm_records: arm.map((d) => ({ record: d.item.record, measure: d.item.type, source: d.item.source, ratio: +Math.exp(d.d).toPrecision(3) })),
    },
  });
}

/**
 * Whether other evidence backs a slip ×factor of a record (the cross-study reference range,
 * reference-ranges.ts `referenceBacks`): its words, or null.
 */
export type Backing = (record: string, factor: number, towards?: Exposure) => string | null;

/** Whether the subject's own other periods convict a deviation of the slip ×factor (subject-periods.ts): its words, or null. */
export type PeriodsConvict = (lead: Deviation, factor: number) => string | null;

/** What the run knows beyond the arm itself, for `armFindings`; each part defaults to knowing nothing. */
export interface ArmEvidence {
  molarMassOf?: MolarMassOf;
  /** The other studies back a slip of the record (range-run.ts `referenceBacks`). */
  backs?: Backing;
  /** The other studies place the record in range and its correction out (range-run.ts `referenceRefutes`). */
  refutes?: Backing;
  periods?: PeriodsConvict;
  /** The subject's other periods convict a curve of a small molar ↔ mass slip (subject-periods.ts `ownPeriodsConvict`, narrow). */
  molarPeriods?: PeriodsConvict;
  /** The same subject's other record of the measure in this arm is in line and the lead the factor off it (subject-periods.ts `twinConvicts`). */
  twin?: (lead: Deviation, factor: number, others: readonly Deviation[]) => string | null;
  /** The subject lies at that level in another period too (subject-periods.ts `repeatsElsewhere`). */
  repeats?: (lead: Deviation) => boolean;
  /** The item measures a substance none of its interventions gives. */
  metabolite?: (item: Deviation['item']) => boolean;
  /** Hours from an extravascular dose to the item's sampling time, or null (an IV dose, no time, no dose). */
  hoursAfterOralDose?: (item: Deviation['item']) => number | null;
  /** Whether the item's dose goes into the blood (arm-biology.ts `intravascularRoute`). */
  intravascular?: (item: Deviation['item']) => boolean;
}

/** The findings of one arm: its off records judged against its other records. */
export function armFindings(
  arm: readonly Deviation[],
  {
    molarMassOf = () => null, backs = () => null, refutes = () => null, periods = () => null, twin = () => null, repeats = () => false,
    metabolite = () => false, hoursAfterOralDose = () => null, intravascular = () => false, molarPeriods = () => null,
  }: ArmEvidence = {},
): Finding[] {
  const molar = smallMolarFindings(arm, molarMassOf, molarPeriods, metabolite);
  // Most arms have no outlier: nothing to group (an outlier is so whatever the molar mass).
  if (!arm.some(isOutlier)) return molar;
  const byRecord = new Map<string, Deviation[]>();
  for (const dev of arm) {
    const list = byRecord.get(dev.item.record);
    if (list) list.push(dev);
    else byRecord.set(dev.item.record, [dev]);
  }
  const offs: OffRecord[] = [];
  for (const [record, devs] of byRecord) {
    const slipped = devs.filter((d) => slipOf(d, molarMassOf(d.item)) !== null).sort((a, b) => LEAD_ORDER.indexOf(a.item.measure) - LEAD_ORDER.indexOf(b.item.measure));
    if (slipped.length === 0) continue;
    const slip = slipOf(slipped[0], molarMassOf(slipped[0].item)) as SlipFactorMatch;
    if (!curveAgrees(slipped[0], slip, devs)) continue;
    offs.push({ record, devs: slipped, all: devs, lead: slipped[0], slip });
  }
  // A curve its subject's own periods convict of a molar slip is that finding, not the nearer unit factor the other
  // arms alone would suggest (×5 off them, ×3.07 of it the subject's own level, ×10 named).
  const findings: Finding[] = molar;
  for (const off of offs) {
    if (molar.some((f) => f.details?.record === off.record)) continue;
    const others = arm.filter((d) => d.item.record !== off.record);
    const sign = Math.sign(off.lead.d) * DIRECTION[off.lead.item.measure];
    const sameWay = others.filter((d) => sign !== 0 && DIRECTION[d.item.measure] * Math.sign(d.d) === sign && Math.abs(d.d) > SAME_WAY);
    const corroborating = others.filter((d) => CORROBORATING[off.lead.item.measure].includes(d.item.measure) && Math.abs(d.d) <= IN_LINE);
    const dose = doseCulprit(off);
    // Beyond biology's reach by the factor named, or by the distance itself (a t½ ×31 its siblings', nearest ×24): for
    // a PK parameter at its siblings' dose only. An arm dosed otherwise may be off per dose through its dose
    // (perDoseOnly, doseCulprit); a concentration curated without its time may be any point of a curve.
    const farOff = off.lead.item.measure !== 'other' && sameDose(off.lead) && Math.abs(off.lead.d) >= Math.log(BIG_FACTOR);
    const big = farOff || Math.abs(Math.log(off.slip.factor)) >= Math.log(BIG_FACTOR);
    const culprit: Culprit | null = dose ? 'dose' : perDoseOnly(off.lead) ? null : off.lead.item.source === 'reported' ? 'output' : 'timecourse';
    let severity: Severity;
    let reason: string;
    // A time axis slip stretches the AUC with the half-life; a half-life alone may be a flat tail's λz.
    // Only where an AUC of the record is there to stay in line: without one, nothing says the AUC did not move.
    const timeOnly =
      off.lead.item.source === 'calculated' && TIME_MEASURES.has(off.lead.item.measure) && off.all.some((d) => d.item.measure.startsWith('auc')) &&
      !off.devs.some((d) => d.item.measure.startsWith('auc'));
    // The other studies judge a reported value itself, a curve by its level (Cmax per dose): what they say of a curve
    // speaks to a slip of its level, not to one of its time axis (a t½ ×1/60 leaves the curve's Cmax where it was).
    const referenced = off.lead.item.source === 'reported' || off.lead.item.measure === 'curve' || off.lead.item.measure === 'cmax';
    // The other studies place the record's own value in range and the corrected one far out: the arms it was set against hold the slip.
    const refuted = dose || !referenced ? null : refutes(off.record, off.slip.factor);
    // Not for a factor beyond biology: a per-kg row (CL and V both ×1/70) keeps its identities and is still a slip.
    const explained = dose || refuted || big ? null : identityExplains(off.lead, arm);
    if (refuted) {
      severity = 'minor';
      reason = `but the other studies put this value in range (${refuted}): the other arms are the likelier holders of a slip`;
    } else if (explained) {
      severity = 'minor';
      reason = `but ${explained}: its own PK identities hold, so the arm differs, not this record alone`;
    } else if (sameWay.length > 0 && !dose) {
      severity = 'minor';
      reason = `but ${sameWay.map(describeDeviation).join(', ')} of the same arm move the same way: a different population or treatment rather than a slip?`;
    } else if (!dose && poorMetaboliser(off.lead, others, metabolite)) {
      severity = 'minor';
      reason = `but it is one individual's exposure to a metabolite, below the others': a poor metaboliser (a genotype or phenotype not curated) forms ×1/20–1/100 of it?`;
    } else if (!dose && lateAbsorber(off.lead, hoursAfterOralDose)) {
      severity = 'minor';
      reason = `but it is a concentration ${fmt(hoursAfterOralDose(off.lead.item) as number)} h after an oral dose, below the others': a late absorber (a lag, slow gastric emptying) is that far below while the others peak?`;
    } else if (timeOnly) {
      severity = 'minor';
      reason = 'but only its half-life moves, not its AUC: a flat or rising tail rather than a time axis slip?';
    } else if (dose) {
      severity = 'major';
      reason = 'the dose is the one record the arm does not share with its siblings';
    } else if (big) {
      severity = 'major';
      reason = 'no physiology moves one arm this far';
    } else if (alikePair(off)) {
      severity = 'major';
      reason = 'two groups of one population by every curated trait, at one dose, are no tenfold apart';
    } else if (corroborating.length > 0) {
      severity = 'major';
      reason = `while ${corroborating.map(describeDeviation).join(', ')} of the same arm are in line, which physiology would have moved with it`;
    } else {
      // The other studies of the substance are independent evidence: a reported value or a curve (its Cmax per dose)
      // that lies off theirs by the same factor, and back near their centre without it, is a slip, not this arm's biology.
      // Only for an arm otherwise in line (×2): another of its records off (a V ×2.9 and a CL ×0.45 make a t½ ×6.5) is its biology.
      // So is the subject itself, measured at its own level in other periods of the study (subject-periods.ts).
      const ordinary = others.every((d) => Math.abs(d.d) <= IN_LINE);
      const backing = referenced && ordinary ? backs(off.record, off.slip.factor, sign > 0 ? 'more' : sign < 0 ? 'less' : 'unknown') : null;
      const own = backing ? null : (periods(off.lead, off.slip.factor) ?? twin(off.lead, off.slip.factor, others));
      // Groups of one population by every curated trait, the arm ×10 or more off tightly agreeing siblings: a design that
      // meant them to differ would have marked how (a disease, a genotype, a co-medication is a condition of its own pool).
      // Not for a subject at that level in another period too: its own biology (subject-periods.ts `repeatsElsewhere`);
      // nor for an arm dosed otherwise than its siblings (a dose slip, or non-linear kinetics, is the dose's story).
      const alike =
        !backing && !own && ordinary && off.lead.item.measure !== 'other' && off.lead.alike === true && off.lead.arms >= ALIKE_ARMS &&
        Math.abs(Math.log(off.slip.factor)) >= Math.log(ALIKE_FACTOR) && Math.abs(off.lead.d) >= ALIKE_K * off.lead.s && sameDose(off.lead) && !repeats(off.lead);
      const elimination = !backing && !own && !alike && ordinary && !repeats(off.lead) ? eliminationInLine(off.lead, off.slip.factor, off.all, others) : null;
      const less = !backing && !own && !alike && !elimination && ordinary && !repeats(off.lead) && lessThanAnyPhenotype(off.lead, off.slip.factor, sign, intravascular(off.lead.item));
      severity = backing || own || alike || elimination || less ? 'major' : 'minor';
      reason = backing
        ? `and the other studies agree: ${backing}`
        : own
          ? `while ${own}`
          : alike
            ? `while its ${off.lead.arms} sibling groups, of the same population by every curated trait, agree within ×${fmt(Math.exp(off.lead.s))}`
            : elimination
              ? `while its ${describeDeviation(elimination)} is in line: exposure that far apart with the same elimination needs a volume or bioavailability as far apart, which no subject of one study has`
              : less
                ? `below the exposure of its ${off.lead.arms} sibling arms at their dose and co-interventions (agreeing within ×${fmt(Math.exp(off.lead.s))}) farther than any phenotype takes one arm`
                : 'no other record of the arm tells a slip from a different population';
    }
    findings.push(recordFinding(off, arm, severity, culprit, reason));
  }
  return findings;
}

/** The smallest deviation from a subject's own level a small molar factor is looked for at (×1.8). */
export const MOLAR_OWN_MIN = Math.log(1.8);
/** How near the molar factor the deviation from the subject's own level must lie (×1.25, the agreement band of tolerances.ts). */
export const MOLAR_OWN_BACK = Math.log(1.25);

/**
 * A deviation from at least MIN_ARMS other arms of its strict pool (same interventions, route, dose unit): other
 * subjects under the same condition, never the subject itself under another (a group alone across its periods).
 */
export const strictDeviation = (d: Deviation): boolean => d.partner === undefined && d.minFactor === 1 && d.arms >= MIN_ARMS;

/** A whole curve, or a reported Cmax or AUC (one PK-DB calculated from a curve follows the curve, which leads). */
const molarOwnMeasure = (d: Deviation): boolean =>
  d.item.measure === 'curve' || (d.item.source === 'reported' && (d.item.measure === 'cmax' || d.item.measure === 'auc_end' || d.item.measure === 'auc_inf'));

/**
 * A curve off its subject's own level in its other periods by a molar ↔ mass factor of ×2–10 (µmol/L read as mg/L):
 * such factors lie within between-arm spread and name no slip against other arms (causes.ts SMALL_MOLAR_FACTOR), but
 * a subject's level repeats from period to period (subject-periods.ts), so one curve alone off it by exactly the
 * factor is the curve's unit.
 */
function smallMolarFindings(arm: readonly Deviation[], molarMassOf: MolarMassOf, molarPeriods: PeriodsConvict, metabolite: (item: Deviation['item']) => boolean): Finding[] {
  const findings: Finding[] = [];
  for (const lead of arm) {
    if (!molarOwnMeasure(lead) || lead.item.subject === null || Math.abs(lead.d) < MOLAR_OWN_MIN || !strictDeviation(lead)) continue;
    // A metabolite's exposure moves with its formation and its elimination: a co-medication shifts one subject's
    // ×3 more than another's (Link2008: 1-hydroxymidazolam with rifampicin, ×3.2 one subject's own level).
    const molarMass = molarMassOf(lead.item);
    if (molarMass === null || metabolite(lead.item)) continue;
    for (const slip of molarMassSlipsOf('cmax', molarMass)) {
      if (slip.factor >= SMALL_MOLAR_FACTOR) continue;
      const factor = lead.d > 0 ? slip.factor : 1 / slip.factor;
      const own = molarPeriods(lead, factor);
      if (own === null) continue;
      const text = `${lead.d > 0 ? slip.label : slip.label.replace('×', '×1/')} (${slip.explanation})`;
      const match: SlipFactorMatch = { factor, kind: 'molar-mass', text, distance: Math.abs(lead.d - Math.log(factor)) };
      const off: OffRecord = { record: lead.item.record, devs: [lead], all: [lead], lead, slip: match };
      findings.push(recordFinding(off, arm, 'major', lead.item.source === 'reported' ? 'output' : 'timecourse', `while ${own}`));
      break;
    }
  }
  return findings;
}

/** A pair of groups of one population by every curated trait at one dose, ×10 or more apart (arm-deviations.ts ALIKE_PAIR_FACTOR). */
function alikePair(off: OffRecord): boolean {
  const lead = off.lead;
  return lead.partner !== undefined && lead.alike === true && sameDose(lead) && lead.item.measure !== 'other' && Math.abs(Math.log(off.slip.factor)) >= Math.log(ALIKE_PAIR_FACTOR);
}

/** The check code of the coverage marks. */
const CHECK = 'within-study';

/**
 * Coverage: every record of an arm that was set against other arms of its study (a deviation exists only
 * then); its dose too when the measure was normalised by it (a dose ×10 moves it).
 */
function markExamined(ctx: QaContext, arm: readonly Deviation[]): void {
  for (const { item, dRaw } of arm) {
    if (item.source === 'reported' && item.output) ctx.examined('output', item.output.pk, CHECK);
    if (item.timecourse) ctx.examined('timecourse', item.timecourse.tc.subset_pk, CHECK);
    if (item.dose && dRaw !== null) ctx.examined('dosing', item.dose.pk, CHECK);
  }
}

export const withinStudyCheck: QaCheck = {
  kind: 'within-study',
  description: 'each arm, group or individual against the other arms of its study (same substance, tissue, route, co-interventions), dose-normalised: Cmax, AUC, CL, V, t½, tmax and whole curves; an outlier by a slip factor',
  run(ctx) {
    // A reported value that its own timecourse already convicts of a named slip is not reported twice.
    const named = new Set(ctx.comparisons.filter((c) => c.verdict.classification === 'major' && c.verdict.causes.length > 0).map((c) => c.output.pk));
    const findings: Finding[] = [];
    const molarMassOf: MolarMassOf = (item) => ctx.molarMass(item.output?.substance ?? item.timecourse?.substance ?? null);
    const hoursAfterOralDose = hoursAfterOralDoseOf(ctx);
    const metabolite = metaboliteOf(ctx);
    const intravascular = (item: Deviation['item']) => item.dose !== null && intravascularRoute(ctx.dataset.intervention(item.dose.pk)?.route);
    // A pair is one finding: both of its arms see the same ratio. Its place in `findings`, and the other arm's finding.
    const pairs = new Map<string, { at: number; other: Finding | null }>();
    const byArm = armDeviations(ctx);
    // Built when a record first asks (the last of armFindings' tests, reached by few): not for every deviation of every run.
    let index: PeriodIndex | undefined;
    const backs: Backing = (record, factor, towards) => referenceBacks(ctx, record, factor, towards);
    const refutes: Backing = (record, factor) => referenceRefutes(ctx, record, factor);
    const repeats = (lead: Deviation) => repeatsElsewhere(lead, (index ??= periodIndex(byArm.values())));
    const periods: PeriodsConvict = (lead, factor) =>
      ownPeriodsConvict(lead, factor, (index ??= periodIndex(byArm.values())), Math.max(OUTLIER_K * lead.s, MIN_OUTLIER), Math.max(BACK_K * lead.s, MIN_BACK));
    let strictIndex: PeriodIndex | undefined;
    const molarPeriods: PeriodsConvict = (lead, factor) =>
      ownPeriodsConvict(lead, factor, (strictIndex ??= periodIndex([...byArm.values()].map((list) => list.filter(strictDeviation)))), MOLAR_OWN_MIN, MOLAR_OWN_BACK);
    const twin = (lead: Deviation, factor: number, others: readonly Deviation[]) =>
      twinConvicts(lead, factor, others, Math.max(OUTLIER_K * lead.s, MIN_OUTLIER), Math.max(BACK_K * lead.s, MIN_BACK));
    for (const arm of byArm.values()) {
      markExamined(ctx, arm);
      for (const f of armFindings(arm, { molarMassOf, backs, refutes, periods, twin, repeats, metabolite, hoursAfterOralDose, intravascular, molarPeriods })) {
        if (f.culprit === 'output' && f.output_pk !== null && named.has(f.output_pk)) continue;
        const pair = f.details?.pair_record as string | undefined;
        if (pair !== undefined) {
          // By the two records only: one arm's curve ×10 is the other's calculated CL ×10, one difference seen from both sides.
          const key = [f.details?.record, pair].sort().join('|');
          const known = pairs.get(key);
          if (known) {
            known.other = f;
            continue;
          }
          pairs.set(key, { at: findings.length, other: null });
        }
        findings.push(f);
      }
    }
    for (const { at, other } of pairs.values()) findings[at] = pairCulprit(findings[at], other, backs);
    return findings;
  },
};

/**
 * A pair's finding with its culprit, when the other studies tell which arm holds the slip: the one whose own value
 * their reference puts off by the factor and back near their centre without it (range-run.ts `referenceBacks`),
 * the other's not. Otherwise the first arm's finding, blaming neither.
 */
export function pairCulprit(first: Finding, second: Finding | null, backs: Backing): Finding {
  const backing = (f: Finding) => backs(f.details?.record as string, f.details?.factor as number);
  const candidates = second ? [first, second] : [first];
  const backed = candidates.map((f) => ({ f, words: backing(f) })).filter((c) => c.words !== null);
  if (backed.length !== 1) return first;
  const { f, words } = backed[0];
  const culprit = (f.check ?? '').slice('within-study/'.length) as Culprit;
  return { ...f, culprit, message: `${f.message}; the other studies name this one: ${words}` };
}
