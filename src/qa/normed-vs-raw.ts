/**
 * Normed vs raw: PK-DB stores every intervention, output and characteristica
 * twice, as curated (raw) and as a unit-normalised copy linked by `raw_pk`.
 * This check re-derives each normed copy from its raw record with
 * `normalize` (src/units) and reports where the stored copy differs. For
 * data that only has normed records (export zips) it checks that every unit
 * is a normalised unit of its measurement type and that calculated outputs
 * carry the units the pkdb profile produces.
 */
import type { CharacteristicaRecord, DatasetTables, InterventionRecord, OutputRecord } from '../data/model.js';
import { STAT_KEYS, type StatKey } from '../data/model.js';
import { interventionIdentity, interventionNames, outputIdentity, pairNormedCopies } from '../data/pairing.js';
import { groupBy, pushTo } from '../data/records.js';
import {
  KNOWN_ODD_UNITS,
  PKDB_PROFILE_UNITS,
  UnitError,
  conversionFactorOrNull,
  explainRatio,
  isNormalisedUnit,
  measurementTypeKey,
  molarExponent,
  molarMassLookup,
  normalisedUnits,
  normalize,
  parseUnitOrNull,
  parseUnitResult,
  type MolarMass,
} from '../units/index.js';
import { finding, type Finding, type Severity } from './finding.js';

export interface NormedVsRawOptions {
  /** Molar masses (g/mol) by substance name; they take precedence over info nodes and the built-in table. */
  molarMasses?: Map<string, number>;
  /** Relative tolerance for values; 1e-9 (PK-DB's conversions are exact scale factors). */
  tolerance?: number;
}

/** The built-in molar masses are rounded to 0.01 g/mol, PK-DB's carry more digits: conversions through them agree to ~5e-5. */
const ROUNDED_MASS_TOLERANCE = 1e-4;
/** The one number a finding shows is the first of these that is set. */
const PRIMARY_KEYS: readonly StatKey[] = ['value', 'mean', 'median', 'min', 'max', 'sd', 'se', 'cv'];

type Kind = 'intervention' | 'output';
type Linkable = InterventionRecord | OutputRecord;
type Push = (severity: Severity, message: string, extra?: Partial<Finding>, details?: Record<string, unknown>) => void;

interface Context {
  massOf: (substance: string | null | undefined) => MolarMass | null;
  tolerance: number;
  findings: Finding[];
}

const label = (kind: Kind, r: { pk: number }): string => `${kind} ${r.pk}`;

/** The finding columns that locate this record. */
function about(kind: Kind, r: Linkable): Partial<Finding> {
  const base = { study_sid: r.study_sid, study_name: r.study_name, measurement_type: r.measurement_type };
  if (kind === 'intervention') return base;
  const o = r as OutputRecord;
  const subject = o.group_pk !== null ? `group:${o.group_pk}` : o.individual_pk !== null ? `individual:${o.individual_pk}` : null;
  return { ...base, output_pk: o.pk, subset_pk: o.subset_pk, subject };
}

function primary(r: Record<StatKey, number | null>): number | null {
  for (const k of PRIMARY_KEYS) if (r[k] !== null) return r[k];
  return null;
}

/** Numbers in messages: 6 significant digits, no float noise. */
const fmt = (v: number): string => String(Number(v.toPrecision(6)));

/** |a − b| / max(|a|, |b|): symmetric, 0 for equal values including 0 = 0. */
function relDiff(a: number, b: number): number {
  return a === b ? 0 : Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b));
}

function safeFactor(from: string, to: string, molarMass: number | null): number | null {
  return conversionFactorOrNull(from, to, { molarMass });
}

/**
 * The molar mass PK-DB must have used when it stored a mass unit for a raw
 * molar one (or back) and this dataset gives none: stored = raw · f(M=1) · M^d.
 */
function inferMolarMass(raw: Linkable, stored: Linkable): number | null {
  const r = primary(raw);
  const s = primary(stored);
  if (r === null || s === null || r === 0 || s === 0 || raw.unit === null || stored.unit === null) return null;
  const probe = safeFactor(raw.unit, stored.unit, 1);
  const rawUnit = parseUnitOrNull(raw.unit);
  const storedUnit = parseUnitOrNull(stored.unit);
  if (probe === null || rawUnit === null || storedUnit === null) return null;
  const d = molarExponent(rawUnit, storedUnit);
  if (!d) return null;
  const mass = (s / (r * probe)) ** (1 / d);
  return Number.isFinite(mass) && mass > 0 ? mass : null;
}

/** Values of the expected copy (× factor into the stored unit; cv unscaled) against the stored copy. */
function compareValues(expected: Linkable, stored: Linkable, factor: number, tolerance: number, where: string, push: Push, ctx: Context): void {
  const mismatched: StatKey[] = [];
  const missing: StatKey[] = [];
  for (const key of STAT_KEYS) {
    const e = expected[key];
    const s = stored[key];
    // PK-DB completes sd/se/cv of group outputs from each other: extra stored values are not errors.
    if (e === null) continue;
    if (s === null) missing.push(key);
    else if (relDiff(e * (key === 'cv' ? 1 : factor), s) > tolerance) mismatched.push(key);
  }
  if (missing.length > 0) push('minor', `${where}: ${missing.join(', ')} missing in the normed copy`, {}, { missing });
  if (mismatched.length === 0) return;
  const key = PRIMARY_KEYS.find((k) => mismatched.includes(k)) as StatKey;
  const recomputed = (expected[key] as number) * (key === 'cv' ? 1 : factor);
  const ratio = (stored[key] as number) / recomputed;
  const explained = explainRatio(ratio, { molarMass: ctx.massOf(expected.substance)?.mass ?? null });
  push(
    explained ? 'major' : 'minor',
    `${where}: ${mismatched.join(', ')} ${fmt(stored[key] as number)} ${stored.unit ?? ''} where the raw record gives ${fmt(recomputed)} ${stored.unit ?? ''}` +
      (explained ? ` — ${explained.cause}` : ` (ratio ${ratio.toPrecision(6)})`),
    { reported: stored[key], recomputed, recomputed_unit: stored.unit, ratio, suspected_cause: explained?.cause ?? null },
    { mismatched, expected_value: expected[key] },
  );
}

/** One raw record against its stored normed copy. */
function comparePair(kind: Kind, raw: Linkable, stored: Linkable, ctx: Context): void {
  const mass = ctx.massOf(raw.substance);
  const where = `${label(kind, stored)} (normed copy of ${label(kind, raw)})`;
  let expected: Linkable = raw;
  const push: Push = (severity, message, extra = {}, details = {}) =>
    ctx.findings.push(
      finding({
        kind: 'normed-vs-raw', severity, ...about(kind, stored), reported_unit: stored.unit, message, ...extra,
        details: { raw, normed: stored, raw_unit: raw.unit, expected_unit: expected.unit, expected, ...details },
      }),
    );

  for (const field of ['measurement_type', 'substance', 'time', 'time_unit'] as const) {
    if (raw[field] !== stored[field]) push('minor', `${where}: ${field} '${stored[field]}' differs from the raw record's '${raw[field]}'`);
  }
  try {
    expected = normalize(raw, { substanceMass: mass?.mass ?? null, recordLabel: label(kind, raw) });
  } catch (e) {
    if (!(e instanceof UnitError)) throw e;
    const severity: Severity = e.code === 'no-normalised-unit' ? 'info' : 'minor';
    push(severity, e.code === 'no-normalised-unit' ? `${e.message}; values compared in the stored unit` : e.message, { kind: 'unit' });
    if (e.code !== 'no-normalised-unit') return;
  }
  if (expected.unit === null || stored.unit === null) {
    if (expected.unit !== stored.unit) push('major', `${where}: unit '${stored.unit}' where the raw record has '${raw.unit}'`);
    else compareValues(expected, stored, 1, ctx.tolerance, where, push, ctx);
    return;
  }
  const storedUnit = parseUnitResult(stored.unit);
  if (storedUnit instanceof UnitError) {
    push('minor', `${where}: ${storedUnit.message}`, { kind: 'unit' });
    return;
  }
  const storedDim = storedUnit.dimension.key;
  // The raw unit may not parse (a normalisation that kept it, finding no normalised unit): its dimension is then unknown.
  const expectedDim = parseUnitOrNull(expected.unit)?.dimension.key ?? 'unknown';
  const rawDim = raw.unit === null ? 'unknown' : (parseUnitOrNull(raw.unit)?.dimension.key ?? 'unknown');
  const columns = { recomputed_unit: expected.unit, recomputed: primary(expected) };
  let factor = safeFactor(expected.unit, stored.unit, null);
  if (factor === null) {
    factor = safeFactor(expected.unit, stored.unit, mass?.mass ?? null);
    if (factor === null) {
      const inferred = inferMolarMass(raw, stored);
      const message = inferred
        ? `${where}: stored in '${stored.unit}' where '${expected.unit}' was expected; PK-DB converted with a molar mass of ${inferred.toPrecision(6)} g/mol that this dataset does not give for '${raw.substance}'`
        : `${where}: dimension ${storedDim} of '${stored.unit}' differs from ${expectedDim} of the expected '${expected.unit}'`;
      push(inferred ? 'info' : 'major', message, columns, { inferred_molar_mass: inferred });
      return;
    }
    push('info', `${where}: stored in '${stored.unit}' where '${expected.unit}' was expected (with ${mass?.mass} g/mol from ${mass?.source}): PK-DB had no molar mass for '${raw.substance}'`, columns);
  } else if (stored.unit !== expected.unit) {
    push('minor', `${where}: unit '${stored.unit}' is not the expected normalised unit '${expected.unit}' (raw '${raw.unit}')`, columns);
  }
  const throughRoundedMass = mass?.source === 'builtin' && (rawDim !== expectedDim || storedDim !== expectedDim);
  compareValues(expected, stored, factor, throughRoundedMass ? Math.max(ctx.tolerance, ROUNDED_MASS_TOLERANCE) : ctx.tolerance, where, push, ctx);
}

type Identity = (r: Linkable) => string;

/**
 * Normed copies per raw pk: by `raw_pk`, else (the API's /outputs/ has no
 * raw_pk) by `pairNormedCopies` (src/data/pairing.ts); also the copies that
 * link to nothing.
 */
function linkCopies(raws: readonly Linkable[], normed: readonly Linkable[], identity: Identity) {
  const rawPks = new Set(raws.map((r) => r.pk));
  const byRawPk = groupBy(normed.filter((n) => n.raw_pk !== null && rawPks.has(n.raw_pk)), (n) => n.raw_pk as number);
  const dangling = normed.filter((n) => n.raw_pk !== null && !rawPks.has(n.raw_pk));
  const withoutPk = normed.filter((n) => n.raw_pk === null);
  const unmatched: Linkable[] = [];
  if (withoutPk.length > 0) {
    const pairs = pairNormedCopies(raws.filter((r) => !byRawPk.has(r.pk)), withoutPk, identity);
    for (const copy of withoutPk) {
      const raw = pairs.get(copy);
      if (raw === undefined) unmatched.push(copy);
      else byRawPk.set(raw.pk, [copy]);
    }
  }
  return { byRawPk, dangling, withoutPk: withoutPk.length, unmatched };
}

/** Raw records against their normed copies. */
function checkLinked(kind: Kind, records: readonly Linkable[], identity: Identity, ctx: Context): void {
  const raws = records.filter((r) => !r.normed);
  const normed = records.filter((r) => r.normed);
  const { byRawPk, dangling, withoutPk, unmatched } = linkCopies(raws, normed, identity);
  if (withoutPk > 0) {
    ctx.findings.push(
      finding({
        kind: 'normed-vs-raw', severity: 'info',
        message: `${withoutPk} normed ${kind}(s) have no raw_pk: linked to raw records by study, subject, interventions, measurement type, substance, tissue, method, label and time`,
      }),
    );
  }
  for (const raw of raws) {
    const copies = byRawPk.get(raw.pk) ?? [];
    if (copies.length === 0) {
      ctx.findings.push(finding({ kind: 'normed-vs-raw', severity: 'major', ...about(kind, raw), reported_unit: raw.unit, message: `${label(kind, raw)} has no normed copy`, details: { raw } }));
    }
    if (copies.length > 1) {
      ctx.findings.push(finding({ kind: 'normed-vs-raw', severity: 'minor', ...about(kind, raw), message: `${label(kind, raw)} has ${copies.length} normed copies (${copies.map((n) => n.pk).join(', ')})`, details: { raw, normed: copies } }));
    }
    for (const copy of copies) comparePair(kind, raw, copy, ctx);
  }
  for (const n of dangling) {
    ctx.findings.push(finding({ kind: 'normed-vs-raw', severity: 'minor', ...about(kind, n), reported_unit: n.unit, message: `normed ${label(kind, n)} points to raw_pk ${n.raw_pk}, which is not in the dataset`, details: { normed: n } }));
  }
  for (const n of unmatched) {
    ctx.findings.push(finding({ kind: 'normed-vs-raw', severity: 'minor', ...about(kind, n), reported_unit: n.unit, message: `normed ${label(kind, n)} has no raw_pk and matches no raw record`, details: { normed: n } }));
  }
}

/** What checkNormedUnits says of a normed record's type and unit (the same for every record of the pair). */
interface UnitVerdict {
  /** The parse error's message: the only finding. */
  unparsed: string | null;
  /** The unknownTypes key, when the normalised-unit table has no entry for the type. */
  unknownType: string | null;
  /** A unit that is odd (info) or not normalised (minor) for the type. */
  unit: { severity: Severity; message: string } | null;
  /** For a calculated record: the pkdb profile never produces the type, or not in this unit. */
  calculated: string | null;
}

function unitVerdict(type: string, unitText: string): UnitVerdict {
  const verdict: UnitVerdict = { unparsed: null, unknownType: null, unit: null, calculated: null };
  const unit = parseUnitResult(unitText);
  if (unit instanceof UnitError) {
    verdict.unparsed = unit.message;
    return verdict;
  }
  if (normalisedUnits(type) === null) {
    verdict.unknownType = `${measurementTypeKey(type)}\u0000${unitText}`;
  } else if (KNOWN_ODD_UNITS[unitText] !== undefined) {
    verdict.unit = { severity: 'info', message: `'${unitText}' is not a normalised ${type} unit: ${KNOWN_ODD_UNITS[unitText]}` };
  } else if (!isNormalisedUnit(type, unitText)) {
    verdict.unit = { severity: 'minor', message: `'${unitText}' (${unit.dimension.key}) is not a normalised ${type} unit (${normalisedUnits(type)?.join(', ')})` };
  }
  const profile = PKDB_PROFILE_UNITS[measurementTypeKey(type)];
  if (!profile) verdict.calculated = `calculated ${type}, which the pkdb profile never produces`;
  else if (!profile.includes(unitText)) verdict.calculated = `calculated ${type} in '${unitText}'; the pkdb profile stores ${profile.join(', ')}`;
  return verdict;
}

type UnitCarrier = Pick<CharacteristicaRecord, 'pk' | 'measurement_type' | 'unit'> & { time_unit?: string | null; calculated?: boolean };

/** Normed units: parse, are normalised units of their type; calculated outputs carry pkdb-profile units. */
function checkNormedUnits<T extends UnitCarrier>(
  kind: Kind | 'characteristica',
  records: readonly T[],
  ctx: Context,
  locate: (r: T) => Partial<Finding> = (r) => ({ measurement_type: r.measurement_type }),
): void {
  // Grouped per study (a finding points at the study to fix), keyed `<study sid>\0<type>\0<unit>` / `<study sid>\0<time unit>`.
  const unknownTypes = new Map<string, T[]>();
  const badTimeUnits = new Map<string, T[]>();
  const studyOf = (r: T) => locate(r).study_sid ?? '';
  const studyFields = (r: T): Partial<Finding> => {
    const at = locate(r);
    return { study_sid: at.study_sid ?? null, study_name: at.study_name ?? null };
  };
  const report = (r: T, severity: Severity, message: string) =>
    ctx.findings.push(finding({ kind: 'unit', severity, ...locate(r), reported_unit: r.unit, message, details: { [kind]: r } }));
  // Built only for a finding (this runs for every normed record).
  const where = (r: T) => `normed ${kind} ${r.pk}`;
  // What a type and unit (and a time unit) say, judged once per pair: ~58,000 outputs of the shared export share a few hundred.
  const timeUnits = new Map<string, boolean>();
  const verdicts = new Map<string, Map<string, UnitVerdict>>();
  for (let i = 0; i < records.length; i++) {
    const r = records[i];
    if (r.time_unit) {
      let bad = timeUnits.get(r.time_unit);
      if (bad === undefined) {
        // pint reads `na` (surely "not available") as nano-year: parseable, yet worth a curator's look.
        bad = parseUnitOrNull(r.time_unit)?.dimension.key !== '[time]' || r.time_unit === 'na';
        timeUnits.set(r.time_unit, bad);
      }
      if (bad) pushTo(badTimeUnits, `${studyOf(r)}\u0000${r.time_unit}`, r);
    }
    if (r.unit === null || r.unit === '') continue;
    let byUnit = verdicts.get(r.measurement_type);
    if (byUnit === undefined) verdicts.set(r.measurement_type, (byUnit = new Map()));
    let verdict = byUnit.get(r.unit);
    if (verdict === undefined) byUnit.set(r.unit, (verdict = unitVerdict(r.measurement_type, r.unit)));
    if (verdict.unparsed !== null) {
      report(r, 'minor', `${where(r)}: ${verdict.unparsed}`);
      continue;
    }
    if (verdict.unknownType !== null) pushTo(unknownTypes, `${studyOf(r)}\u0000${verdict.unknownType}`, r);
    else if (verdict.unit !== null) report(r, verdict.unit.severity, `${where(r)}: ${verdict.unit.message}`);
    if (r.calculated && verdict.calculated !== null) report(r, 'minor', `${where(r)}: ${verdict.calculated}`);
  }
  for (const [key, records] of unknownTypes) {
    const [, type, unit] = key.split('\u0000');
    const pks = records.map((r) => r.pk);
    ctx.findings.push(finding({ kind: 'unit', severity: 'info', ...studyFields(records[0]), measurement_type: type, reported_unit: unit, message: `${pks.length} normed ${kind} record(s) of measurement type '${type}' in '${unit}': the normalised-unit table has no entry for this type`, details: { pks: pks.slice(0, 20) } }));
  }
  for (const [key, records] of badTimeUnits) {
    const unit = key.slice(key.indexOf('\u0000') + 1);
    const pks = records.map((r) => r.pk);
    ctx.findings.push(finding({ kind: 'unit', severity: 'minor', ...studyFields(records[0]), message: `${pks.length} normed ${kind} record(s) with time_unit '${unit}', which is not a plain time unit (pint reads 'na' as nano-year)`, details: { time_unit: unit, pks: pks.slice(0, 20) } }));
  }
}

/**
 * Every normed-vs-raw finding of a dataset. With raw and normed records
 * (API data, fixtures): each raw intervention and output against its normed
 * copy. With normed records only (export zips): the units of interventions,
 * outputs and characteristica. Never throws on bad data: every problem is a
 * finding.
 */
export function checkNormedVsRaw(tables: DatasetTables, opts: NormedVsRawOptions = {}): Finding[] {
  const ctx: Context = { massOf: molarMassLookup(tables, opts.molarMasses), tolerance: opts.tolerance ?? 1e-9, findings: [] };
  const identities = { intervention: interventionIdentity, output: outputIdentity(interventionNames(tables.interventions)) } as Record<Kind, Identity>;
  for (const [kind, records] of [['intervention', tables.interventions], ['output', tables.outputs]] as const) {
    if (records.some((r) => !r.normed)) checkLinked(kind, records, identities[kind], ctx);
    else checkNormedUnits<Linkable>(kind, records, ctx, (r) => about(kind, r));
  }
  const characteristica = new Map<number, CharacteristicaRecord>();
  const studyOf = new Map<number, Pick<Finding, 'study_sid' | 'study_name'>>();
  for (const subject of [...tables.groups, ...tables.individuals]) {
    for (const c of subject.characteristica) {
      characteristica.set(c.pk, c);
      studyOf.set(c.pk, { study_sid: subject.study_sid, study_name: subject.study_name });
    }
  }
  checkNormedUnits('characteristica', [...characteristica.values()], ctx, (c) => ({ ...studyOf.get(c.pk), measurement_type: c.measurement_type }));
  return ctx.findings;
}
