/**
 * The `physiology` check: physiological bounds that a single value breaks on
 * its own, with no partner value, sibling arm or other study (issue 13,
 * item 5, extended): the slips of a study with one arm and nothing to compare
 * with are invisible to the other checks.
 *
 * The bound is the plasma volume Vp ≈ 0.04 L/kg (PLASMA_L_PER_KG; about 3 L
 * for 70 kg; Davies & Morris 1993): a substance in the body is at least in
 * the plasma, so
 * - an apparent volume (vd, vd_ss; V/F too, since F ≤ 1 makes V/F ≥ V)
 *   referred to plasma, serum or blood cannot be below Vp (per kg: below
 *   0.04 L/kg; blood: the blood volume is larger still);
 * - after a single dose D of the measured substance itself, no concentration
 *   in plasma, serum or blood can exceed D / Vp (the whole dose in the plasma
 *   at once, whatever the route, since F ≤ 1): a Cmax, a single reported
 *   concentration, and the highest point of a concentration timecourse. Not
 *   for a metabolite (the dosed substance differs; a salt of the measured
 *   substance, SALT_WORDS, is the substance itself), an endogenous substance (a pre-dose sample above 0 of the same
 *   substance in the study marks one: its baseline adds to the dose), or
 *   several dosings (accumulation).
 *
 * - the AUC likewise: AUC = F·D/CL, CL = λz·Vz and Vz ≥ Vp, so AUC ≤
 *   D·t½ / (ln 2 · Vp), with the t½ (or kel) of the same key (`aucFindings`).
 *
 * Precision: a value is flagged only beyond MARGIN (×2) of the bound (a
 * plasma volume of 0.02 L/kg is below any human's: haematocrit, obesity and
 * rounding move Vp by far less). The body weight is the subject's when
 * curated; else an adult's, at the lowest adult weight (ADULT_BODY_WEIGHT_KG,
 * 40 kg: the loosest bound), and only when the subject is not marked as a
 * child (an age below 18 years) nor as another species: then it is skipped.
 * A dose per kg needs no weight (Cmax ≤ (D/kg) / (Vp/kg)).
 *
 * Severity: major when a slip factor (causes.ts `slipFactors`: ×1000, ×10,
 * per-kg with the body weight, molar ↔ mass) of the value — or of the dose,
 * for a concentration — brings it back within the bound, naming the one
 * that brings it nearest a typical volume (1 L/kg; `fixingCause`); minor otherwise. Culprit: the output or the timecourse; the dose
 * when a reported Cmax and a timecourse of the same key both break the bound
 * (they agree with each other, the dose is the odd one out).
 */
import type { InterventionRecord } from '../../data/model.js';
import { representativeSeries } from '../../data/records.js';
import { conversionFactorOrNull } from '../../units/convert.js';
import type { QaCheck } from '../check.js';
import { ADULT_BODY_WEIGHT_KG, slipFactors, type SuspectedCause } from '../causes.js';
import type { QaContext, RecomputedTimecourse } from '../context.js';
import { finding, type Culprit, type Finding, type Severity } from '../finding.js';
import { canonicalUnit, type ParameterValue } from '../parameters.js';
import { ownJudgment, rangeRun } from '../range-run.js';
import { INSIDE_Z } from '../range-verdict.js';
import { dosesItself } from '../substance-relations.js';

const CHECK = 'physiology';
/** Plasma volume per kg of body weight (about 3 L for 70 kg). */
export const PLASMA_L_PER_KG = 0.04;
/** Only values beyond the bound by this factor are flagged: a plasma volume half the typical is below any human's. */
export const MARGIN = 2;
/** Tissues whose concentrations are at most the plasma's share of the dose (blood: its volume exceeds the plasma's). */
export const CIRCULATING: ReadonlySet<string> = new Set(['plasma', 'serum', 'blood']);
/**
 * Tissues whose concentrations the single-dose ceiling D / Vp bounds too (not volumes nor AUCs): saliva, an
 * ultrafiltrate of plasma that the unbound drug enters by diffusion. Its ratio to plasma is fu·(1 + 10^(pKa−6.5)) /
 * (1 + 10^(pKa−7.4)) for a base, at most ~8 (fu = 1); such bases have volumes ≫ Vp (a plasma Cmax ≤ D / V), and acids
 * or bound drugs with small volumes have ratios ≪ 1 (fu small, ion trapping the other way), so a saliva
 * concentration beyond D / Vp (×MARGIN) is no physiology either.
 */
export const CONCENTRATION_TISSUES: ReadonlySet<string> = new Set([...CIRCULATING, 'saliva']);
const VOLUMES: ReadonlySet<string> = new Set(['vd', 'vd_ss']);
/** Single values bounded by dose / plasma volume: the peak, and any concentration at a time after the dose. */
const CONCENTRATIONS: ReadonlySet<string> = new Set(['cmax', 'concentration']);
/** A unit per kilogram of body weight, as normalised dose units spell it (g/kg, mole / kilogram). */
const PER_KG_UNIT = /\/\s*(kilogram|kg)\s*$/;

const fmt = (x: number) => String(+x.toPrecision(3));

interface Subject {
  group_pk: number | null;
  individual_pk: number | null;
}

/**
 * The body weight for the bound (kg) and whether it was curated; null when the subject may be a child or of
 * another species and no weight is curated.
 */
export function boundWeight(ctx: QaContext, subject: Subject, curated: number | null): { kg: number; curated: boolean } | null {
  if (curated !== null && curated > 0) return { kg: curated, curated: true };
  // The context answers once per subject whether an adult may be assumed.
  return ctx.mayBeAdultHuman(subject) ? ASSUMED_ADULT : null;
}

/** The weight assumed for an unweighed adult: the lowest adult weight, so that a bound it breaks is broken for anyone. */
const ASSUMED_ADULT: Readonly<{ kg: number; curated: boolean }> = Object.freeze({ kg: ADULT_BODY_WEIGHT_KG[0], curated: false });

function weightText(w: { kg: number; curated: boolean }): string {
  return w.curated ? `body weight ${fmt(w.kg)} kg` : `body weight not curated: the lowest adult weight ${w.kg} kg`;
}

/**
 * A typical apparent volume, 1 L/kg (the median of drugs' Vss is about 1 L/kg; Obach 2008): 25× the plasma volume.
 * Of the slips that bring a value back within the bound, the one that brings it nearest this typical position is
 * named (a ×28 excess is fixed by ×70 and by ×1000 alike; ×1000 puts the volume at 1 L/kg, ×70 at 40 mL/kg).
 */
export const TYPICAL_VOLUME_L_PER_KG = 1;
const TYPICAL_RATIO = TYPICAL_VOLUME_L_PER_KG / PLASMA_L_PER_KG;

/**
 * The slip whose correction brings `ratio` (value / plasma bound; above 1 too high, a concentration; below, a
 * volume) back within the bound and nearest the typical ratio (a volume 25× the plasma, a concentration 1/25 of
 * the ceiling); null when none does.
 */
export function fixingCause(causes: readonly SuspectedCause[], ratio: number, tooHigh: boolean): SuspectedCause | null {
  const typical = tooHigh ? 1 / TYPICAL_RATIO : TYPICAL_RATIO;
  const fixing = causes.filter((c) => (tooHigh ? c.factor > 1 && ratio / c.factor <= 1 : c.factor < 1 && ratio / c.factor >= 1));
  const distance = (c: SuspectedCause) => Math.abs(Math.log(ratio / c.factor / typical));
  fixing.sort((a, b) => distance(a) - distance(b));
  return fixing[0] ?? null;
}

function causeList(causes: readonly (SuspectedCause | null)[], who: readonly string[]): { text: string | null; kinds: string[]; factors: number[] } {
  const named = causes.map((c, i) => (c ? { c, who: who[i] } : null)).filter((x): x is { c: SuspectedCause; who: string } => x !== null);
  return {
    text: named.length ? named.map(({ c, who: w }) => `${w} ${c.text}`).join(', or ') + '?' : null,
    kinds: named.map(({ c }) => c.kind),
    factors: named.map(({ c }) => c.factor),
  };
}

/** A volume below the plasma volume / MARGIN. */
export function volumeFinding(ctx: QaContext, p: ParameterValue): Finding | null {
  if (!VOLUMES.has(p.measurement_type) || p.value === null || !(p.value > 0) || !CIRCULATING.has(p.tissue ?? '')) return null;
  if (!ofDosedSubstance(ctx, p)) return null;
  const perKg = p.unit === 'liter / kilogram';
  if (!perKg && p.unit !== 'liter') return null;
  const weight = perKg ? null : boundWeight(ctx, p.output, p.bodyWeightKg);
  if (!perKg && weight === null) return null;
  ctx.examined('output', p.output.pk, CHECK);
  const plasma = perKg ? PLASMA_L_PER_KG : PLASMA_L_PER_KG * (weight as { kg: number }).kg;
  const bound = plasma / MARGIN;
  if (p.value >= bound) return null;
  const ratio = p.value / plasma;
  const cause = fixingCause(slipFactors(p.measurement_type as 'vd', { molarMass: null, bodyWeightKg: p.bodyWeightKg }), ratio, false);
  const causes = causeList([cause], ['volume']);
  const severity: Severity = cause ? 'major' : 'minor';
  const o = p.output;
  const plasmaText = perKg ? `${PLASMA_L_PER_KG} L/kg` : `${fmt(plasma)} L (${PLASMA_L_PER_KG} L/kg, ${weightText(weight as { kg: number; curated: boolean })})`;
  // A calculated volume's dose, a record its slip may sit in (corroborate.ts reads `dose_pk`): in details, not as
  // intervention_pk, which is part of the finding's id (finding-id.ts) and stays what it was.
  const doses = p.source === 'reported' ? [] : ctx.dosingOfSet(o.intervention_pks).filter((d) => dosesItself(d.substance, p.substance));
  return finding({
    kind: 'physiology', severity, study_sid: o.study_sid, study_name: o.study_name, subset_pk: ctx.curveOf(p), output_pk: o.pk,
    measurement_type: o.measurement_type, subject: p.subject, reported: p.value, reported_unit: p.unit, recomputed: plasma,
    // A calculated volume is its curve's and dose's (V = dose/(AUC·λz)): either may hold the slip.
    recomputed_unit: p.unit, ratio, culprit: p.source === 'reported' ? 'output' : null, suspected_cause: causes.text,
    message: `${p.source} ${o.measurement_type} ${fmt(p.value)} ${p.unit} is ×${fmt(ratio)} the plasma volume ${plasmaText}: an apparent volume cannot be smaller than the plasma`,
    details: { rule: 'volume-below-plasma', source: p.source, value_record: valueRecord(ctx, p), cause_kinds: causes.kinds, cause_factors: causes.factors, ...(doses.length === 1 ? { dose_pk: doses[0].pk } : {}) },
  });
}

/**
 * The record a bounded value is off in, besides its dose (shared-record.ts reads it): a reported output itself, a
 * stored calculated one its curve.
 */
function valueRecord(ctx: QaContext, p: ParameterValue): string | null {
  if (p.source === 'reported') return `output:${p.output.pk}`;
  const curve = ctx.curveOf(p);
  return curve === null ? null : `timecourse:${curve}`;
}

/** Whether the set doses the measured substance (the parameter is not a metabolite's). */
function ofDosedSubstance(ctx: QaContext, p: ParameterValue): boolean {
  return ctx.dosingOfSet(p.output.intervention_pks).some((d) => dosesItself(d.substance, p.substance));
}

/** The one single dosing of `substance` in the set, or null (none, several, or a multiple-dose pattern); co-medication does not move the ceiling. */
function singleDose(dosings: readonly InterventionRecord[], substance: string | null): InterventionRecord | null {
  const own = dosings.filter((d) => dosesItself(d.substance, substance));
  if (own.length !== 1) return null;
  const d = own[0];
  if ((d.application ?? '').toLowerCase().includes('multiple')) return null;
  if (d.time !== null && d.time !== '' && !Number.isFinite(Number(d.time))) return null;
  return d.value !== null && d.value > 0 && d.unit ? d : null;
}

/** The concentration ceiling D / Vp (g/L) of a dose, or null when its unit is neither an amount nor an amount per kg. */
export function concentrationCeiling(
  ctx: QaContext, dose: InterventionRecord, subject: Subject, curatedWeight: number | null,
): { ceiling: number; text: string } | null {
  const mass = ctx.molarMass(dose.substance);
  const canonical = canonicalUnit(dose.unit as string, mass);
  const value = dose.value as number;
  if (canonical?.unit === 'gram') {
    const weight = boundWeight(ctx, subject, curatedWeight);
    if (weight === null) return null;
    const plasma = PLASMA_L_PER_KG * weight.kg;
    return { ceiling: (value * canonical.factor) / plasma, text: `dose ${fmt(value)} ${dose.unit} / plasma volume ${fmt(plasma)} L (${weightText(weight)})` };
  }
  // gram / kilogram is dimensionless to mathjs: only an amount per kilogram (g/kg, mole / kilogram) is one, not a count.
  if (!PER_KG_UNIT.test(dose.unit as string)) return null;
  const perKg = conversionFactorOrNull(dose.unit as string, 'gram / kilogram', mass === null ? undefined : { molarMass: mass });
  if (perKg === null) return null;
  return { ceiling: (value * perKg) / PLASMA_L_PER_KG, text: `dose ${fmt(value)} ${dose.unit} / plasma volume ${PLASMA_L_PER_KG} L/kg` };
}

/** Studies and substances with a pre-dose concentration above 0: endogenous (or carried over), no ceiling. */
export function withBaseline(ctx: QaContext): Set<string> {
  const marked = new Set<string>();
  for (const rt of ctx.timecourses) {
    const values = representativeSeries(rt.tc)?.values;
    if (!values) continue;
    const doseTime = rt.dose?.time ?? 0;
    if (rt.tc.time.some((t, i) => t !== null && t <= doseTime && (values[i] ?? 0) > 0)) marked.add(`${rt.tc.study_sid}|${rt.substance}`);
  }
  return marked;
}

interface Excess {
  value: number;
  ceiling: number;
  text: string;
  dose: InterventionRecord;
  /** The curated body weight, for a per-kg dose slip. */
  weightKg: number | null;
}

function excessFinding(ctx: QaContext, e: Excess, base: Partial<Finding>, what: string, culprit: Culprit | null, doseToo: boolean, valueRecord: string | null): Finding {
  const ratio = e.value / e.ceiling;
  const mass = ctx.molarMass(e.dose.substance);
  const ownCause = fixingCause(slipFactors('cmax', { molarMass: mass, bodyWeightKg: null }), ratio, true);
  // A dose curated ×f too small raises the ratio by 1/f: the dose's slips with f < 1 bring it back.
  const doseCause = fixingCause(slipFactors('dose', { molarMass: mass, bodyWeightKg: e.weightKg }).map((c) => ({ ...c, factor: 1 / c.factor, text: c.text })), ratio, true);
  const doseNamed = doseCause ? { ...doseCause, factor: 1 / doseCause.factor } : null;
  const causes = doseToo ? causeList([doseNamed, ownCause], ['dose', what]) : causeList([ownCause, doseNamed], [what, 'dose']);
  const severity: Severity = ownCause || doseNamed ? 'major' : 'minor';
  return finding({
    kind: 'physiology', severity, ...base, recomputed: e.ceiling, recomputed_unit: 'gram / liter', ratio,
    culprit, intervention_pk: e.dose.pk, suspected_cause: causes.text,
    message: `${what} ${fmt(e.value)} g/L is ×${fmt(ratio)} the most a single dose can give, ${e.text} = ${fmt(e.ceiling)} g/L${doseToo ? ' (a reported Cmax and a timecourse of the same subject both exceed it: the dose?)' : ''}`,
    details: { rule: 'concentration-above-dose-per-plasma', dose_pk: e.dose.pk, value_record: valueRecord, cause_kinds: causes.kinds, cause_factors: causes.factors },
  });
}

/** The highest concentration after the dose of a timecourse, in g/L; null when its unit is no mass concentration. */
function highestPoint(ctx: QaContext, rt: RecomputedTimecourse): number | null {
  const values = representativeSeries(rt.tc)?.values;
  if (!values || !rt.tc.unit) return null;
  const canonical = canonicalUnit(rt.tc.unit, ctx.molarMass(rt.substance));
  if (canonical?.unit !== 'gram / liter') return null;
  let highest: number | null = null;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v !== null && Number.isFinite(v) && (highest === null || v > highest)) highest = v;
  }
  return highest === null ? null : highest * canonical.factor;
}

/**
 * Every concentration of a single dose above what the dose can give (dose / plasma volume, ×MARGIN). Which record
 * to fix needs a second, independent witness of the same subject and set: a timecourse's highest point and a
 * reported Cmax (not one calculated from that curve) both above, alike, say the dose; one above while the other is
 * not says itself; one alone is the value or its dose (culprit open).
 */
export function concentrationFindings(ctx: QaContext, baseline: ReadonlySet<string> = withBaseline(ctx)): Finding[] {
  /** Per matching key, the highest points of its curves and its reported Cmax values (over the ceiling or not). */
  const witnesses = new Map<string, { tc: number[]; cmax: number[] }>();
  const witness = (key: string, list: 'tc' | 'cmax', value: number) => {
    let w = witnesses.get(key);
    if (!w) witnesses.set(key, (w = { tc: [], cmax: [] }));
    w[list].push(value);
  };
  /** Per dosing, the subjects (keys) with a bounded record, and whether any of those records is within its reach. */
  const dosings = new Map<number, { keys: Set<string>; within: boolean }>();
  const boundedRecord = (dosePk: number, key: string, value: number, ceiling: number) => {
    let d = dosings.get(dosePk);
    if (!d) dosings.set(dosePk, (d = { keys: new Set(), within: false }));
    d.keys.add(key);
    if (value <= ceiling * MARGIN) d.within = true;
  };
  const pending: { key: string; excess: Excess; base: Partial<Finding>; what: string; own: Culprit; record: string | null; against: 'tc' | 'cmax' }[] = [];
  for (const rt of ctx.timecourses) {
    const tc = rt.tc;
    if (rt.key === null || !ctx.reported(tc.study_sid) || !CONCENTRATION_TISSUES.has(tc.tissue ?? '') || baseline.has(`${tc.study_sid}|${rt.substance}`)) continue;
    const dose = singleDose(ctx.dosingOfSet(tc.intervention_pk), rt.substance);
    if (!dose) continue;
    const ceiling = concentrationCeiling(ctx, dose, tc, ctx.bodyWeightKg(tc));
    const highest = ceiling && highestPoint(ctx, rt);
    if (!ceiling || highest === null || highest === undefined) continue;
    ctx.examined('timecourse', tc.subset_pk, CHECK);
    ctx.examined('dosing', dose.pk, CHECK);
    witness(rt.key, 'tc', highest);
    boundedRecord(dose.pk, rt.key, highest, ceiling.ceiling);
    if (highest <= ceiling.ceiling * MARGIN) continue;
    pending.push({
      key: rt.key, own: 'timecourse', record: `timecourse:${tc.subset_pk}`, against: 'cmax', what: `the highest point of timecourse ${tc.subset_pk}`,
      excess: { value: highest, ceiling: ceiling.ceiling, text: ceiling.text, dose, weightKg: ctx.bodyWeightKg(tc) },
      base: { study_sid: tc.study_sid, study_name: tc.study_name, subset_pk: tc.subset_pk, measurement_type: 'concentration', reported: highest, reported_unit: 'gram / liter' },
    });
  }
  const parameters = ctx.parameters;
  for (let i = 0; i < parameters.length; i++) {
    const p = parameters[i];
    const bounded = CONCENTRATIONS.has(p.measurement_type) && ctx.reported(p.output.study_sid) ? singleDoseCeiling(ctx, p, 'gram / liter', baseline, CONCENTRATION_TISSUES) : null;
    if (!bounded) continue;
    const { value, dose, ceiling } = bounded;
    const o = p.output;
    ctx.examined('output', o.pk, CHECK);
    ctx.examined('dosing', dose.pk, CHECK);
    // A calculated Cmax is its curve's highest point again: no witness of its own, and its curve is the one to fix.
    const reported = p.source === 'reported';
    if (reported) witness(p.key, 'cmax', value);
    boundedRecord(dose.pk, p.key, value, ceiling.ceiling);
    if (value <= ceiling.ceiling * MARGIN) continue;
    pending.push({
      key: p.key, own: reported ? 'output' : 'timecourse', record: valueRecord(ctx, p), against: reported ? 'tc' : 'cmax', what: `${p.source} ${p.measurement_type}`,
      excess: { value, ceiling: ceiling.ceiling, text: ceiling.text, dose, weightKg: p.bodyWeightKg },
      base: { study_sid: o.study_sid, study_name: o.study_name, subset_pk: ctx.curveOf(p), output_pk: o.pk, measurement_type: p.measurement_type, subject: p.subject, reported: value, reported_unit: p.unit },
    });
  }
  return pending.map(({ key, excess, base, what, own, record, against }) => {
    const others = (witnesses.get(key) as { tc: number[]; cmax: number[] })[against];
    // The two agree within ×MARGIN: then the dose, not the curve or the value, is what moved.
    const doseToo = others.some((v) => Math.abs(Math.log(v / excess.value)) <= Math.log(MARGIN));
    // A witness within the dose's reach vouches for the dose: the value is what moved.
    const vouched = others.some((v) => v <= excess.ceiling * MARGIN);
    const f = excessFinding(ctx, excess, base, what, doseToo ? 'dose' : vouched ? own : null, doseToo, record);
    if (doseToo || vouched) return f;
    const everySubject = everySubjectAbove(ctx, excess.dose.pk, dosings.get(excess.dose.pk));
    return everySubject ? { ...f, culprit: 'dose', suspected_cause: `${f.suspected_cause ?? ''}${f.suspected_cause ? ' — ' : ''}${everySubject}` } : f;
  });
}

/** Fewest subjects of one dosing whose every bounded record must exceed its ceiling for the dose to be named. */
export const DOSE_SUBJECTS = 2;

/**
 * Why the dose is the record to fix when every bounded record of DOSE_SUBJECTS or more subjects of one dosing lies
 * above what it can give and the other studies' doses of the substance put it low (robust z below −INSIDE_Z): one
 * dose curated too small (a 10 mg/kg dose curated as 10 mg) rather than every subject's curve off alike; null
 * otherwise. A typical dose (or one without a reference) leaves it open: a study's curves curated in one wrong
 * unit exceed it alike too.
 */
function everySubjectAbove(ctx: QaContext, dosePk: number, d: { keys: Set<string>; within: boolean } | undefined): string | null {
  if (!d || d.within || d.keys.size < DOSE_SUBJECTS) return null;
  const own = ownJudgment(rangeRun(ctx), `dosing:${dosePk}`);
  if (own === null || !(own.z < -INSIDE_Z)) return null;
  return `the dose is the record to fix: every record of its ${d.keys.size} subjects lies above what it can give, and the other studies' doses put it low (robust z ${fmt(own.z)})`;
}

/**
 * The single dose of a positive value (in `unit`, of `tissues`: plasma, serum or blood unless told, of a substance without a pre-dose
 * level in its study) and the concentration ceiling it sets; null when the value cannot be bounded.
 */
function singleDoseCeiling(
  ctx: QaContext, p: ParameterValue, unit: string, baseline: ReadonlySet<string>, tissues: ReadonlySet<string> = CIRCULATING,
): { value: number; dose: InterventionRecord; ceiling: { ceiling: number; text: string } } | null {
  if (p.unit !== unit || p.value === null || !(p.value > 0) || !tissues.has(p.tissue ?? '')) return null;
  const o = p.output;
  if (baseline.has(`${o.study_sid}|${o.substance}`)) return null;
  const dose = singleDose(ctx.dosingOfSet(o.intervention_pks), o.substance);
  const ceiling = dose && concentrationCeiling(ctx, dose, o, p.bodyWeightKg);
  return dose && ceiling ? { value: p.value, dose, ceiling } : null;
}

const AUCS: ReadonlySet<string> = new Set(['auc_inf', 'auc_end']);

/** The half-life (h) of the key among values of the same source (a stored calculated one: of the same timecourse); from kel when no t½. */
function halfLifeOf(ctx: QaContext, p: ParameterValue): ParameterValue | null {
  let best: ParameterValue | null = null;
  for (const q of ctx.parametersByKey.get(p.key) ?? []) {
    if (q.source !== p.source || q.value === null || !(q.value > 0)) continue;
    if (p.source === 'calculated' && q.output.subset_pk !== p.output.subset_pk) continue;
    if ((q.measurement_type === 'thalf' && q.unit === 'hour') || (q.measurement_type === 'kel' && q.unit === '1 / hour' && best === null)) best = q;
  }
  return best;
}

/**
 * AUC above dose / (plasma volume · λz): AUC = F·D/CL and CL = λz·Vz with Vz ≥ Vp, so AUC ≤ D·t½ / (ln 2 · Vp)
 * (an AUC over an interval is at most AUC∞). The AUC and the t½ (or kel) of the same key and source, after a
 * single dose of the measured substance. Flagged beyond MARGIN; the slips of the AUC, the dose and the t½ (too
 * short) that bring it back are named; the culprit is the AUC only when no t½ slip would explain it (else undecided).
 */
export function aucFindings(ctx: QaContext, baseline: ReadonlySet<string>): Finding[] {
  const findings: Finding[] = [];
  const parameters = ctx.parameters;
  for (let i = 0; i < parameters.length; i++) {
    const p = parameters[i];
    const bounded = AUCS.has(p.measurement_type) && ctx.reported(p.output.study_sid) ? singleDoseCeiling(ctx, p, 'gram * hour / liter', baseline) : null;
    const half = bounded ? halfLifeOf(ctx, p) : null;
    if (!bounded || !half) continue;
    const { value, dose, ceiling } = bounded;
    const o = p.output;
    const thalf = half.measurement_type === 'thalf' ? (half.value as number) : Math.LN2 / (half.value as number);
    const bound = (ceiling.ceiling * thalf) / Math.LN2;
    ctx.examined('output', o.pk, CHECK);
    if (value <= bound * MARGIN) continue;
    const ratio = value / bound;
    const mass = ctx.molarMass(o.substance);
    const inverse = (causes: readonly SuspectedCause[]) => causes.map((c) => ({ ...c, factor: 1 / c.factor }));
    const own = fixingCause(slipFactors(p.measurement_type as 'auc_inf', { molarMass: mass }), ratio, true);
    const doseFix = fixingCause(inverse(slipFactors('dose', { molarMass: mass, bodyWeightKg: p.bodyWeightKg })), ratio, true);
    const back = (c: SuspectedCause | null) => (c ? { ...c, factor: 1 / c.factor } : null);
    // A t½ curated too short (×f, f < 1) lowers the bound by f, like a dose; a kel curated too large (×f, f > 1) by 1/f.
    const halfFix = half.measurement_type === 'thalf'
      ? back(fixingCause(inverse(slipFactors('thalf')), ratio, true))
      : fixingCause(slipFactors('kel'), ratio, true);
    const causes = causeList([own, back(doseFix), halfFix], [`${p.source} ${p.measurement_type}`, 'dose', half.measurement_type]);
    findings.push(finding({
      kind: 'physiology', severity: own || doseFix || halfFix ? 'major' : 'minor', study_sid: o.study_sid, study_name: o.study_name,
      subset_pk: ctx.curveOf(p), output_pk: o.pk, measurement_type: o.measurement_type, subject: p.subject, reported: value,
      // A calculated AUC is its curve's and dose's: either may hold the slip.
      reported_unit: p.unit, recomputed: bound, recomputed_unit: p.unit, ratio, culprit: halfFix || p.source !== 'reported' ? null : 'output', intervention_pk: dose.pk,
      suspected_cause: causes.text,
      message: `${p.source} ${o.measurement_type} ${fmt(value)} g·h/L is ×${fmt(ratio)} the most a single dose can give with t½ ${fmt(thalf)} h (output ${half.output.pk}): ${ceiling.text} × t½ / ln 2 = ${fmt(bound)} g·h/L`,
      details: { rule: 'auc-above-dose-per-plasma-clearance', dose_pk: dose.pk, thalf_output_pk: half.output.pk, value_record: valueRecord(ctx, p), cause_kinds: causes.kinds, cause_factors: causes.factors },
    }));
  }
  return findings;
}

export const physiologyCheck: QaCheck = {
  kind: 'physiology',
  description: 'physiological bounds: an apparent volume below the plasma volume; a concentration after a single dose above dose / plasma volume; an AUC above dose · t½ / (ln 2 · plasma volume)',
  run(ctx) {
    const findings: Finding[] = [];
    const parameters = ctx.parameters;
    // Each bound is a record's own (its dose, its subject, its study's baselines): a study not reported gives nothing.
    for (let i = 0; i < parameters.length; i++) {
      if (!ctx.reported(parameters[i].output.study_sid)) continue;
      const volume = volumeFinding(ctx, parameters[i]);
      if (volume) findings.push(volume);
    }
    const baseline = withBaseline(ctx);
    findings.push(...concentrationFindings(ctx, baseline));
    findings.push(...aucFindings(ctx, baseline));
    return findings;
  },
};
