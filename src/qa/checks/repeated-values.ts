/**
 * Repeated values of one key: the reported single values without a curated time of one subject, intervention set,
 * substance, tissue, measurement type and unit — repeated measurements (occasions a study did not curate apart), or
 * one quantity read from a table and from a figure. They measure the same thing of the same person or group, so
 * they agree; one that lies far off the others, which agree among themselves, by a slip factor that brings it back
 * among them is a slip of that record (major, culprit its output):
 * - from ×30 (BIG_FACTOR: no occasion moves one subject's value that far) off the median of two or more others,
 *   and SPREADS times their whole spread (log max − log min): urine concentrations of one subject vary ×5 with its
 *   urine flow, not ×1000;
 * - from ×10 off the median of three or more others that agree within ×2 (TIGHT_AGREEMENT);
 * and the factor must put it within the others' range (widened ×1.5 either way). A value within 10 % (SAME_VALUE) of
 * the median of another subject's values of the same type in the study is named as that subject's value instead when
 * it lies closer to it than the factor brings it to its own (a figure's values put on the wrong individuals).
 * Far off with neither: minor. A key with two values has no majority; a key whose others disagree has no reference:
 * neither is judged. Measured on the shared export: 148 keys of three or more such values; Holstege1989's individual
 * caffeine clearances, read from four tables and from figure 3A, hold the six it finds: five of the figure's values
 * are other individuals' (2346's 2.39 L/h is 2366's), the sixth matches nobody (minor).
 */
import type { QaCheck } from '../check.js';
import type { QaContext } from '../context.js';
import { finding, type Finding, type Severity } from '../finding.js';
import type { ParameterValue } from '../parameters.js';
import { median } from '../robust.js';
import { nearestSlipFactor, slipFamilyOf } from '../slip-factor.js';

export const CHECK = 'repeated-values';

/** Far off: ×30 from the others (within-study's BIG_FACTOR), or ×10 from tightly agreeing ones. */
export const BIG_FACTOR = 30;
export const SMALL_FACTOR = 10;
/** How far beyond the others' spread a big departure lies (in units of that spread, log scale). */
export const SPREADS = 3;
/** How closely the others agree (max / min) for a small departure, and three of them. */
export const TIGHT_AGREEMENT = 2;
/** The factor must bring the value within the others' range widened by this either way. */
export const LANDING = 1.5;

/** Within this of another subject's median, a value is taken for that subject's (a tenth: rounding and reading a figure). */
export const SAME_VALUE = 1.1;

const fmt = (x: number) => String(+x.toPrecision(3));

/** The reported single values without a time, by key, measurement type and unit (reported studies only). */
function repeatedValues(ctx: QaContext): ParameterValue[][] {
  const byKey = new Map<string, ParameterValue[]>();
  for (const p of ctx.parameters) {
    if (p.source !== 'reported' || p.value === null || !(p.value > 0) || p.unit === null || p.output.time !== null) continue;
    if (!ctx.reported(p.output.study_sid)) continue;
    const key = `${p.key}\u0001${p.measurement_type}\u0001${p.unit}`;
    const list = byKey.get(key);
    if (list) list.push(p);
    else byKey.set(key, [p]);
  }
  return [...byKey.values()];
}

/** Another subject of the study whose values of the same type the value matches: its label and their median. */
export interface OtherSubject {
  subject: string;
  median: number;
}

/** The key's values of one subject, by what identifies the quantity apart from the subject (study, type, unit, substance, tissue). */
const quantityOf = (p: ParameterValue) => `${p.output.study_sid}\u0001${p.measurement_type}\u0001${p.unit}\u0001${p.substance}\u0001${p.tissue}`;

/** The finding on one value against the others of its key, or null when it is in line or they do not agree. */
export function repeatedValueFinding(p: ParameterValue, others: readonly ParameterValue[], molarMass: number | null, otherSubjects: readonly OtherSubject[] = []): Finding | null {
  const logs = others.map((q) => Math.log(q.value as number));
  const low = Math.min(...logs);
  const high = Math.max(...logs);
  const spread = high - low;
  const centre = median(logs);
  const v = Math.log(p.value as number);
  const d = v - centre;
  const big = Math.abs(d) >= Math.log(BIG_FACTOR) && Math.abs(d) >= SPREADS * spread;
  const small = Math.abs(d) >= Math.log(SMALL_FACTOR) && spread <= Math.log(TIGHT_AGREEMENT) && others.length >= 3;
  if (!big && !small) return null;
  const family = slipFamilyOf(p.measurement_type, p.unit as string);
  // The factor nearest the departure, if it lands among the others.
  const nearest = family === null ? null : nearestSlipFactor(d, family, p.bodyWeightKg, Math.abs(d), undefined, molarMass);
  const landing = nearest === null ? null : v - Math.log(nearest.factor);
  const slip = landing !== null && landing >= low - Math.log(LANDING) && landing <= high + Math.log(LANDING) ? nearest : null;
  // Another subject's value, when the value lies closer to it than the factor brings it to its own subject's.
  let owner: OtherSubject | null = null;
  let ownerDistance = Infinity;
  for (const other of otherSubjects) {
    const distance = Math.abs(v - Math.log(other.median));
    if (distance <= Math.log(SAME_VALUE) && distance < ownerDistance) [owner, ownerDistance] = [other, distance];
  }
  if (owner !== null && slip !== null && Math.abs((landing as number) - centre) < ownerDistance) owner = null;
  // The slip factor named: only when no other subject's value explains it better.
  const factor = owner === null ? slip : null;
  const named = owner !== null || factor !== null;
  // A small departure is only a slip when a factor or another subject explains it; a big one is at least worth a look.
  if (!named && !big) return null;
  const severity: Severity = named ? 'major' : 'minor';
  const o = p.output;
  const ratio = Math.exp(d);
  const range = `${fmt(Math.exp(low))}–${fmt(Math.exp(high))} ${p.unit}`;
  const cause = owner !== null ? `the value of ${owner.subject} (median ${fmt(owner.median)} ${p.unit}): put on the wrong subject?` : factor?.text ?? null;
  return finding({
    kind: 'repeated-values', check: CHECK, severity, study_sid: o.study_sid, study_name: o.study_name, subset_pk: o.subset_pk, output_pk: o.pk,
    measurement_type: p.measurement_type, subject: p.subject, reported: p.value, reported_unit: p.unit,
    recomputed: factor ? (p.value as number) / factor.factor : Math.exp(centre), recomputed_unit: p.unit,
    ratio: factor ? factor.factor : ratio,
    suspected_cause: cause, culprit: named ? 'output' : null,
    message: `${p.measurement_type} ${fmt(p.value as number)} ${p.unit} is ×${fmt(ratio)} the median of the ${others.length} other values of its subject, intervention set, substance and tissue (${range}, no time curated: repeated measurements or one quantity read twice)${owner !== null ? `; it is ${cause}` : factor ? `; ${cause} brings it back among them` : '; no slip factor brings it back among them'}`,
    details: {
      rule: owner !== null ? 'another-subject' : big ? 'far-off' : 'off-tight', others: others.map((q) => q.output.pk), ...(owner !== null ? { owner: owner.subject } : {}),
      cause_kinds: factor ? [factor.kind] : [], cause_factors: factor ? [factor.factor] : [],
    },
  });
}

export function repeatedValueFindings(ctx: QaContext): Finding[] {
  const findings: Finding[] = [];
  const lists = repeatedValues(ctx);
  // Each subject's median per quantity, for a value that belongs to another subject.
  const subjects = new Map<string, OtherSubject[]>();
  for (const list of lists) {
    const entry = { subject: list[0].subject ?? '', median: Math.exp(median(list.map((q) => Math.log(q.value as number)))) };
    const quantity = quantityOf(list[0]);
    const known = subjects.get(quantity);
    if (known) known.push(entry);
    else subjects.set(quantity, [entry]);
  }
  for (const list of lists) {
    if (list.length < 3) continue;
    for (const p of list) ctx.examined('output', p.output.pk, CHECK);
    const molarMass = ctx.molarMass(list[0].substance);
    // Of the same kind: an individual's value put on another individual, a group's on another group.
    const own = list[0].subject ?? '';
    const kind = own.slice(0, own.indexOf(':') + 1);
    const otherSubjects = (subjects.get(quantityOf(list[0])) ?? []).filter((s) => s.subject !== own && s.subject.startsWith(kind));
    for (const p of list) {
      const f = repeatedValueFinding(p, list.filter((q) => q !== p), molarMass, otherSubjects);
      if (f) findings.push(f);
    }
  }
  return findings;
}

export const repeatedValuesCheck: QaCheck = {
  kind: 'repeated-values',
  description: 'reported values without a time of one subject, intervention set, substance, tissue and type against each other: one far off the others, which agree, by a slip factor',
  run: repeatedValueFindings,
};
