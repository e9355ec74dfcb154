/**
 * The records of a study that checks/within-study.ts compares with each other:
 * every reported or stored calculated PK parameter and every concentration
 * timecourse, with the arm it belongs to, the dose it is normalised by and the
 * pool of records it may be compared with.
 *
 * - An arm is a match key (study, subject, intervention set, substance, tissue).
 * - The pool: same study, substance, tissue, route and application of the dose,
 *   the same other interventions (a co-medication, a fasting state: an
 *   inhibitor raises an AUC tenfold, which must never look like a slip), the
 *   same measurement type and canonical unit (and for auc_end the interval).
 * - Dose normalisation (linear PK): Cmax, AUC and concentrations ÷ dose; CL,
 *   V, t½, kel, tmax and MRT are dose-independent and compared as they are.
 *   The dose is the set's one `dosing` with a value (or the one of the record's
 *   substance), in grams when it converts (molar with the molar mass);
 *   a metabolite is normalised by its parent's dose.
 */
import type { InterventionRecord, OutputRecord } from '../data/model.js';
import { subjectLabel, subjectOf } from '../data/dataset.js';
import { conversionFactorOrNull } from '../units/convert.js';
import type { QaContext, RecomputedTimecourse } from './context.js';
import { concentrationSeries } from './input-checks.js';
import { canonicalUnit, type ParameterValue } from './parameters.js';
import { slipFamilyOf } from './slip-factor.js';
import type { SlipFamily } from './causes.js';
import { Numbering, Slots, type KeyPart } from './study-ids.js';
import type { ReportedParameter } from './tolerances.js';
import { isDose } from './dose-units.js';

/** `other`: a measurement type that is no PK parameter (an amount excreted, a metabolic ratio), known by its unit only. */
export type ItemMeasure = ReportedParameter | keyof typeof PARTIAL_PARAMETERS | 'mrt' | 'curve' | 'other';

/**
 * PK parameters of one route of elimination or of the unbound drug, each pooled with its own kind only (a CLr with
 * CLr) and slipping as the parameter it is a part of: like a CL or V they do not scale with the dose, so arms of
 * other doses and a pair of arms judge them as they judge a CL.
 */
const PARTIAL_PARAMETERS = {
  clearance_renal: 'clearance', clearance_unbound: 'clearance', clearance_intrinsic: 'clearance', clearance_intrinsic_unbound: 'clearance', vd_unbound: 'vd',
} as const satisfies Record<string, ReportedParameter>;

/** The slip family of a parameter item: an MRT slips like a t½, a partial parameter like its whole. */
function parameterFamily(measure: ItemMeasure): SlipFamily {
  if (measure === 'mrt') return 'thalf';
  return (PARTIAL_PARAMETERS as Record<string, ReportedParameter>)[measure] ?? (measure as ReportedParameter);
}

/** Measures divided by the dose before comparing (exposure ∝ dose). */
export const EXPOSURE: ReadonlySet<ItemMeasure> = new Set(['cmax', 'auc_end', 'auc_inf', 'curve']);
const PARAMETERS: ReadonlySet<string> = new Set(['cmax', 'auc_end', 'auc_inf', 'clearance', 'vd', 'vd_ss', 'thalf', 'kel', 'tmax', 'mrt', ...Object.keys(PARTIAL_PARAMETERS)]);

export interface ArmDose {
  /** The dosing intervention's pk. */
  pk: number;
  /** In grams when the unit converts, else in `unit`. */
  value: number;
  unit: string;
}

export interface CurveProfile {
  /** Hours after the dose, ascending, > 0, with a positive concentration. */
  time: number[];
  /** Concentrations in the canonical unit. */
  conc: number[];
}

export interface StudyItem {
  arm: string;
  /** `output:<pk>` or `timecourse:<subset_pk>`: a stored calculated output belongs to its timecourse. */
  record: string;
  measure: ItemMeasure;
  source: 'reported' | 'calculated' | 'curve';
  /** The measurement type (`concentration` for a curve). */
  type: string;
  /** The slip-factor family (causes.ts vocabulary): a curve slips like a Cmax, an MRT like a t½, `other` by its unit. */
  family: SlipFamily;
  /**
   * The pool, numbered (`StudyItems.pools`): same `base` and the same condition (route, application and
   * every other intervention). Numbers, not key text: the check groups 23,000 items of the shared export by
   * pool, base and placement, and hashing long keys cost more than the statistics.
   */
  pool: number;
  /** The pool key without the conditions, numbered: study, source, substance, tissue, measure, unit, interval. */
  base: number;
  /**
   * The wider pools, for records whose strict pool has too few arms: the items of the same `base`, `kind`
   * and wider condition (numbered). Without the other interventions (≥ ×30: no inhibitor moves an arm that
   * far), and without the route too (≥ ×300: no bioavailability either). Groups stay apart from individuals
   * there (a study's individual table and group table may each be consistently curated in another unit, and
   * a wide pool has no centre to tell which).
   */
  kind: 'group' | 'individual';
  wider: readonly number[];
  /**
   * The placement key, numbered: record, measure and output. A record's measure is placed in one pool only,
   * and a levelled curve is a copy of its item (study-pools.ts `curveLevels`) that keeps this number.
   */
  slot: number;
  study_sid: string;
  study_name: string;
  subject: string | null;
  /** ln of the value (÷ dose for exposure measures); for a curve 0 (its level comes from the profiles). */
  log: number;
  /** ln of the value before dose normalisation (exposure measures with a dose), else null. */
  rawLog: number | null;
  value: number;
  unit: string;
  dose: ArmDose | null;
  bodyWeightKg: number | null;
  output: OutputRecord | null;
  timecourse: RecomputedTimecourse | null;
  profile: CurveProfile | null;
}

/** The items of a context with the number of pools, bases and slots they use (ids run from 0). */
export interface StudyItems {
  items: StudyItem[];
  pools: number;
  bases: number;
  slots: number;
}

/** A conversion factor, or null when the units do not convert (the units layer caches both outcomes). */
function tryFactor(from: string, to: string, molarMass: number | null): number | null {
  return conversionFactorOrNull(from, to, molarMass === null ? undefined : { molarMass });
}

/** The dose and the pool's conditions of an intervention set, for the record's substance. */
interface ArmSetting {
  dose: ArmDose | null;
  /** route, application and every other intervention of the set, numbered. */
  condition: number;
  /** The same without the other interventions, and without the route too (the wider pools): `StudyItem.wider`. */
  wider: readonly number[];
  /** route, application and the other substances dosed (not the other interventions: body position, sleep, a meal), numbered. */
  drugCondition: number;
}

/** Whether two lists of pks are the same, in the same order. */
function samePks(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** Whether the non-null times of a timecourse are out of order somewhere. */
function unsortedTimes(times: readonly (number | null)[]): boolean {
  let previous: number | null = null;
  for (let i = 0; i < times.length; i++) {
    const t = times[i];
    if (t === null) continue;
    if (previous !== null && t < previous) return true;
    previous = t;
  }
  return false;
}

function armSetting(ctx: QaContext, pks: readonly number[], substance: string | null, conditions: Numbering): ArmSetting {
  const interventions: InterventionRecord[] = [];
  for (const pk of pks) {
    const i = ctx.dataset.intervention(pk);
    if (i && i.normed) interventions.push(i);
  }
  const dosings = interventions.filter((i) => isDose(i) && i.value !== null && i.value > 0 && i.unit);
  const primary = dosings.length === 1 ? dosings[0] : (dosings.find((d) => d.substance === substance) ?? null);
  const otherInterventions = interventions.filter((i) => i !== primary);
  const text = (i: InterventionRecord) => `${i.measurement_type}:${i.substance ?? ''}:${i.choice ?? ''}:${i.route ?? ''}`;
  const others = otherInterventions.map(text).sort();
  const drugs = otherInterventions.filter((i) => i.measurement_type === 'dosing' || i.measurement_type === 'qualitative dosing').map(text).sort();
  let dose: ArmDose | null = null;
  if (primary) {
    const molar = ctx.molarMass(primary.substance);
    const grams = tryFactor(primary.unit as string, 'gram', molar);
    dose = grams === null ? { pk: primary.pk, value: primary.value as number, unit: primary.unit as string } : { pk: primary.pk, value: (primary.value as number) * grams, unit: 'gram' };
  }
  const route = primary ? `${primary.route ?? ''}/${primary.application ?? ''}/${primary.substance ?? ''}/${dose?.unit}` : 'no dose';
  return {
    dose,
    condition: conditions.of([`${route}|${others.join(',')}`]),
    wider: [conditions.of([route]), conditions.of([`${primary?.substance ?? ''}/${dose?.unit ?? ''}`])],
    drugCondition: conditions.of([`${route}|${drugs.join(',')}`]),
  };
}

const hoursPer = (unit: string): number | null => tryFactor(unit, 'hour', null);

/** A timecourse's positive points after the dose, hours and canonical concentrations, ascending; null when unusable. */
export function curveProfile(rt: RecomputedTimecourse, molarMass: number | null): { profile: CurveProfile; unit: string } | null {
  const { tc } = rt;
  const series = concentrationSeries(tc);
  if (!series || !tc.time_unit || !tc.unit || series.values.length !== tc.time.length) return null;
  const perHour = hoursPer(tc.time_unit);
  const canonical = canonicalUnit(tc.unit, molarMass);
  if (perHour === null || canonical === null) return null;
  const shift = rt.dose?.time ?? 0;
  const points: [number, number][] = [];
  tc.time.forEach((t, i) => {
    const c = series.values[i];
    if (t === null || c === null || !Number.isFinite(t) || !Number.isFinite(c)) return;
    const h = (t - shift) * perHour;
    if (h > 0 && c > 0) points.push([h, c * canonical.factor]);
  });
  points.sort((a, b) => a[0] - b[0]);
  const time: number[] = [];
  const conc: number[] = [];
  for (let i = 0; i < points.length; i++) {
    const h = points[i][0];
    const c = points[i][1];
    if (time.length && time[time.length - 1] === h) continue; // a duplicated time: the input check reports it
    time.push(h);
    conc.push(c);
  }
  return time.length >= 3 ? { profile: { time, conc }, unit: canonical.unit } : null;
}

/**
 * The parts of a pool's base. Reported values are pooled apart from calculated values and curves: when a
 * study's reported values share one slip (every CL in mL curated as L), a mixed pool would blame the records
 * that are right.
 */
function baseParts(study: string, source: string, substance: string | null, tissue: string | null, measure: string, unit: string, interval: string): KeyPart[] {
  return [study, source === 'reported' ? 'r' : 't', substance, tissue, measure, unit, interval];
}

/** Smallest factors the wider pools may name (see StudyItem.widerPools). */
export const LOOSE_FACTOR = 30;
export const LOOSER_FACTOR = 300;

/** The smallest factor each wider pool may name, in the order of `StudyItem.wider`. */
export const WIDER_FACTORS: readonly number[] = [LOOSE_FACTOR, LOOSER_FACTOR];

/** The interval of an auc_end (its end time in hours, two digits), '' otherwise. */
function intervalOf(o: OutputRecord, measure: string): string {
  if (measure !== 'auc_end' || o.time === null || !o.time_unit) return '';
  const h = hoursPer(o.time_unit);
  return h === null ? `${o.time} ${o.time_unit}` : `0-${+(o.time * h).toPrecision(2)}h`;
}

/** Numbers of the run: conditions, pool bases, pools (a base under a condition) and placement slots. */
interface Ids {
  conditions: Numbering;
  bases: Numbering;
  pool(base: number, condition: number): number;
  slots: Slots;
}

/**
 * A reported value of a measurement type that is no PK parameter, as an item, when its unit can suffer a unit slip
 * (slip-factor.ts `slipFamilyOf`: a fraction's ×100 too); null otherwise. Not dose-normalised (a biomarker does not scale with the dose
 * of a drug), so only arms with the same dose are pooled; nor across populations (a bilirubin level of a cirrhosis
 * group is ×30 a healthy group's); by the time it was measured at (a concentration at 50 min, an amount in 24 h);
 * in the wider pools only without the other interventions that are no drug (never across drugs or routes), and
 * never as a pair (no other record of its arm tells a slip from biology).
 */
function otherItem(p: ParameterValue, setting: ArmSetting, population: string, record: string, ids: Ids): StudyItem | null {
  const family = slipFamilyOf(p.output.measurement_type, p.unit as string);
  if (family === null) return null;
  const o = p.output;
  const at = o.time === null ? '' : `${o.time} ${o.time_unit ?? ''}`;
  const base = ids.bases.of(baseParts(o.study_sid, 'reported', o.substance, o.tissue, `other:${o.measurement_type}`, p.unit as string, at));
  const condition = ids.conditions.of([`${setting.condition}|${setting.dose?.value ?? ''}|${population}`]);
  // Without the other interventions that are no drug (a body position, a sleep state), from ×30 only (WIDER_FACTORS):
  // an inducer moves a concentration ×30 (rifampicin on midazolam), a body position does not.
  const loose = ids.conditions.of([`${setting.drugCondition}|${setting.dose?.value ?? ''}|${population}`]);
  return {
    arm: p.key, record, measure: 'other', source: 'reported', type: o.measurement_type, family,
    pool: ids.pool(base, condition), base, kind: o.individual_pk === null ? 'group' : 'individual', wider: [loose, loose],
    slot: ids.slots.ofValue(o.pk, 'other', record),
    study_sid: o.study_sid, study_name: o.study_name, subject: p.subject, log: Math.log(p.value as number), rawLog: null,
    value: p.value as number, unit: p.unit as string, dose: setting.dose, bodyWeightKg: p.bodyWeightKg, output: o, timecourse: null, profile: null,
  };
}

/** Every parameter and curve of the context as a within-study item, with its pool, base and slot numbered. */
export function studyItems(ctx: QaContext): StudyItems {
  const items: StudyItem[] = [];
  const conditions = new Numbering();
  const bases = new Numbering();
  const slots = new Slots();
  // Pool numbers by base, then condition: a pool is a base under one condition.
  const poolsOfBase: Map<number, number>[] = [];
  let pools = 0;
  const poolOf = (base: number, condition: number): number => {
    const byCondition = (poolsOfBase[base] ??= new Map());
    let pool = byCondition.get(condition);
    if (pool === undefined) byCondition.set(condition, (pool = pools++));
    return pool;
  };
  const ids: Ids = { conditions, bases, pool: poolOf, slots };
  // Settings by intervention pks (in their order) and substance; the separator ends the list of pks.
  const settingKeys = new Numbering();
  const settings: ArmSetting[] = [];
  const settingOf = (pks: readonly number[], substance: string | null) => {
    const id = settingKeys.of([...pks, '|', substance]);
    if (id === settings.length) settings.push(armSetting(ctx, pks, substance, conditions));
    return settings[id];
  };
  // In front of it, the setting last found for an arm's match key (one string per key, ~5 values each), used when
  // the pks and substance are the same.
  const byArm = new Map<string, { pks: readonly number[]; substance: string | null; setting: ArmSetting }>();
  const settingOfArm = (arm: string, pks: readonly number[], substance: string | null) => {
    const hit = byArm.get(arm);
    if (hit !== undefined && hit.substance === substance && samePks(hit.pks, pks)) return hit.setting;
    const setting = settingOf(pks, substance);
    byArm.set(arm, { pks, substance, setting });
    return setting;
  };
  // One record string per timecourse: its stored calculated outputs and its curve share it (fewer strings, hashed once).
  const timecourseRecords = new Map<number, string>();
  const timecourseRecord = (subset: number): string => {
    let record = timecourseRecords.get(subset);
    if (record === undefined) timecourseRecords.set(subset, (record = `timecourse:${subset}`));
    return record;
  };
  const subsetOf = (p: ParameterValue): number | undefined => ctx.curveOf(p) ?? undefined;
  const recordOf = (p: ParameterValue): string => {
    if (p.source === 'reported') return `output:${p.output.pk}`;
    const subset = subsetOf(p);
    return subset === undefined ? `calculated:${p.key}` : timecourseRecord(subset);
  };
  // By subset pk: whether the timecourse's times are out of order (a calculated value without one is not).
  const unsorted = new Map<number, boolean>();
  const unsortedCalculated = (subset: number | undefined): boolean => {
    if (subset === undefined) return false;
    let result = unsorted.get(subset);
    if (result === undefined) {
      const tc = ctx.timecourseBySubset.get(subset)?.tc;
      unsorted.set(subset, (result = tc ? unsortedTimes(tc.time) : false));
    }
    return result;
  };
  // The marks joined, once per list (the context keeps one list per subject).
  const joined = new Map<readonly string[], string>();
  const marksOf = (o: OutputRecord): string => {
    const marks = ctx.subjectMarks(o);
    let text = joined.get(marks);
    if (text === undefined) joined.set(marks, (text = marks.join('+')));
    return text;
  };
  // Loops by index: ~32,000 values, mostly before the loop is optimised, when for…of allocates per element.
  const parameters = ctx.parameters;
  for (let i = 0; i < parameters.length; i++) {
    const p = parameters[i];
    // Pools are within one study: a study the run does not report has nothing to give the others.
    if (p.value === null || !(p.value > 0) || p.unit === null || !ctx.reported(p.output.study_sid)) continue;
    if (!PARAMETERS.has(p.measurement_type)) {
      if (p.source === 'reported') {
        const item = otherItem(p, settingOfArm(p.key, p.output.intervention_pks, p.output.substance), marksOf(p.output), recordOf(p), ids);
        if (item) items.push(item);
      }
      continue;
    }
    // A calculated AUC to the last sample depends on the sampling grid, and PK-DB integrated unsorted times in list order.
    // A calculated tmax is the first sample of every IV curve: no grid to compare.
    if (p.source === 'calculated' && (p.measurement_type === 'auc_end' || p.measurement_type === 'tmax')) continue;
    let record: string;
    if (p.source === 'calculated') {
      const subset = subsetOf(p);
      if (unsortedCalculated(subset)) continue;
      record = subset === undefined ? `calculated:${p.key}` : timecourseRecord(subset);
    } else record = `output:${p.output.pk}`;
    const o = p.output;
    const measure = p.measurement_type as ItemMeasure;
    const setting = settingOfArm(p.key, o.intervention_pks, o.substance);
    const normalised = EXPOSURE.has(measure) && setting.dose !== null;
    const raw = Math.log(p.value);
    const base = bases.of(baseParts(o.study_sid, p.source, o.substance, o.tissue, measure, p.unit, intervalOf(o, measure)));
    // A partial parameter within its population only: end-stage renal disease takes a renal clearance ×1/100 of the
    // healthy arms' (Guay1988's hemodialysis patients), beyond any slip factor.
    const partial = measure in PARTIAL_PARAMETERS;
    const population = partial ? marksOf(o) : '';
    const condition = partial ? conditions.of([setting.condition, population]) : setting.condition;
    const wider = partial ? setting.wider.map((w) => conditions.of([w, population])) : setting.wider;
    // The fields in the order of the other two item literals (otherItem, curves): one hidden class for every item,
    // so the pool statistics that read them stay monomorphic.
    items.push({
      arm: p.key, record, measure, source: p.source, type: measure, family: parameterFamily(measure),
      pool: poolOf(base, condition), base, kind: o.individual_pk === null ? 'group' : 'individual',
      wider, slot: slots.ofValue(o.pk, measure, record),
      study_sid: o.study_sid, study_name: o.study_name, subject: p.subject,
      log: normalised ? raw - Math.log((setting.dose as ArmDose).value) : raw, rawLog: normalised ? raw : null,
      value: p.value, unit: p.unit, dose: setting.dose, bodyWeightKg: p.bodyWeightKg, output: o, timecourse: null, profile: null,
    });
  }
  for (const rt of ctx.timecourses) {
    if (!ctx.reported(rt.tc.study_sid)) continue;
    const member = rt.tc.output_pk.length ? ctx.dataset.output(rt.tc.output_pk[0]) : undefined;
    if (!member || rt.key === null) continue;
    const curve = curveProfile(rt, ctx.molarMass(member.substance));
    if (!curve) continue;
    const setting = settingOfArm(rt.key, rt.tc.intervention_pk, member.substance);
    const base = bases.of(baseParts(rt.tc.study_sid, 'curve', member.substance, member.tissue, 'curve', curve.unit, ''));
    const record = timecourseRecord(rt.tc.subset_pk);
    items.push({
      arm: rt.key, record, measure: 'curve', source: 'curve', type: 'concentration', family: 'cmax',
      pool: poolOf(base, setting.condition), base, kind: rt.tc.individual_pk === null ? 'group' : 'individual',
      wider: setting.wider, slot: slots.ofCurve(rt.tc.subset_pk),
      study_sid: rt.tc.study_sid, study_name: rt.tc.study_name, subject: subjectLabel(subjectOf(rt.tc)),
      log: 0, rawLog: setting.dose ? 0 : null, value: NaN, unit: curve.unit, dose: setting.dose,
      bodyWeightKg: ctx.bodyWeightKg(rt.tc), output: null, timecourse: rt, profile: curve.profile,
    });
  }
  return { items, pools, bases: bases.size, slots: slots.size };
}
