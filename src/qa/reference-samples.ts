/**
 * The values the reference-range check pools across studies (issue 13,
 * item 4), each with the stratum it is compared within. A stratum is one
 * quantity of one substance in one tissue (serum pooled with plasma: `poolTissue`), after one route (any for t½ and
 * kel: `poolRoute`) and kind of application, in one population (population.ts), in one unit:
 * - reported outputs: Cmax and AUC divided by the dose (the dose of the same
 *   substance in the intervention set, else the one dosed substance: a
 *   metabolite's AUC per dose of its parent; the dosed substance is part of
 *   the stratum; a per-kg dose of a subject without a curated weight in g/kg,
 *   in a stratum of its own); AUC over an interval also by the interval's end (in
 *   doublings of hours: AUC0–12 and AUC0–24 are not pooled); clearances,
 *   volumes, t½, MRT, kel and tmax as they are (tmax also by dosage form);
 *   per-kg values made absolute with the subject's body weight where known;
 *   concentrations of a substance nobody dosed (endogenous: glucose,
 *   bilirubin) as levels;
 * - concentration timecourses: the highest point divided by the dose, or,
 *   without any dose in the set, the median level; the body's own analytes
 *   (glucose in plasma: human-limits.ts `isBodyAnalyte`) always by their level,
 *   which is the body's whatever the study doses (a glucose curve's peak per
 *   gram of an OGTT's glucose or of a drug tells nothing);
 * - doses: each `dosing` intervention's amount (absolute, or per kg).
 * A value that cannot be placed says why (`Unplaced`, passed to a callback: the coverage marks it).
 */
import type { InterventionRecord, OutputRecord, TimecourseRecord } from '../data/model.js';
import { subjectLabel, subjectOf } from '../data/dataset.js';
import { representativeValue } from '../data/records.js';
import { conversionFactorOrNull } from '../units/convert.js';
import { doseAmount, isDose } from './dose-units.js';
import { beyondLivingLimits, isBodyAnalyte } from './human-limits.js';
import type { QaContext } from './context.js';
import type { RecordKind } from './coverage.js';
import { concentrationSeries } from './input-checks.js';
import { canonicalUnit, type ParameterValue } from './parameters.js';
import { coMedication, HEALTHY, populationLabel } from './population.js';
import { Numbering } from './study-ids.js';
import type { ReportedParameter } from './tolerances.js';
import type { SlipFamily } from './causes.js';
import { dosesItself, namedAfterDose, saltBase } from './substance-relations.js';

/** The molar mass of a substance (g/mol), cached per run. */
type MolarMass = (substance: string | null) => number | null;

export interface Unplaced {
  record: RecordKind;
  pk: number;
  reason: string;
}

/** Reported output types pooled as they are, with their slip-factor family. */
const DIRECT: Record<string, SlipFamily> = {
  clearance: 'clearance', clearance_renal: 'clearance', clearance_unbound: 'clearance', clearance_intrinsic: 'clearance',
  clearance_intrinsic_unbound: 'clearance', vd: 'vd', vd_ss: 'vd', vd_unbound: 'vd', thalf: 'thalf', mrt: 'thalf', kel: 'kel', tmax: 'tmax',
  // The absorption's own time scale, like tmax by dosage form (ABSORPTION): minutes read as hours slip them as they do a t½.
  thalf_absorption: 'thalf', kabs: 'kel',
  // A fraction of the dose or of the drug in plasma is the substance's, whatever the dose (recovery: OVER_INTERVAL).
  recovery: 'fraction', fraction_unbound: 'fraction', bioavailability: 'fraction', fraction_absorbed: 'fraction',
};
/**
 * Reported output types divided by the dose, with their slip-factor family. An amount excreted up to a time (in
 * urine, faeces, bile) per dose is the fraction of the dose recovered there: an amount's slips are a concentration's
 * (prefix, decimal, molar, per-kg dose), none of time.
 */
const PER_DOSE: Record<string, ReportedParameter> = { cmax: 'cmax', auc_end: 'auc_end', auc_inf: 'auc_inf', 'cumulative amount': 'cmax', amount: 'cmax' };
/** Types over an interval from the dose (an AUC to t, an amount or fraction recovered by t): binned by its end (`intervalBin`). */
const OVER_INTERVAL: ReadonlySet<string> = new Set(['auc_end', 'cumulative amount', 'amount', 'recovery']);
/** Types of the absorption, pooled by dosage form (a tablet's and a solution's differ by more than their spread). */
const ABSORPTION: ReadonlySet<string> = new Set(['tmax', 'thalf_absorption', 'kabs']);

export const REASONS = {
  type: 'no reference range for this measurement type',
  value: 'no positive value',
  unit: 'unit not convertible',
  dose: 'no single dose of the substance or its parent to normalise by',
  series: 'no positive concentration',
  living: "beyond what any living human has (the human-range check's finding)",
} as const;

const GRAM = 'gram';
/** The quantity of a dose sample. */
const DOSE = 'dose';
const GRAM_PER_KG = 'gram / kilogram';
/** The unit suffixes of a per-kg value, and of a value per per-kg dose of a subject without a weight (its own stratum). */
export const PER_KG = ' / kilogram';
export const PER_KG_DOSE = ' / (gram / kilogram)';

/** By unit, target unit and molar mass (nested: no key string per value). */
const factors = new Map<string, Map<string, Map<number | null, number | null>>>();

/**
 * The conversion factor, or null when the units do not convert; cached. A conversion that needs no molar mass
 * gives the same factor with any (convert.ts: no [substance] exponent), so it is computed once, not per substance.
 */
function factorOrNull(from: string, to: string, molarMass: number | null): number | null {
  const plain = factorFor(from, to, null);
  return plain !== null || molarMass === null ? plain : factorFor(from, to, molarMass);
}

function factorFor(from: string, to: string, molarMass: number | null): number | null {
  let byTo = factors.get(from);
  if (!byTo) factors.set(from, (byTo = new Map()));
  let byMass = byTo.get(to);
  if (!byMass) byTo.set(to, (byMass = new Map()));
  let factor = byMass.get(molarMass);
  if (factor === undefined) {
    factor = conversionFactorOrNull(from, to, molarMass === null ? undefined : { molarMass });
    byMass.set(molarMass, factor);
  }
  return factor;
}

const perGramUnits = new Map<string, string>();
/** `<unit> / gram`, one string per unit (an interned key hashes once in the stratum). */
function perGram(unit: string): string {
  let u = perGramUnits.get(unit);
  if (u === undefined) perGramUnits.set(unit, (u = `${unit} / gram`));
  return u;
}

/** The bin of an AUC interval's end: doublings of hours (AUC0–12 and AUC0–24 apart), `last` without a stated end. */
export function intervalBin(time: number | null, timeUnit: string | null): string {
  if (time === null || !timeUnit || !(time > 0)) return 'last';
  const hours = factorOrNull(timeUnit, 'hour', null);
  return hours === null ? 'last' : `0-2^${Math.round(Math.log2(time * hours))}h`;
}

interface SetInfo {
  /** The intervention pks, comma-separated. */
  key: string;
  interventions: InterventionRecord[];
  dosings: InterventionRecord[];
  /** Substances dosed in the set (dosing or qualitative dosing). */
  dosed: ReadonlySet<string>;
}

/** Where a value is pooled and what it is: one object per value (the shared export has ~18,000). */
export interface RangeSample {
  record: RecordKind;
  pk: number;
  study: string;
  studyName: string;
  /** The intervention set (its pks belong to one study): values of one arm count once. */
  arm: string;
  /** The pooling key: quantity, substance, tissue, route, application, dosed substance, unit, population, extra. */
  stratum: string;
  quantity: string;
  substance: string | null;
  tissue: string | null;
  route: string | null;
  /** The dosing that normalises the value (null for doses themselves and values not normalised). */
  dose: InterventionRecord | null;
  /** AUC interval bin, dosage form of a tmax, a dose's application. */
  extra: string;
  population: string;
  /** The factor family for slipFactors (causes.ts). */
  family: SlipFamily | 'dose';
  measurementType: string;
  value: number;
  unit: string;
  subject: string | null;
  subsetPk: number | null;
  outputPk: number | null;
  /** The dosing that normalises the value, or the dosing itself. */
  interventionPk: number | null;
  molarMass: number | null;
  bodyWeightKg: number | null;
}

/**
 * The tissue a value is pooled under: serum with plasma. A drug's serum and plasma concentrations are the same but
 * for the clotting factors the serum lacks (they differ by a few per cent for potassium, glucose or lactate: far
 * inside any reference's spread), and studies of one substance report either; blood, saliva and urine stay apart.
 * On the shared export 683 of the 12,422 values without a reference in their own stratum gain one.
 */
export function poolTissue(tissue: string | null): string | null {
  return tissue === 'serum' ? 'plasma' : tissue;
}

/** Quantities of disposition that the route does not change: the terminal half-life and its rate constant. */
const ROUTELESS: ReadonlySet<string> = new Set(['thalf', 'kel']);

/**
 * The route a value is pooled under: none for a terminal t½ or kel, which are the drug's elimination whatever the
 * route (an oral and an iv t½ of one substance agree but where absorption is slower than elimination, flip-flop,
 * by far less than a slip factor); the route for everything else (CL/F, V/F, MRT and tmax carry absorption). On
 * the shared export 154 of the 1,587 t½ and kel values without a reference in their own stratum gain one.
 */
export function poolRoute(quantity: string, route: string | null): string | null {
  return ROUTELESS.has(quantity) ? null : route;
}

/** Between the fields of a stratum: quantity, substance, tissue, route, application, dosed substance, unit, population, extra. */
export const STRATUM_SEPARATOR = '\u0001';
/** The index of the unit among a stratum's fields. */
export const STRATUM_UNIT_FIELD = 6;
/** The field of a stratum that names its substance (a dose's: the salt's base). */
const STRATUM_SUBSTANCE_FIELD = 1;
/** The field of a stratum that names the dosed substance (a salt's base: `saltBase`), and the one naming the population. */
export const STRATUM_DOSED_FIELD = 5;
export const STRATUM_POPULATION_FIELD = 7;

/** Readable: `caffeine cmax per dose (plasma, oral single dose, healthy)`. */
export function sampleLabel(s: RangeSample): string {
  const d = s.dose;
  const how = [d?.route ?? s.route, d?.application].filter(Boolean).join(' ');
  // The stratum names the base a salt's dose was pooled as (doseFor, a dose sample's substance): say so.
  const fields = s.stratum.split(STRATUM_SEPARATOR);
  if (s.quantity === DOSE && fields[STRATUM_SUBSTANCE_FIELD] !== s.substance) return `${s.substance} dose (as ${fields[STRATUM_SUBSTANCE_FIELD]}; ${[s.route, s.extra].filter(Boolean).join(', ')})`;
  const dosedAs = fields[STRATUM_DOSED_FIELD];
  const asBase = d && dosedAs !== d.substance ? ` (as ${dosedAs})` : '';
  const perDose = d && d.substance !== s.substance ? ` per dose of ${d.substance}${asBase}` : d ? ` per dose${asBase}` : '';
  return `${s.substance} ${s.quantity}${perDose} (${[s.tissue, how, s.extra, s.population].filter(Boolean).join(', ')})`;
}

interface Base {
  record: RecordKind;
  pk: number;
  study_sid: string;
  study_name: string;
  subject: string | null;
  subsetPk: number | null;
  outputPk: number | null;
  substance: string | null;
  tissue: string | null;
  molarMass: number | null;
  bodyWeightKg: number | null;
  measurementType: string;
  population: string;
  arm: string;
  /** The run's strata, each string once: 18,000 samples share ~3,000 (fewer survivors for the GC to copy). */
  strata: Strata;
}

/**
 * The strata of a run: numbered by their parts (study-ids.ts `Numbering`, a lookup per part of strings the
 * records hold), each key text built once when its number is new, rather than built and hashed per sample.
 */
interface Strata {
  ids: Numbering;
  text: string[];
  /** A dosed salt's base and its share of the salt's mass (substance-relations.ts `saltBase`), cached: a dose of codeine phosphate normalises as codeine. */
  salt: (substance: string | null) => { base: string; fraction: number } | null;
}

/** The sample, property by property (spreading objects per value cost ~10 µs each on the shared export). */
function sample(
  b: Base,
  quantity: string,
  dose: InterventionRecord | null,
  route: string | null,
  extra: string,
  family: SlipFamily | 'dose',
  value: number,
  unit: string,
): RangeSample {
  const r = dose?.route ?? route;
  const application = dose?.application;
  // A salt's dose counts as its base's (doseFor, and the dose samples): a value per dose of codeine phosphate is per
  // gram of codeine, a dose of codeine phosphate pooled with doses of codeine as the codeine it holds.
  const dosed = dose?.substance == null ? dose?.substance : (b.strata.salt(dose.substance)?.base ?? dose.substance);
  const substance = quantity === DOSE && b.substance !== null ? (b.strata.salt(b.substance)?.base ?? b.substance) : b.substance;
  const tissue = poolTissue(b.tissue);
  const pooledRoute = poolRoute(quantity, r);
  const id = b.strata.ids.of([quantity, substance, tissue, pooledRoute, application, dosed, unit, b.population, extra]);
  // A control character separates the fields (STRATUM_SEPARATOR): no name contains one. The unit is field STRATUM_UNIT_FIELD.
  const stratum = (b.strata.text[id] ??= `${quantity}\u0001${substance}\u0001${tissue}\u0001${pooledRoute}\u0001${application}\u0001${dosed}\u0001${unit}\u0001${b.population}\u0001${extra}`);
  return {
    record: b.record, pk: b.pk, study: b.study_sid, studyName: b.study_name, arm: b.arm, stratum, quantity, substance: b.substance, tissue: b.tissue,
    route: r, dose, extra, population: b.population, family, measurementType: b.measurementType, value, unit, subject: b.subject,
    subsetPk: b.subsetPk, outputPk: b.outputPk, interventionPk: dose?.pk ?? null, molarMass: b.molarMass, bodyWeightKg: b.bodyWeightKg,
  };
}

/** Builds the samples of a run; caches per intervention set, subject and population. */
export function rangeSamples(ctx: QaContext, unplaced: (u: Unplaced) => void): RangeSample[] {
  const samples: RangeSample[] = [];
  const masses = new Map<string | null, number | null>();
  const molarMass: MolarMass = (substance) => {
    let mass = masses.get(substance);
    if (mass === undefined) masses.set(substance, (mass = ctx.molarMass(substance)));
    return mass;
  };
  const sets = new Map<string, SetInfo>();
  /** `key`: the set's pks joined (a parameter value has it already); the set of an arm (intervention pks belong to one study). */
  const setInfo = (pks: readonly number[], known?: string): SetInfo => {
    const key = known ?? pks.join(',');
    let info = sets.get(key);
    if (!info) {
      const interventions = pks.map((pk) => ctx.dataset.intervention(pk)).filter((i): i is InterventionRecord => !!i && i.normed);
      const dosed = new Set(coMedication(interventions, []));
      info = { key, interventions, dosings: interventions.filter((i) => isDose(i) && representativeValue(i) !== null), dosed };
      sets.set(key, info);
    }
    return info;
  };
  const populations = new Map<string, string>();
  // The label of a subject's marks alone, once per marks list (the context keeps one list per subject).
  const markLabels = new Map<readonly string[], string>();
  const population = (r: { group_pk: number | null; individual_pk: number | null }, info: SetInfo, substance: string | null, dose: InterventionRecord | null): string => {
    const marks = ctx.subjectMarks(r);
    // The common case, nothing else dosed: the subject's marks alone (no key to build).
    let others = 0;
    for (const d of info.dosed) if (d !== substance && d !== dose?.substance) others++;
    if (others === 0) {
      if (marks.length === 0) return HEALTHY;
      let label = markLabels.get(marks);
      if (label === undefined) markLabels.set(marks, (label = populationLabel(marks, [])));
      return label;
    }
    const key = `${r.group_pk}|${r.individual_pk}|${info.key}|${substance}|${dose?.substance}`;
    let label = populations.get(key);
    if (label === undefined) {
      label = populationLabel(marks, coMedication(info.interventions, [substance, dose?.substance ?? null]));
      populations.set(key, label);
    }
    return label;
  };
  /** Fills in the base's population and arm; returns the normalising dose. */
  const place = (b: Base, record: { group_pk: number | null; individual_pk: number | null }, info: SetInfo) => {
    const dose = doseOf(info, b.substance);
    b.population = population(record, info, b.substance, dose === 'several' ? null : dose);
    b.arm = info.key;
    return dose;
  };
  const bases = new Map<string, ReturnType<typeof saltBase>>();
  const baseOf = (substance: string | null) => {
    if (substance === null) return null;
    let base = bases.get(substance);
    if (base === undefined) bases.set(substance, (base = saltBase(substance, molarMass)));
    return base;
  };
  const strata: Strata = { ids: new Numbering(), text: [], salt: baseOf };
  // One scratch base, refilled per value: `sample` copies what it keeps (an object per value showed in the GC).
  const b: Base = {
    record: 'output', pk: 0, study_sid: '', study_name: '', subject: null, subsetPk: null, outputPk: null, substance: null, tissue: null,
    molarMass: null, bodyWeightKg: null, measurementType: '', population: '', arm: '', strata,
  };

  const parameters = ctx.parameters;
  for (let i = 0; i < parameters.length; i++) {
    const p = parameters[i];
    if (p.source !== 'reported' || !PLACEABLE.has(p.measurement_type)) {
      if (p.source === 'reported') unplaced({ record: 'output', pk: p.output.pk, reason: REASONS.type });
      continue;
    }
    const o = p.output;
    const info = setInfo(o.intervention_pks, p.interventions);
    b.record = 'output';
    b.pk = o.pk;
    b.study_sid = o.study_sid;
    b.study_name = o.study_name;
    b.subject = p.subject;
    b.subsetPk = null;
    b.outputPk = o.pk;
    b.substance = o.substance;
    b.tissue = o.tissue;
    b.molarMass = molarMass(o.substance);
    b.bodyWeightKg = p.bodyWeightKg;
    b.measurementType = o.measurement_type;
    const placed = placeOutput(molarMass, p, info, b, place(b, o, info));
    if (typeof placed === 'string') unplaced({ record: 'output', pk: o.pk, reason: placed });
    else samples.push(placed);
  }
  for (const tc of ctx.concentrationTimecourses) {
    const { substance, tissue } = ctx.dataset.curveNames(tc);
    const info = setInfo(tc.intervention_pk, [...tc.intervention_pk].sort((x, y) => x - y).join(','));
    b.record = 'timecourse';
    b.pk = tc.subset_pk;
    b.study_sid = tc.study_sid;
    b.study_name = tc.study_name;
    b.subject = subjectLabel(subjectOf(tc));
    b.subsetPk = tc.subset_pk;
    b.outputPk = null;
    b.substance = substance;
    b.tissue = tissue;
    b.molarMass = molarMass(substance);
    b.bodyWeightKg = ctx.bodyWeightKg(tc);
    b.measurementType = 'concentration';
    const placed = placeTimecourse(molarMass, tc, info, b, place(b, tc, info));
    if (typeof placed === 'string') unplaced({ record: 'timecourse', pk: tc.subset_pk, reason: placed });
    else samples.push(placed);
  }
  for (const d of ctx.tables.interventions) {
    if (!d.normed || !isDose(d)) continue;
    const mass = molarMass(d.substance);
    const amount = doseAmount(d, mass);
    if (amount === null) {
      const v = representativeValue(d);
      unplaced({ record: 'dosing', pk: d.pk, reason: v === null || !(v > 0) ? REASONS.value : REASONS.unit });
      continue;
    }
    // A salt's dose as the base it holds, with the base's molar mass (its molar ↔ mass slips are the base's).
    const salt = baseOf(d.substance);
    const b: Base = {
      record: 'dosing', pk: d.pk, study_sid: d.study_sid, study_name: d.study_name, subject: null, subsetPk: null, outputPk: null, substance: d.substance,
      tissue: null, molarMass: salt ? molarMass(salt.base) : mass, bodyWeightKg: null, measurementType: 'dosing', population: '', arm: `dose ${d.pk}`, strata,
    };
    const s = sample(b, DOSE, null, d.route, d.application ?? '', 'dose', amount.value * (salt?.fraction ?? 1), amount.perKg ? GRAM_PER_KG : GRAM);
    s.interventionPk = d.pk;
    samples.push(s);
  }
  return samples;
}

/**
 * The dosing that normalises a value of `substance`: the same substance (or a salt of it), else the only substance
 * dosed, else the one it is named after; `several` when ambiguous.
 */
function doseOf(info: SetInfo, substance: string | null): InterventionRecord | null | 'several' {
  let own: InterventionRecord | null = null;
  let owned = 0;
  for (const d of info.dosings) {
    if (!dosesItself(d.substance, substance)) continue;
    own = d;
    owned++;
  }
  if (owned > 0) return owned === 1 ? own : 'several';
  if (info.dosings.length <= 1) return info.dosings[0] ?? null;
  // Several dosings, none of the substance: a metabolite named after one of them (codeine-6-glucuronide beside
  // codeine phosphate and quinidine) belongs to that one.
  const parents = info.dosings.filter((d) => namedAfterDose(d.substance, substance));
  return parents.length === 1 ? parents[0] : 'several';
}

/**
 * The first of several doses of the substance itself when they share one route and dosage form (all that a value
 * pooled as it is takes of its dose: a CL, t½ or tmax of a loading and maintenance regimen); `several` when they
 * differ or the doses are not the substance's own (two drugs, neither the measured one).
 */
function ownDosesAlike(info: SetInfo, substance: string | null): InterventionRecord | 'several' {
  let first: InterventionRecord | null = null;
  for (const d of info.dosings) {
    if (!dosesItself(d.substance, substance)) continue;
    if (first === null) first = d;
    else if (d.route !== first.route || (d.form ?? null) !== (first.form ?? null) || d.route == null) return 'several';
  }
  return first ?? 'several';
}

/**
 * The dose a value is divided by: in grams for a subject (per-kg doses with the body weight), or, for a per-kg dose
 * of a subject without a curated weight, in g/kg (the value then goes to a stratum of its own, `… / (gram / kilogram)`,
 * pooled only with other per-kg doses: no weight is assumed). A reason when the dose is not an amount.
 */
function doseFor(molarMass: MolarMass, dose: InterventionRecord, weight: number | null, strata: Strata): { amount: number; per: (unit: string) => string } | string {
  const amount = doseAmount(dose, molarMass(dose.substance));
  if (amount === null) return REASONS.unit;
  // A salt's dose as its base's: codeine per gram of codeine, whether dosed as codeine or as codeine phosphate.
  const value = amount.value * (strata.salt(dose.substance)?.fraction ?? 1);
  if (!amount.perKg) return { amount: value, per: perGram };
  return weight !== null && weight > 0 ? { amount: value * weight, per: perGram } : { amount: value, per: perGramPerKg };
}

const perGramPerKgUnits = new Map<string, string>();
function perGramPerKg(unit: string): string {
  let u = perGramPerKgUnits.get(unit);
  if (u === undefined) perGramPerKgUnits.set(unit, (u = `${unit}${PER_KG_DOSE}`));
  return u;
}

/** The reported types a reference can hold: the direct and per-dose ones, and an endogenous concentration (a level). */
const PLACEABLE: ReadonlySet<string> = new Set([...Object.keys(DIRECT), ...Object.keys(PER_DOSE), 'concentration']);

function placeOutput(molarMass: MolarMass, p: ParameterValue, info: SetInfo, b: Base, dose: InterventionRecord | null | 'several'): RangeSample | string {
  const o: OutputRecord = p.output;
  const direct = DIRECT[o.measurement_type];
  const perDose = PER_DOSE[o.measurement_type];
  const endogenous = o.measurement_type === 'concentration' && (info.dosings.length === 0 || isBodyAnalyte(b.substance, b.tissue));
  if (!direct && !perDose && !endogenous) return REASONS.type;
  if (p.value === null || !(p.value > 0)) return p.value === null && o.unit ? REASONS.unit : REASONS.value;
  if (p.unit === null || p.factor === null) return REASONS.unit;
  if (endogenous) return beyondLivingLimits(b.substance, b.tissue, p.value, p.unit, b.molarMass) ? REASONS.living : sample(b, 'level', null, null, '', 'cmax', p.value, p.unit);
  if (direct) {
    // A value pooled as it is needs of its dose only the route (and a tmax the dosage form): several doses of the
    // substance (a loading dose and maintenance doses) by one route and form give both.
    const given = dose === 'several' ? ownDosesAlike(info, b.substance) : dose;
    if (given === 'several') return REASONS.dose;
    let value = p.value;
    let unit = p.unit;
    if (unit.endsWith(PER_KG) && p.bodyWeightKg !== null && p.bodyWeightKg > 0) {
      value *= p.bodyWeightKg;
      unit = unit.slice(0, -PER_KG.length);
    }
    const extra = ABSORPTION.has(o.measurement_type) ? (given?.form ?? '') : OVER_INTERVAL.has(o.measurement_type) ? intervalBin(o.time, o.time_unit) : '';
    return sample(b, o.measurement_type, null, given?.route ?? p.route, extra, direct, value, unit);
  }
  if (dose === null || dose === 'several') return REASONS.dose;
  const by = doseFor(molarMass, dose, p.bodyWeightKg, b.strata);
  if (typeof by === 'string') return by;
  const extra = OVER_INTERVAL.has(o.measurement_type) ? intervalBin(o.time, o.time_unit) : '';
  return sample(b, o.measurement_type, dose, dose.route, extra, perDose, p.value / by.amount, by.per(p.unit));
}

function placeTimecourse(molarMass: MolarMass, tc: TimecourseRecord, info: SetInfo, b: Base, dose: InterventionRecord | null | 'several'): RangeSample | string {
  const values = concentrationSeries(tc)?.values ?? [];
  // The highest positive point in one pass; the sorted list only for the median level of an undosed set.
  let highest = 0;
  for (const v of values) if (v !== null && Number.isFinite(v) && v > highest) highest = v;
  if (highest === 0) return REASONS.series;
  const canonical = tc.unit ? canonicalUnit(tc.unit, b.molarMass) : null;
  if (canonical === null) return REASONS.unit;
  if (info.dosings.length === 0 || isBodyAnalyte(b.substance, b.tissue)) {
    const positive = values.filter((v): v is number => v !== null && Number.isFinite(v) && v > 0).sort((x, y) => x - y);
    const level = positive[positive.length >> 1] * canonical.factor;
    if (beyondLivingLimits(b.substance, b.tissue, level, canonical.unit, b.molarMass)) return REASONS.living;
    return sample(b, 'level', null, null, '', 'cmax', level, canonical.unit);
  }
  if (dose === null || dose === 'several') return REASONS.dose;
  const by = doseFor(molarMass, dose, b.bodyWeightKg, b.strata);
  if (typeof by === 'string') return by;
  return sample(b, 'cmax', dose, dose.route, '', 'cmax', (highest * canonical.factor) / by.amount, by.per(canonical.unit));
}
