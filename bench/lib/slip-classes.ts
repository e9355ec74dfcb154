/**
 * The curation slips the qa-recall bench plants (issue 13 §10), each its own
 * class, and which records of an export each can hit. Eligibility follows the
 * record's kind and its unit's dimension only, never a study or a substance,
 * so the planter works on any export:
 * - a reported output (normed, not calculated, not a timecourse or array point,
 *   a non-zero value/mean/median) ×1000 or ×1/1000 when its unit carries mass,
 *   amount, volume or activity; ×60, ×1/60 or ×24 when it carries time to the
 *   power ±1 (t½, tmax, AUC, CL, kel, MRT); per-kg ×1/70 when it carries a
 *   volume (CL, Vd: an absolute value curated as if per 70 kg);
 * - a reported output ×10 (a decimal slip) when its unit carries an amount or time;
 * - molar ↔ mass (a reported output, or a whole concentration timecourse, of a
 *   substance with a known molar mass M, its unit carrying a mass or an amount
 *   of substance): the authors' µmol/L curated as mg/L (×1000/M on a mass
 *   unit) or their mg/L curated as µmol/L (×M/1000 on a molar unit); only
 *   where that factor is at least ×2 either way (M ≤ 500 or M ≥ 2000);
 * - a whole concentration timecourse (normed, ≥ 3 numeric points) ×10 or ×1000;
 * - its times ×60 (minutes read as hours) when its time unit is the hour;
 * - a dose (a normed `dosing` intervention with a non-zero value that some
 *   output refers to) ×10 or ×1000; an absolute dose (a mass) per-kg ×1/70:
 *   the authors' mg/kg curated as mg.
 */
import { conversionFactorOrNull, molarMassLookup, parseUnit, UnitError } from '../../src/index.js';
import { representativeValue } from '../../src/data/records.js';
import type { DatasetTables, InterventionRecord, OutputRecord, TimecourseRecord } from '../../src/index.js';

/** What a slip scales: a reported output, a timecourse's values, a timecourse's times, a dose, or a subject's body weight. */
export type SlipTarget = 'output' | 'timecourse' | 'time' | 'dose' | 'weight';

export interface SlipClass {
  /** The label the bench prints, e.g. `output ×1000`. */
  name: string;
  target: SlipTarget;
  /** The factor (curated ÷ true); for a molar ↔ mass class, 0: the factor depends on the record (`molarSlipFactor`). */
  factor: number;
  /** Whether the factor is molar ↔ mass, from the record's substance and unit. */
  molar?: boolean;
  /** Whether the factor stands for a body weight (×1/70 for any subject): a check names the subject's own. */
  perKg?: boolean;
  /** For reported outputs and doses: whether a unit of these dimension powers (and this text) can suffer this slip. */
  unitAllows?: (powers: DimensionPowers, unit: string) => boolean;
  /** Not in the default rotation (DEFAULT_SLIP_CLASSES): planted only when `--classes` names it. */
  optIn?: boolean;
}

/** Powers of the base dimensions of a unit, by pint name (`mass`, `length`, `time`, `substance`, …). */
export type DimensionPowers = Record<string, number>;

const power = (p: DimensionPowers, name: string): number => p[name] ?? 0;
/** A unit slip of ×1000 needs a prefixable quantity: mass, amount, volume or activity, and no pressure-like time². */
const hasAmount = (p: DimensionPowers) =>
  ['mass', 'substance', 'length', 'activity_amount'].some((d) => power(p, d) !== 0) && Math.abs(power(p, 'time')) <= 1;
/** min ↔ h or h ↔ day slips need time to the power ±1. */
const hasTime = (p: DimensionPowers) => Math.abs(power(p, 'time')) === 1;
/** A per-kg slip needs a body-size quantity: a volume (Vd) or volume per time (CL). */
const hasVolume = (p: DimensionPowers) => power(p, 'length') === 3;
/** A decimal slip: any amount or time. */
const hasAmountOrTime = (p: DimensionPowers) => hasAmount(p) || hasTime(p);
/** Molar ↔ mass needs a mass or an amount of substance in the numerator, not both (a concentration, AUC or amount; not a per-kg CL). */
const isMassOrMolar = (p: DimensionPowers) => (power(p, 'mass') > 0) !== (power(p, 'substance') > 0);
/** A unit per kilogram of body weight (`liter / hour / kilogram`, `gram / kilogram`: a ratio of masses has no dimension to tell it by). */
const perKilogram = (unit: string) => /\/\s*kilogram(\s|$)/.test(unit);
/** A dose given per kg but curated as absolute: an absolute mass dose. */
const isAbsoluteMass = (p: DimensionPowers) => power(p, 'mass') === 1 && Object.keys(p).every((d) => d === 'mass' || p[d] === 0);

export const SLIP_CLASSES = [
  { name: 'output ×1000', target: 'output', factor: 1000, unitAllows: hasAmount },
  { name: 'output ×1/1000', target: 'output', factor: 1 / 1000, unitAllows: hasAmount },
  { name: 'output ×60', target: 'output', factor: 60, unitAllows: hasTime },
  { name: 'output ×1/60', target: 'output', factor: 1 / 60, unitAllows: hasTime },
  { name: 'output ×24', target: 'output', factor: 24, unitAllows: hasTime },
  { name: 'output per-kg ×1/70', target: 'output', factor: 1 / 70, perKg: true, unitAllows: hasVolume },
  { name: 'output ×10', target: 'output', factor: 10, unitAllows: hasAmountOrTime },
  { name: 'output molar↔mass', target: 'output', factor: 0, molar: true, unitAllows: isMassOrMolar },
  { name: 'timecourse ×10', target: 'timecourse', factor: 10 },
  { name: 'timecourse ×1000', target: 'timecourse', factor: 1000 },
  { name: 'timecourse molar↔mass', target: 'timecourse', factor: 0, molar: true },
  { name: 'time ×60', target: 'time', factor: 60 },
  { name: 'dose ×10', target: 'dose', factor: 10 },
  { name: 'dose ×1000', target: 'dose', factor: 1000 },
  { name: 'dose per-kg ×1/70', target: 'dose', factor: 1 / 70, perKg: true, unitAllows: isAbsoluteMass },
  // The reverse directions, opt-in (`--classes reverse`): the classes are one direction each, but a value, curve,
  // time axis or dose slips either way (hours curated as minutes, a dose in g read as mg), and no check may lean on
  // the direction it was tuned on.
  { name: 'output ×1/10 reverse', target: 'output', factor: 1 / 10, unitAllows: hasAmountOrTime, optIn: true },
  { name: 'output ×1/24 reverse', target: 'output', factor: 1 / 24, unitAllows: hasTime, optIn: true },
  { name: 'timecourse ×1/10 reverse', target: 'timecourse', factor: 1 / 10, optIn: true },
  { name: 'timecourse ×1/1000 reverse', target: 'timecourse', factor: 1 / 1000, optIn: true },
  { name: 'time ×1/60 reverse', target: 'time', factor: 1 / 60, optIn: true },
  { name: 'dose ×1/10 reverse', target: 'dose', factor: 1 / 10, optIn: true },
  { name: 'dose ×1/1000 reverse', target: 'dose', factor: 1 / 1000, optIn: true },
  // An absolute value curated under a per-kg unit (the authors' 7 L/h as 7 L/h/kg): ×70 for an adult.
  { name: 'output per-kg ×70 reverse', target: 'output', factor: 70, perKg: true, unitAllows: (p, unit) => hasVolume(p) && perKilogram(unit), optIn: true },
  { name: 'dose per-kg ×70 reverse', target: 'dose', factor: 70, perKg: true, unitAllows: (_p, unit) => perKilogram(unit), optIn: true },
  // Beyond the classes, opt-in (`--classes weight`): a subject's curated body weight, which the QA uses to
  // make per-kg values absolute — in pounds read as kilograms, or a decimal slip.
  { name: 'weight lb as kg', target: 'weight', factor: 2.2046, optIn: true },
  { name: 'weight ×10', target: 'weight', factor: 10, optIn: true },
] as const satisfies readonly SlipClass[];

export type SlipClassName = (typeof SLIP_CLASSES)[number]['name'];

/** The classes a run plants unless `--classes` says otherwise: every class but the opt-in ones. */
export const DEFAULT_SLIP_CLASSES: readonly SlipClassName[] = SLIP_CLASSES.filter((c: SlipClass) => !c.optIn).map((c) => c.name);

export function slipClass(name: SlipClassName): SlipClass {
  return SLIP_CLASSES.find((c) => c.name === name) as SlipClass;
}

/**
 * Dimension powers from a pint-style dimension key (`[mass] * [time] / [length] ** 3`,
 * `1 / [time]`, `dimensionless`): left to right, `/` negates the factor after it.
 */
export function dimensionPowers(key: string): DimensionPowers {
  const powers: DimensionPowers = {};
  const factor = /(^|\s([*/])\s)\[(\w+)\](?:\s\*\*\s(-?[\d.]+))?/g;
  for (const m of key.matchAll(factor)) {
    const sign = m[2] === '/' ? -1 : 1;
    powers[m[3]] = (powers[m[3]] ?? 0) + sign * Number(m[4] ?? 1);
  }
  return powers;
}

/** The smallest molar ↔ mass factor planted (either way): closer to 1 it is no slip a curator would notice. */
export const MIN_MOLAR_FACTOR = 2;

/**
 * The molar ↔ mass factor (curated ÷ true) of a value in `unit` of a substance
 * of molar mass `molarMass` g/mol: on a mass unit the authors' µmol/L read as
 * mg/L, ×1000/M; on a molar unit their mg/L read as µmol/L, ×M/1000. Null when
 * the unit is neither, the mass is unknown, or the factor is under ×2 either way.
 */
export function molarSlipFactor(unit: string | null, molarMass: number | null): number | null {
  const powers = unitPowers(unit);
  if (!powers || !isMassOrMolar(powers) || molarMass === null || !(molarMass > 0)) return null;
  const factor = power(powers, 'mass') > 0 ? 1000 / molarMass : molarMass / 1000;
  return Math.max(factor, 1 / factor) >= MIN_MOLAR_FACTOR ? factor : null;
}

function unitPowers(unit: string | null): DimensionPowers | null {
  if (unit === null || unit === '') return null;
  try {
    return dimensionPowers(parseUnit(unit).dimension.key);
  } catch (error) {
    if (error instanceof UnitError) return null;
    throw error;
  }
}

const nonZero = (v: number | null): boolean => v !== null && Number.isFinite(v) && v !== 0;
const hasValue = (r: { value: number | null; mean: number | null; median: number | null }) => nonZero(r.value) || nonZero(r.mean) || nonZero(r.median);

/** A curated single value: not calculated by PK-DB, not a point of a timecourse or scatter. */
export function isReportedOutput(o: OutputRecord): boolean {
  return o.normed && !o.calculated && o.output_type !== 'timecourse' && o.output_type !== 'array';
}

/** The concentration series PK-DB computes from: mean, else median, else value (pkdb-calculation.md §3.2). */
export function concentrationSeries(tc: TimecourseRecord): (number | null)[] | null {
  return tc.mean ?? tc.median ?? tc.value;
}

function isSlippableTimecourse(tc: TimecourseRecord): boolean {
  if (!tc.normed || tc.measurement_type !== 'concentration') return false;
  const series = concentrationSeries(tc);
  return series !== null && series.filter((v) => v !== null && Number.isFinite(v)).length >= 3;
}

/** Whether a unit is `target` itself (hr is hour, kg is kilogram); false for one that does not parse or convert. */
const isUnit = (unit: string | null, target: string): boolean => unit !== null && conversionFactorOrNull(unit, target) === 1;

/** Per class, the pks each study offers (output, subset, intervention or characteristica pks), ascending. */
export type Candidates = Map<SlipClassName, Map<string, number[]>>;

function add(byStudy: Map<string, number[]>, study: string, pk: number): void {
  const list = byStudy.get(study);
  if (list) list.push(pk);
  else byStudy.set(study, [pk]);
}

/** Every record each slip class can hit, by study. */
export function slipCandidates(tables: DatasetTables): Candidates {
  const candidates: Candidates = new Map(SLIP_CLASSES.map((c) => [c.name, new Map<string, number[]>()]));
  const powersByUnit = new Map<string | null, DimensionPowers | null>();
  const molarMass = molarMassLookup(tables);
  const molarFactor = (unit: string | null, substance: string | null) => molarSlipFactor(unit, molarMass(substance)?.mass ?? null);
  for (const o of [...tables.outputs].sort((a, b) => a.pk - b.pk)) {
    if (!isReportedOutput(o) || !hasValue(o)) continue;
    if (!powersByUnit.has(o.unit)) powersByUnit.set(o.unit, unitPowers(o.unit));
    const powers = powersByUnit.get(o.unit);
    if (!powers) continue;
    for (const c of SLIP_CLASSES) {
      if (c.target !== 'output' || !c.unitAllows(powers, o.unit as string)) continue;
      if ('molar' in c && molarFactor(o.unit, o.substance) === null) continue;
      add(candidates.get(c.name)!, o.study_sid, o.pk);
    }
  }
  for (const tc of [...tables.timecourses].sort((a, b) => a.subset_pk - b.subset_pk)) {
    if (!isSlippableTimecourse(tc)) continue;
    for (const c of SLIP_CLASSES) {
      if (c.target === 'timecourse' && (!('molar' in c) || molarFactor(tc.unit, tc.substance) !== null)) add(candidates.get(c.name)!, tc.study_sid, tc.subset_pk);
      if (c.target === 'time' && isUnit(tc.time_unit, 'hour') && tc.time.filter((t) => t !== null).length >= 3) {
        add(candidates.get(c.name)!, tc.study_sid, tc.subset_pk);
      }
    }
  }
  // A subject's body weight: each characteristic once (a group's may be listed again in its subgroups and individuals).
  const weights = new Map<number, string>();
  for (const subject of [...tables.groups, ...tables.individuals]) {
    for (const c of subject.characteristica) {
      const v = representativeValue(c);
      if (c.measurement_type === 'weight' && v !== null && v > 0 && isUnit(c.unit, 'kilogram')) weights.set(c.pk, subject.study_sid);
    }
  }
  for (const [pk, study] of [...weights].sort((a, b) => a[0] - b[0])) {
    for (const c of SLIP_CLASSES) if (c.target === 'weight') add(candidates.get(c.name)!, study, pk);
  }
  const referenced = new Set<number>();
  for (const o of tables.outputs) if (o.normed) for (const pk of o.intervention_pks) referenced.add(pk);
  const doses = tables.interventions.filter((i: InterventionRecord) => i.normed && i.measurement_type === 'dosing' && hasValue(i) && referenced.has(i.pk));
  for (const i of doses.sort((a, b) => a.pk - b.pk)) {
    if (!powersByUnit.has(i.unit)) powersByUnit.set(i.unit, unitPowers(i.unit));
    const powers = powersByUnit.get(i.unit);
    for (const c of SLIP_CLASSES) {
      if (c.target !== 'dose') continue;
      if ('unitAllows' in c && !(powers && c.unitAllows(powers, i.unit as string))) continue;
      add(candidates.get(c.name)!, i.study_sid, i.pk);
    }
  }
  return candidates;
}

/**
 * The classes a `--classes` list names: a comma-separated word that is a class's name selects that one (`dose ×10`),
 * any other every class whose name contains it (`molar` → both molar ↔ mass classes, `output`); an unknown word is an error that lists the names.
 */
export function selectSlipClasses(words: string): SlipClassName[] {
  const chosen = new Set<SlipClassName>();
  for (const word of words.split(',').map((w) => w.trim()).filter(Boolean)) {
    const exact = SLIP_CLASSES.filter((c) => c.name === word);
    const hits = exact.length > 0 ? exact : SLIP_CLASSES.filter((c) => c.name.includes(word));
    if (hits.length === 0) throw new Error(`--classes: no slip class contains '${word}' (classes: ${SLIP_CLASSES.map((c) => c.name).join(', ')})`);
    for (const c of hits) chosen.add(c.name);
  }
  return SLIP_CLASSES.map((c) => c.name).filter((name) => chosen.has(name));
}
