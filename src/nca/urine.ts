/**
 * Urinary (or faecal, biliary) excretion: the amount excreted, the fraction
 * of the dose, excretion rates and renal clearance, from timed collections,
 * as PKNCA (`pk.calc.ae`, `pk.calc.fe`, `pk.calc.clr`) and WinNonlin's urine
 * model (model 210–212: Rate, Midpoint, Amount_Recovered, Percent_Recovered)
 * compute them. Codes are CDISC PPTESTCD (SDTM CT C85839):
 *
 *   RCAMINT  Amt Rec from T1 to T2    Ae = Σ Aᵢ over the collections (PKNCA `ae`)
 *   FREXINT  Fract Excr from T1 to T2 fe = Ae/Dose, both in one amount unit (PKNCA `fe`)
 *   RCPCINT  Pct Rec from T1 to T2    100·fe (WinNonlin Percent_Recovered)
 *   ERMAX    Max Excretion Rate        max Aᵢ/(endᵢ − startᵢ) (WinNonlin Max_Rate)
 *   ERTMAX   Midpoint of Interval of Max ER   (startᵢ + endᵢ)/2 of ERMAX (WinNonlin Tmax_Rate)
 *   ERLST    Last Meas Excretion Rate  rate of the last collection with a positive amount (WinNonlin Rate_last)
 *   ERTLST   Midpoint of Interval of Last Nonzero ER
 *   VOLPK    Sum of Urine Vol          Σ volumes (PKNCA `volpk`)
 *   RENALCL  Renal CL                  Ae(T1, T2)/AUC(T1, T2) of the plasma profile of the same
 *                                      subject over the same interval (PKNCA `clr.last` when
 *                                      [T1, T2] = [0, Tlast]; Rowland & Tozer)
 *
 * Input, one of:
 * - `collections`: timed collections [start, end] with the amount, or the
 *   volume and the concentration (amount = volume × concentration, converted
 *   into `amountUnit` with src/units);
 * - `cumulative`: cumulative amounts Ae(t) at times after the dose (PK-DB's
 *   `cumulative amount` timecourses); collection i is [tᵢ₋₁, tᵢ] with
 *   amount Ae(tᵢ) − Ae(tᵢ₋₁), the first from the dose (time 0, Ae 0).
 * A collection whose amount is missing leaves Ae missing (as PKNCA: the sum is
 * not known), with a note naming it; the rates of the others are still given.
 * Collections must not overlap (an error naming them).
 */
import { conversionFactor, type ConversionOptions } from '../units/convert.js';
import { UnitError } from '../units/errors.js';
import { NcaInputError } from './clean.js';
import type { AucMethod } from './codes.js';
import { ratio } from './derived.js';
import { nca } from './nca.js';
import { partialAreas } from './partial-auc.js';
import { volumeScale } from './units.js';

export interface Collection {
  start: number;
  end: number;
  amount?: number | null;
  /** Urine volume (with `conc`): amount = volume × conc. */
  volume?: number | null;
  conc?: number | null;
}

export interface PlasmaProfile {
  time: readonly (number | null)[];
  conc: readonly (number | null)[];
  /** Default mg/L. */
  concUnit?: string;
  method?: AucMethod;
}

export interface UrineInput {
  collections?: readonly Collection[];
  cumulative?: { time: readonly number[]; amount: readonly (number | null)[] };
  /** Dose for fe, in `doseUnit` (default: the amount unit). */
  dose?: number;
  doseUnit?: string;
  /** Unit of amounts (default mg); time unit (default h). */
  amountUnit?: string;
  timeUnit?: string;
  /** Units of collection volumes and concentrations when amounts are computed (defaults L and mg/L). */
  urineVolumeUnit?: string;
  urineConcUnit?: string;
  /** g/mol, for fe when the amount is molar and the dose a mass (or the reverse). */
  molarMass?: number | null;
  /** Plasma concentrations of the same subject, times after the same dose: RENALCL. */
  plasma?: PlasmaProfile;
  /** Unit RENALCL's volume is reported in when it converts (default L; per time unit). */
  volumeUnit?: string;
}

/** One collection as used: the amount, its rate and midpoint. */
export interface CollectionRow {
  start: number;
  end: number;
  midpoint: number;
  amount: number | null;
  rate: number | null;
  /** Ae from the first start to this end (null once an amount is missing). */
  cumulative: number | null;
}

export const URINE_CODES = ['RCAMINT', 'FREXINT', 'RCPCINT', 'ERMAX', 'ERTMAX', 'ERLST', 'ERTLST', 'VOLPK', 'RENALCL'] as const;
export type UrineCode = (typeof URINE_CODES)[number];

export interface UrineResult {
  parameters: Record<UrineCode, { value: number | null; unit: string }>;
  notes: Partial<Record<UrineCode, string>>;
  collections: CollectionRow[];
  /** [T1, T2]: the first start and the last end. */
  start: number;
  end: number;
}

/** Collections on untrusted input are bounded (a 24 h urine study has a handful). */
export const MAX_COLLECTIONS = 100_000;

const finite = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/** Factor from a unit to another, or a clear error naming what was converted. */
function factor(from: string, to: string, what: string, opts?: ConversionOptions): number {
  try {
    return conversionFactor(from, to, opts);
  } catch (e) {
    if (!(e instanceof UnitError)) throw e;
    throw new NcaInputError(`${what}: cannot convert "${from}" to "${to}"${opts?.molarMass ? '' : ' (a molar mass may be needed)'}`);
  }
}

/** Collections from cumulative amounts: [tᵢ₋₁, tᵢ] with Ae(tᵢ) − Ae(tᵢ₋₁), from (0, 0). */
export function collectionsFromCumulative(time: readonly number[], amount: readonly (number | null)[]): Collection[] {
  if (time.length !== amount.length) throw new NcaInputError(`cumulative: ${time.length} times but ${amount.length} amounts`);
  const out: Collection[] = [];
  let [t0, a0]: [number, number | null] = [0, 0];
  for (let i = 0; i < time.length; i++) {
    const t = time[i];
    if (!finite(t) || t < 0) throw new NcaInputError(`cumulative: time ${i + 1} must be a number ≥ 0, got ${t}`);
    if (t === 0) {
      if (i > 0) throw new NcaInputError(`cumulative: time 0 must come first`);
      a0 = finite(amount[i]) ? (amount[i] as number) : 0;
      continue;
    }
    if (!(t > t0)) throw new NcaInputError(`cumulative: times must increase strictly (${t0}, ${t})`);
    const a = finite(amount[i]) ? (amount[i] as number) : null;
    out.push({ start: t0, end: t, amount: a === null || a0 === null ? null : a - a0 });
    if (a !== null) a0 = a;
    t0 = t;
  }
  return out;
}

function checkedCollections(input: UrineInput): Collection[] {
  const given = input.collections ?? (input.cumulative ? collectionsFromCumulative(input.cumulative.time, input.cumulative.amount) : null);
  if (!given || given.length === 0) throw new NcaInputError('urine: give `collections` or `cumulative` with at least one collection');
  if (given.length > MAX_COLLECTIONS) throw new NcaInputError(`urine: at most ${MAX_COLLECTIONS} collections, got ${given.length}`);
  const sorted = given.map((c, i) => {
    if (!finite(c?.start) || !finite(c.end) || !(c.end > c.start)) {
      throw new NcaInputError(`collections[${i}]: need finite start < end, got ${c?.start}, ${c?.end}`);
    }
    return c;
  });
  sorted.sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].start < sorted[i - 1].end) {
      throw new NcaInputError(`collections [${sorted[i - 1].start}, ${sorted[i - 1].end}] and [${sorted[i].start}, ${sorted[i].end}] overlap`);
    }
  }
  return sorted;
}

/** Amount of a collection in the amount unit: given, or volume × concentration converted; null when missing. */
function amountOf(c: Collection, volumeConc: () => number): number | null {
  if (c.amount !== undefined && c.amount !== null) return finite(c.amount) ? c.amount : null;
  if (finite(c.volume) && finite(c.conc)) return c.volume * c.conc * volumeConc();
  return null;
}

/** Excretion rate of an amount over [start, end]: A/(end − start) (WinNonlin Rate). */
export function excretionRate(amount: number | null, start: number, end: number): number | null {
  return amount === null ? null : amount / (end - start);
}

/** Renal clearance CLR = Ae(T1, T2)/AUC(T1, T2) (PKNCA `pk.calc.clr`; Rowland & Tozer). */
export function renalClearance(ae: number | null, auc: number | null, volumeFactor = 1): number | null {
  const r = ratio(ae, auc);
  return r === null ? null : r * volumeFactor;
}

/**
 * Plasma AUC over [a, b] for CLR: interpolated inside the data (the profile's
 * AUC method), λz-extrapolated (best fit) past the last sample; null with a reason.
 */
function plasmaAuc(plasma: PlasmaProfile, a: number, b: number): { auc: number | null; reason: string } {
  const method = plasma.method ?? 'linear';
  const fit = nca({ time: plasma.time, conc: plasma.conc, route: 'extravascular' }, { aucMethod: method });
  const time: number[] = [];
  const conc: number[] = [];
  plasma.time.forEach((t, i) => {
    const c = plasma.conc[i];
    if (finite(t) && finite(c) && t >= 0) {
      time.push(t);
      conc.push(c);
    }
  });
  if (time.length === 0) return { auc: null, reason: 'the plasma profile has no usable sample' };
  const order = time.map((_, i) => i).sort((x, y) => time[x] - time[y]);
  const t = order.map((i) => time[i]);
  const c = order.map((i) => conc[i]);
  if (t[0] > 0) {
    t.unshift(0);
    c.unshift(0);
  }
  const lambdaZ = fit.parameters.LAMZ?.value ?? null;
  const type = b <= t[t.length - 1] ? 'all' : 'inf';
  const areas = partialAreas(t, c, a, b, { method, type, lambdaZ });
  if (typeof areas === 'string') return { auc: null, reason: `plasma AUC over [${a}, ${b}]: ${areas}` };
  return { auc: areas.auc, reason: '' };
}

/** Urinary excretion parameters of one subject (see the header). Throws NcaInputError for unusable input. */
export function urineNca(input: UrineInput): UrineResult {
  const collections = checkedCollections(input);
  const amountUnit = input.amountUnit ?? 'mg';
  const timeUnit = input.timeUnit ?? 'h';
  const notes: Partial<Record<UrineCode, string>> = {};
  let vc: number | null = null;
  const volumeConc = () =>
    (vc ??= factor(`(${input.urineVolumeUnit ?? 'L'})*(${input.urineConcUnit ?? 'mg/L'})`, amountUnit, 'urine volume × concentration', { molarMass: input.molarMass }));

  const rows: CollectionRow[] = [];
  let total: number | null = 0;
  let volume: number | null = 0;
  let missingAt: string | null = null;
  for (const c of collections) {
    const amount = amountOf(c, volumeConc);
    if (amount === null && missingAt === null) missingAt = `collection [${c.start}, ${c.end}] has no amount`;
    total = amount === null || total === null ? null : total + amount;
    volume = finite(c.volume) && volume !== null ? volume + c.volume : null;
    rows.push({ start: c.start, end: c.end, midpoint: (c.start + c.end) / 2, amount, rate: excretionRate(amount, c.start, c.end), cumulative: total });
  }
  if (total === null) notes.RCAMINT = missingAt as string;

  let iMax = -1;
  let iLast = -1;
  rows.forEach((r, i) => {
    if (r.rate === null) return;
    if (iMax < 0 || r.rate > (rows[iMax].rate as number)) iMax = i;
    if (r.rate > 0) iLast = i;
  });

  let fe: number | null = null;
  if (input.dose === undefined) notes.FREXINT = 'no dose given';
  else if (!(finite(input.dose) && input.dose > 0)) throw new NcaInputError(`dose must be a positive number, got ${input.dose}`);
  else if (total !== null) {
    const doseInAmount = input.dose * factor(input.doseUnit ?? amountUnit, amountUnit, 'dose', { molarMass: input.molarMass });
    fe = total / doseInAmount;
  } else notes.FREXINT = notes.RCAMINT;
  if (fe === null) notes.RCPCINT = notes.FREXINT;

  const start = rows[0].start;
  const end = rows[rows.length - 1].end;
  let clr: number | null = null;
  const concUnit = input.plasma?.concUnit ?? 'mg/L';
  const clearance = volumeScale(amountUnit, concUnit, input.volumeUnit ?? 'L');
  if (!input.plasma) notes.RENALCL = 'no plasma profile given';
  else if (total === null) notes.RENALCL = notes.RCAMINT;
  else {
    const { auc, reason } = plasmaAuc(input.plasma, start, end);
    clr = renalClearance(total, auc, clearance.factor);
    if (clr === null) notes.RENALCL = reason || 'plasma AUC is 0';
  }
  if (iMax < 0) notes.ERMAX = notes.ERTMAX = 'no collection has an amount';
  if (iLast < 0) notes.ERLST = notes.ERTLST = 'no collection has a positive amount';
  if (volume === null) notes.VOLPK = 'not every collection has a volume';

  const value = (v: number | null, unit: string) => ({ value: v, unit });
  const rate = `${amountUnit}/${timeUnit}`;
  return {
    parameters: {
      RCAMINT: value(total, amountUnit),
      FREXINT: value(fe, ''),
      RCPCINT: value(fe === null ? null : 100 * fe, '%'),
      ERMAX: value(iMax < 0 ? null : rows[iMax].rate, rate),
      ERTMAX: value(iMax < 0 ? null : rows[iMax].midpoint, timeUnit),
      ERLST: value(iLast < 0 ? null : rows[iLast].rate, rate),
      ERTLST: value(iLast < 0 ? null : rows[iLast].midpoint, timeUnit),
      VOLPK: value(volume, input.urineVolumeUnit ?? 'L'),
      RENALCL: value(clr, `${clearance.unit}/${timeUnit}`),
    },
    notes,
    collections: rows,
    start,
    end,
  };
}
