/**
 * PK-DB's normed copies (`behaviours.py: Normalizable.normalize`, PK-DB API notes §4
 * "Normed copies"), re-derived:
 *   1. molar → mass: when the substance has a molar mass M and the unit has a
 *      [substance] exponent d, values × M^d and the unit becomes pint's
 *      string of unit·(g/mol)^d (`mol/l` → `gram / liter`);
 *   2. a unit that, as spelled, is a normalised unit of the measurement type
 *      is kept (`g/kg`, `none`);
 *   3. otherwise value, mean, median, min, max, sd and se are converted to the
 *      normalised unit of the same dimension (cv is a ratio and stays), e.g.
 *      `percent` → `dimensionless` × 0.01;
 *   4. group outputs only: missing sd, se, cv completed from each other.
 */
import { STAT_KEYS, type StatKey, type StatsFields } from '../data/model.js';
import { conversionFactor } from './convert.js';
import { UnitError } from './errors.js';
import { cachedOrThrow } from './memo.js';
import { normalisedTarget, normalisedUnits } from './normalised-units.js';
import { formatPint, makeDimension, parseUnit, AMOUNT_INDEX, MASS_INDEX, type Dimension } from './parse.js';

/** What `normalize` needs of a record: the stats block, its measurement type and substance. */
export type NormalizableRecord = StatsFields & { measurement_type: string; substance?: string | null };

export interface NormalizeOptions {
  /** Defaults to the record's `measurement_type`. */
  measurementType?: string;
  /** Molar mass of the record's substance in g/mol; without one molar units stay molar, as in PK-DB. */
  substanceMass?: number | null;
  /** Subjects in the group, for outputs of a group: completes sd/se/cv like `Output.add_error_measures`. */
  groupCount?: number | null;
  /** Names the record in error messages, e.g. `output 123`. */
  recordLabel?: string;
}

/** How one unit of one measurement type is normalised. */
export interface UnitNormalisation {
  readonly from: string;
  /** The normed unit, spelled as PK-DB stores it. */
  readonly unit: string;
  /** Multiply value, mean, median, min, max, sd, se by this. */
  readonly factor: number;
  /** The unit was already normalised (after step 1) and keeps its spelling. */
  readonly kept: boolean;
  /** Powers of mol traded for grams in step 1 (0 without a molar mass or a molar unit). */
  readonly molarExponent: number;
  readonly dimension: Dimension;
}

const SCALED_KEYS: readonly StatKey[] = STAT_KEYS.filter((k) => k !== 'cv');

function describe(list: readonly string[]): string {
  return list.map((u) => `'${u}'`).join(', ');
}

function normaliseUncached(unit: string, measurementType: string, mass: number | null): UnitNormalisation {
  const raw = parseUnit(unit);
  const allowed = normalisedUnits(measurementType);
  if (allowed === null) {
    throw new UnitError('no-normalised-unit', unit, `measurement type '${measurementType}' has no normalised units in the table`);
  }
  const d = mass !== null && mass > 0 ? raw.dimension.exponents[AMOUNT_INDEX] : 0;
  let spelling = unit;
  let dimension = raw.dimension;
  let molarFactor = 1;
  if (d !== 0) {
    molarFactor = (mass as number) ** d;
    spelling = formatPint([...raw.factors, ['gram', d], ['mole', -d]]);
    const exponents = raw.dimension.exponents.slice();
    exponents[MASS_INDEX] += d;
    exponents[AMOUNT_INDEX] -= d;
    dimension = makeDimension(exponents);
  }
  if (allowed.includes(spelling)) {
    return { from: unit, unit: spelling, factor: molarFactor, kept: true, molarExponent: d, dimension };
  }
  const target = normalisedTarget(measurementType, dimension);
  if (target === null) {
    throw new UnitError(
      'no-normalised-unit',
      unit,
      `${dimension.key} is not a dimension of '${measurementType}' (normalised units: ${describe(allowed)})`,
    );
  }
  const factor = conversionFactor(unit, target, { molarMass: d !== 0 ? mass : null });
  return { from: unit, unit: target, factor, kept: false, molarExponent: d, dimension };
}

/** measurement type (as given) → unit → molar mass → result; nested so that a cached lookup allocates nothing. */
const cache = new Map<string, Map<string, Map<number | null, UnitNormalisation | UnitError>>>();

function cacheSlot(measurementType: string, unit: string): Map<number | null, UnitNormalisation | UnitError> {
  let byUnit = cache.get(measurementType);
  if (byUnit === undefined) {
    byUnit = new Map();
    cache.set(measurementType, byUnit);
  }
  let byMass = byUnit.get(unit);
  if (byMass === undefined) {
    byMass = new Map();
    byUnit.set(unit, byMass);
  }
  return byMass;
}

/**
 * How `unit` is normalised for a measurement type (cached per unit, type and
 * mass). Throws `UnitError` for an unparseable unit, an unknown measurement
 * type or a dimension the type has no normalised unit for.
 */
export function unitNormalisation(unit: string, measurementType: string, substanceMass: number | null = null): UnitNormalisation {
  const slot = cacheSlot(measurementType, unit);
  // The hit first: the closure below is built only on a miss.
  const hit = slot.get(substanceMass);
  if (hit !== undefined && !(hit instanceof UnitError)) return hit;
  return cachedOrThrow(slot, substanceMass, () => normaliseUncached(unit, measurementType, substanceMass), UnitError);
}

const isMissing = (v: number | null): boolean => v === null || v === 0 || Number.isNaN(v);

/**
 * `error_measures.py` as PK-DB API notes §4 describes it, in its order: sd = se·√n or
 * cv·mean; se = sd/√n; cv = sd/mean. 0 counts as missing; a result that is
 * not finite (mean 0) stays missing.
 */
export function completeErrorMeasures<T extends StatsFields>(stats: T, n: number | null): T {
  const out = { ...stats };
  const finite = (v: number) => (Number.isFinite(v) ? v : null);
  const root = n !== null && n > 0 ? Math.sqrt(n) : null;
  if (isMissing(out.sd)) {
    if (!isMissing(out.se) && root !== null) out.sd = (out.se as number) * root;
    else if (!isMissing(out.cv) && out.mean !== null) out.sd = finite((out.cv as number) * out.mean);
  }
  if (isMissing(out.se) && !isMissing(out.sd) && root !== null) out.se = (out.sd as number) / root;
  if (isMissing(out.cv) && !isMissing(out.sd) && out.mean !== null) out.cv = finite((out.sd as number) / out.mean);
  return out;
}

/**
 * The normed copy of a raw record, as PK-DB derives it: the stats converted,
 * the normalised unit, `normed: true` and `raw_pk` = the raw pk where the
 * record has those fields. A record without a unit is copied unchanged.
 * Throws `UnitError` naming the unit and the record.
 */
export function normalize<T extends NormalizableRecord>(record: T, opts: NormalizeOptions = {}): T {
  const measurementType = opts.measurementType ?? record.measurement_type;
  // The copy keeps the raw pk: a normed record's own pk is the store's business.
  let copy: T = { ...record };
  if ('normed' in copy) (copy as { normed: boolean }).normed = true;
  if ('raw_pk' in copy && 'pk' in copy) (copy as { raw_pk: unknown }).raw_pk = (copy as { pk: unknown }).pk;
  if (record.unit !== null && record.unit.trim() !== '') {
    let n: UnitNormalisation;
    try {
      n = unitNormalisation(record.unit, measurementType, opts.substanceMass ?? null);
    } catch (e) {
      throw e instanceof UnitError ? e.withContext({ record: opts.recordLabel, measurementType }) : e;
    }
    for (const key of SCALED_KEYS) {
      const v = record[key];
      if (v !== null) copy[key] = v * n.factor;
    }
    copy.unit = n.unit;
  }
  if (opts.groupCount !== undefined && opts.groupCount !== null) copy = completeErrorMeasures(copy, opts.groupCount);
  return copy;
}

export type NormalizeOutcome<T> = { ok: true; record: T } | { ok: false; error: UnitError };

/** `normalize` over a batch: one outcome per record, in order; a bad unit never stops the rest. */
export function normalizeAll<T extends NormalizableRecord>(
  records: readonly T[],
  optionsFor: (record: T) => NormalizeOptions = () => ({}),
): NormalizeOutcome<T>[] {
  return records.map((record) => {
    const opts = optionsFor(record);
    try {
      return { ok: true, record: normalize(record, opts) };
    } catch (e) {
      if (!(e instanceof UnitError)) throw e;
      return { ok: false, error: e.withContext({ record: opts.recordLabel }) };
    }
  });
}
