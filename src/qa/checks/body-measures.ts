/**
 * The `body-measure` check: the body measures a subject is curated with — a group's mean (else median, else value)
 * or an individual's weight, height, age, BMI and body surface area, and its obesity index, body fat, HbA1c and
 * haematocrit percentages — which the QA itself relies on (a per-kg value
 * is made absolute with the subject's weight), so a slip in one moves every conversion that uses it:
 * - against what any human has (human-limits.ts SUBJECT_LIMITS; for a subject curated as 18 years or older, an
 *   adult's lower limit: a weight of 7 kg is no adult's; for a group's mean, the heaviest cohorts': no group of
 *   adults averages 300 kg): beyond it is major, naming the unit slip that brings it
 *   back (pounds read as kilograms ×2.2046, grams ×1000, centimetres read as metres ×100, months read as years ×12,
 *   a decimal slip ×10), those landing in a healthy adult's range first;
 * - against each other: BMI = weight / height² (on the shared export the 272 subjects with all three agree within
 *   ×1.12; a group's means within a few per cent): off by more than BMI_AGREE, major, naming the one record whose
 *   unit slip reconciles them (weight in pounds: ×2.2046; height in centimetres: ×1/10⁴; a BMI ×10) — the one whose
 *   value as curated lies outside a healthy adult's range and whose corrected value inside, where several fit;
 * - a group's mean weight or height against the mean of its own individuals' values (MEMBERS or more; on the shared
 *   export 54 groups lie within ×0.89–1.03 of it): off by more than ×OFF_MEMBERS and a unit slip brings it back, major;
 * - an individual's weight or height against the other individuals of its group (FELLOWS or more that agree within
 *   ×FELLOWS_AGREE; on the shared export 2,134 individuals lie within ×0.55–1.69 of their group's mean weight): off
 *   by more than ×OFF_FELLOWS (none of the shared export's is) and a unit slip brings it within ×BACK_FELLOWS of
 *   their median (where any of them may lie), major;
 * - a group's mean weight above what a cohort not selected for obesity weighs (obesity.ts), the group not marked
 *   obese, pounds undone landing in a healthy adult's range: major (`cohort`), unless its individuals tell it.
 * The finding's subject and measurement type, and `details.characteristica`, name the record to fix. Not seen:
 * subjects of another species; measures whose unit does not convert.
 */
import { subjectFields, subjectLabel } from '../../data/dataset.js';
import type { CharacteristicaRecord, GroupRecord, IndividualRecord } from '../../data/model.js';
import { pushTo, representativeValue } from '../../data/records.js';
import { conversionFactorOrNull } from '../../units/convert.js';
import type { QaCheck } from '../check.js';
import type { SuspectedCause } from '../causes.js';
import type { QaContext } from '../context.js';
import { finding, type Finding } from '../finding.js';
import { ADULT_AGE, beyondBounds, subjectBounds, SUBJECT_LIMITS } from '../human-limits.js';
import { median } from '../robust.js';
import { mayBeHuman } from '../population.js';
import { markedObese, NON_OBESE_COHORT_HIGH_KG } from '../obesity.js';
import { judgeLimit } from './human-ranges.js';

const CHECK = 'body-measure';
const fmt = (x: number) => String(+x.toPrecision(3));

/** BMI and weight / height² agree within this (the shared export: within ×1.12). */
export const BMI_AGREE = 1.25;
/** A factor reconciles them when it brings the ratio within this. */
export const BMI_BACK = 1.15;
/** Other individuals of the group needed, and how closely they agree (max / min). */
export const FELLOWS = 3;
export const FELLOWS_AGREE = 2;
/** Individuals with their own value a group's mean is set against; how far off it is off, and how near a slip must bring it. */
export const MEMBERS = 3;
export const OFF_MEMBERS = 1.5;
export const BACK_MEMBERS = 1.15;
/** An individual this far off its fellows' median is off (the shared export: ×0.55–1.69 of the group's mean weight)… */
export const OFF_FELLOWS = 2;
/** …and a slip factor must bring it this near their median (within what individuals span: off is the question, not back). */
export const BACK_FELLOWS = 1.6;

/** Pounds in a kilogram: a weight in pounds read as kilograms is ×this. */
export const POUNDS_PER_KG = 2.2046;

/** slips by measure type: asked for every measure of every subject, each list built once. */
const slipLists = new Map<string, readonly SuspectedCause[]>();

/** The slips of each body measure (curated ÷ true), both ways where a value can slip either way. */
function slips(type: string): readonly SuspectedCause[] {
  let list = slipLists.get(type);
  if (list === undefined) slipLists.set(type, (list = buildSlips(type)));
  return list;
}

function buildSlips(type: string): SuspectedCause[] {
  const list: [number, string][] =
    type === 'weight'
      ? [[POUNDS_PER_KG, 'pounds read as kilograms'], [1000, 'grams read as kilograms'], [10, 'a decimal point slip']]
      : type === 'height'
        ? [[100, 'centimetres read as metres'], [1000, 'millimetres read as metres'], [39.37, 'inches read as metres'], [10, 'a decimal point slip']]
        : type === 'age'
          ? [[12, 'months read as years'], [52.18, 'weeks read as years'], [365.25, 'days read as years'], [10, 'a decimal point slip']]
          : type === 'bmi'
            ? [[1e-4, 'height in centimetres'], [10, 'a decimal point slip']]
            : type === 'body surface area'
              ? [[1e4, 'square centimetres read as square metres'], [10, 'a decimal point slip']]
              : // a percentage (obesity index, body fat, HbA1c, haematocrit)
                [[100, 'a percentage curated as a fraction: 97.3 with the unit 1 is 9,730 %'], [10, 'a decimal point slip']];
  const label = (f: number) => (f >= 1 ? `×${+f.toPrecision(4)}` : `×1/${+(1 / f).toPrecision(4)}`);
  return list.flatMap(([f, words]) => [
    { kind: 'unit-factor' as const, factor: f, text: `${label(f)} (${words})` },
    { kind: 'unit-factor' as const, factor: 1 / f, text: `${label(1 / f)} (${words}, the other way)` },
  ]);
}

/** The slip of a measure of `type` nearest a ratio `off` (curated ÷ expected), if within ×`within` of it. */
function nearestSlip(type: string, off: number, within: number): SuspectedCause | null {
  let best: SuspectedCause | null = null;
  for (const c of slips(type)) {
    const distance = Math.abs(Math.log(off / c.factor));
    if (distance <= Math.log(within) && (best === null || distance < Math.abs(Math.log(off / best.factor)))) best = c;
  }
  return best;
}

/** One subject's measure: its record, value and unit converted to the limit's unit. */
interface Measure {
  record: CharacteristicaRecord;
  type: string;
  value: number;
  unit: string;
}

/** The subject's body measures in SUBJECT_LIMITS' units (the first of each type whose unit converts). */
function measuresOf(characteristica: readonly CharacteristicaRecord[]): Map<string, Measure> {
  const measures = new Map<string, Measure>();
  for (const c of characteristica) {
    const limit = SUBJECT_LIMITS.get(c.measurement_type);
    if (!limit || measures.has(c.measurement_type) || c.unit === null) continue;
    const raw = representativeValue(c);
    const factor = raw === null ? null : conversionFactorOrNull(c.unit, limit.unit);
    if (raw === null || factor === null || !Number.isFinite(raw)) continue;
    measures.set(c.measurement_type, { record: c, type: c.measurement_type, value: raw * factor, unit: limit.unit });
  }
  return measures;
}

interface Subject {
  record: GroupRecord | IndividualRecord;
  label: string;
  measures: Map<string, Measure>;
}

function measureFinding(subject: Subject, m: Measure, rule: string, causes: readonly SuspectedCause[], message: string, expected: number | null): Finding {
  const cause = causes[0] ?? null;
  return finding({
    kind: CHECK,
    check: `${CHECK}/${rule}`,
    severity: 'major',
    study_sid: subject.record.study_sid,
    study_name: subject.record.study_name,
    measurement_type: m.type,
    subject: subject.label,
    reported: m.value,
    reported_unit: m.unit,
    recomputed: cause ? m.value / cause.factor : expected,
    recomputed_unit: m.unit,
    ratio: cause ? cause.factor : expected !== null ? m.value / expected : null,
    suspected_cause: causes.length > 0 ? causes.map((c) => c.text).join(', or ') : null,
    // The characteristic is the record to fix, but where the BMI identity cannot tell which of three it is.
    culprit: rule === 'bmi' && causes.length !== 1 ? null : 'subject',
    message,
    details: {
      characteristica: { pk: m.record.pk },
      cause_kinds: causes.map((c) => c.kind),
      cause_factors: causes.map((c) => c.factor),
    },
  });
}

/** The bounds of a subject's measure (its age for an adult's lower limit; a group's mean's upper limit). */
function boundsFor(subject: Subject, m: Measure, age: number | null) {
  return subjectBounds(m.type, m.type === 'age' ? null : age, 'count' in subject.record ? subject.record.count : null);
}

/** Whether any of the subject's measures lies beyond its bounds (then no other rule sets it against anything). */
function beyondAny(subject: Subject): boolean {
  const age = subject.measures.get('age')?.value ?? null;
  return [...subject.measures.values()].some((m) => beyondBounds(m.value, boundsFor(subject, m, age)) !== null);
}

/**
 * Beyond what any human (any adult, from ADULT_AGE) has. A characteristic listed by several subjects (a group's,
 * repeated in its subgroups and individuals) is judged once, with its first subject (`judged` holds the pks seen).
 */
function limitFindings(subject: Subject, judged: Set<number>): Finding[] {
  const age = subject.measures.get('age')?.value ?? null;
  const findings: Finding[] = [];
  for (const m of subject.measures.values()) {
    if (judged.has(m.record.pk)) continue;
    judged.add(m.record.pk);
    const bounds = boundsFor(subject, m, age);
    const verdict = judgeLimit(m.value, bounds, slips(m.type));
    if (verdict === null) continue;
    const limit = SUBJECT_LIMITS.get(m.type)!;
    const back = verdict.causes.length > 0 ? `; undoing ${verdict.causes.map((c) => `${c.text.split(' (')[0]} gives ${fmt(m.value / c.factor)}`).join(', ')} ${m.unit}` : '; no unit slip brings it inside';
    const who =
      verdict.side === 'below' && age !== null && age >= ADULT_AGE && bounds.low === limit.adultLow
        ? `any adult (age ${fmt(age)} years)`
        : verdict.side === 'above' && bounds.high === limit.groupHigh
          ? `any group's mean (n = ${(subject.record as GroupRecord).count})`
          : 'any human';
    findings.push(
      measureFinding(subject, m, 'limit', verdict.causes,
        `${subject.label}'s ${m.type} ${fmt(m.value)} ${m.unit} is ${verdict.side} what ${who} has (${fmt(bounds.low)}–${fmt(bounds.high)} ${m.unit}: ${limit.basis})${back}`,
        bounds.typical),
    );
  }
  return findings;
}

/** Whether a measure lies in a healthy adult's range (SUBJECT_LIMITS `normal`). */
function normalOf(type: string, v: number): boolean {
  const [lo, hi] = SUBJECT_LIMITS.get(type)!.normal;
  return v >= lo && v <= hi;
}

/** BMI against weight / height² (see the header); the measures already beyond their limits are limitFindings'. */
function bmiFinding(subject: Subject): Finding | null {
  const [w, h, b] = ['weight', 'height', 'bmi'].map((t) => subject.measures.get(t));
  if (!w || !h || !b || !(w.value > 0) || !(h.value > 0) || !(b.value > 0)) return null;
  const ratio = w.value / (h.value * h.value) / b.value;
  if (Math.abs(Math.log(ratio)) <= Math.log(BMI_AGREE)) return null;
  // Each record's slips, as the ratio each would produce (weight f: f; height g: 1/g²; BMI b: 1/b), that bring it back.
  const fits: { m: Measure; cause: SuspectedCause; corrected: number }[] = [];
  for (const m of [w, h, b]) {
    for (const cause of slips(m.type)) {
      const produced = m === w ? cause.factor : m === h ? 1 / (cause.factor * cause.factor) : 1 / cause.factor;
      const corrected = m.value / cause.factor;
      if (Math.abs(Math.log(ratio / produced)) > Math.log(BMI_BACK) || beyondBounds(corrected, subjectBounds(m.type, null)) !== null) continue;
      fits.push({ m, cause, corrected });
    }
  }
  // Where several records fit, the one atypical as curated and typical corrected; else all stay candidates.
  const telling = fits.filter((f) => !normalOf(f.m.type, f.m.value) && normalOf(f.m.type, f.corrected));
  const named = telling.length === 1 ? telling : fits;
  const lead = named[0]?.m ?? b;
  const candidates = named.length > 0 ? `: ${named.map((f) => `${f.m.type} ${f.cause.text}`).join(', or ')}` : '; no unit slip of one of them reconciles them';
  return measureFinding(
    subject, lead, 'bmi', named.length === 1 ? [named[0].cause] : [],
    `${subject.label}'s BMI ${fmt(b.value)} ${b.unit} is ×${fmt(1 / ratio)} its weight / height² (${fmt(w.value)} ${w.unit} / (${fmt(h.value)} ${h.unit})² = ${fmt(w.value / (h.value * h.value))})${candidates}`,
    null,
  );
}

/** The height (m) above which weight / BMI names no subject (a group's mean, an individual: the shared export's 1.45–1.86 m). */
export const IMPLIED_HEIGHT_HIGH = 2.1;
/** The lowest height a slip undone may land on (an adult of 1.45 m is in the shared export). */
export const IMPLIED_HEIGHT_LOW = 1.3;

/**
 * Weight and BMI without a height: the height they imply, √(weight / BMI), above IMPLIED_HEIGHT_HIGH is no subject's;
 * the one slip of the weight or the BMI that brings it into a healthy adult's height range is named (a 90 kg cohort of
 * BMI 31.4 in pounds implies 2.51 m; undone, 1.69 m).
 */
function impliedHeightFinding(subject: Subject): Finding | null {
  const [w, h, b] = ['weight', 'height', 'bmi'].map((t) => subject.measures.get(t));
  if (!w || h || !b || !(w.value > 0) || !(b.value > 0)) return null;
  const implied = Math.sqrt(w.value / b.value);
  if (implied <= IMPLIED_HEIGHT_HIGH) return null;
  const fits = [w, b].flatMap((m) =>
    slips(m.type)
      .map((cause) => ({ m, cause, height: m === w ? Math.sqrt(w.value / cause.factor / b.value) : Math.sqrt((w.value * cause.factor) / b.value) }))
      .filter((f) => f.height >= IMPLIED_HEIGHT_LOW && f.height <= IMPLIED_HEIGHT_HIGH),
  );
  // A weight ×10 and a BMI ×1/10 imply the same height: the one atypical as curated and typical undone tells them apart.
  const telling = fits.filter((f) => !normalOf(f.m.type, f.m.value) && normalOf(f.m.type, f.m.value / f.cause.factor));
  const named = fits.length === 1 ? fits[0] : telling.length === 1 ? telling[0] : null;
  const shown = named ? [named] : fits;
  const candidates = shown.length > 0 ? `: ${shown.map((f) => `${f.m.type} ${f.cause.text} (${fmt(f.height)} m)`).join(', or ')}` : `; no unit slip of either brings it within ${IMPLIED_HEIGHT_LOW}–${IMPLIED_HEIGHT_HIGH} m`;
  return measureFinding(subject, named?.m ?? w, 'bmi', named ? [named.cause] : [],
    `${subject.label}'s weight ${fmt(w.value)} ${w.unit} and BMI ${fmt(b.value)} ${b.unit} imply a height of ${fmt(implied)} m (√(weight / BMI)), above any subject's ${IMPLIED_HEIGHT_HIGH} m${candidates}`,
    null);
}

/**
 * A group's mean weight above what a cohort not selected for obesity weighs on average (obesity.ts
 * NON_OBESE_COHORT_HIGH_KG), the group not marked obese (`markedObese`), where pounds undone bring it into a
 * healthy adult's range: major, naming pounds read as kilograms (Barr1990's "old" group of the shared export, 170.8 kg).
 * The limits of any human (limitFindings) go to 250 kg for a group: a bariatric cohort's mean.
 */
function cohortFinding(subject: Subject, groupName: string | null, shared: ReadonlySet<number>): Finding | null {
  const m = subject.measures.get('weight');
  const record = subject.record;
  // A cohort's mean: a group's (of two or more), or one its individuals all list (Ma2008's 13 individuals each list
  // the group's 75.8 kg, count 13), judged with the group's name.
  const count = 'count' in record ? record.count : m && shared.has(m.record.pk) ? m.record.count : null;
  if (!m || (count ?? 0) < 2 || !(m.value > NON_OBESE_COHORT_HIGH_KG)) return null;
  if (markedObese(groupName ?? record.name, record.characteristica)) return null;
  const pounds = slips('weight').find((c) => c.factor === POUNDS_PER_KG);
  if (!pounds || !normalOf('weight', m.value / pounds.factor)) return null;
  return measureFinding(subject, m, 'cohort', [pounds],
    `${subject.label}'s mean weight ${fmt(m.value)} ${m.unit} (n = ${count}) is above what a cohort not selected for obesity weighs on average (${NON_OBESE_COHORT_HIGH_KG} ${m.unit}: a mean BMI of 34 at 1.84 m), and nothing marks the group obese (its name, a weight category, obesity index, BMI or disease); undoing ${pounds.text.split(' (')[0]} gives ${fmt(m.value / pounds.factor)}`,
    m.value / pounds.factor);
}

/**
 * A group's mean weight or height against the mean of its own individuals' values (MEMBERS or more, each its own
 * record, not the group's inherited): the group's mean is theirs (on the shared export 54 groups lie within
 * ×0.89–1.03 of it); off by more than ×OFF_MEMBERS with a unit slip bringing it within ×BACK_MEMBERS, major, naming
 * the group's characteristic.
 */
function groupMemberFindings(group: Subject, members: readonly Subject[]): Finding[] {
  const findings: Finding[] = [];
  for (const type of ['weight', 'height']) {
    const m = group.measures.get(type);
    if (!m || !(m.value > 0)) continue;
    const own = members.map((s) => s.measures.get(type)).filter((x): x is Measure => x !== undefined && x.record.pk !== m.record.pk && x.value > 0);
    if (own.length < MEMBERS) continue;
    const mean = own.reduce((sum, x) => sum + x.value, 0) / own.length;
    const off = m.value / mean;
    if (Math.abs(Math.log(off)) <= Math.log(OFF_MEMBERS)) continue;
    const back = nearestSlip(type, off, BACK_MEMBERS);
    if (back === null) continue;
    findings.push(
      measureFinding(group, m, 'members', [back],
        `${group.label}'s mean ${type} ${fmt(m.value)} ${m.unit} is ×${fmt(off)} the mean ${fmt(mean)} ${m.unit} of its ${own.length} individuals; undoing ${back.text.split(' (')[0]} gives ${fmt(m.value / back.factor)}`,
        mean),
    );
  }
  return findings;
}

/** An individual's weight or height against its group's other individuals (see the header). */
function fellowFindings(members: readonly Subject[]): Finding[] {
  const findings: Finding[] = [];
  for (const type of ['weight', 'height']) {
    const withIt = members.filter((s) => s.measures.has(type));
    if (withIt.length < FELLOWS + 1) continue;
    // A group whose members all lie within ×OFF_FELLOWS of each other has no one that far off the others (most groups).
    const values = withIt.map((s) => s.measures.get(type)!.value);
    if (Math.min(...values) > 0 && Math.max(...values) / Math.min(...values) <= OFF_FELLOWS) continue;
    for (const subject of withIt) {
      const m = subject.measures.get(type)!;
      const others = withIt.filter((s) => s !== subject).map((s) => s.measures.get(type)!.value).filter((v) => v > 0);
      if (others.length < FELLOWS || Math.max(...others) / Math.min(...others) > FELLOWS_AGREE || !(m.value > 0)) continue;
      const centre = median([...others].sort((a, b) => a - b));
      const off = m.value / centre;
      if (Math.abs(Math.log(off)) <= Math.log(OFF_FELLOWS)) continue;
      const back = nearestSlip(type, off, BACK_FELLOWS);
      if (back === null) continue;
      findings.push(
        measureFinding(subject, m, 'fellows', [back],
          `${subject.label}'s ${type} ${fmt(m.value)} ${m.unit} is ×${fmt(off)} the median ${fmt(centre)} ${m.unit} of the ${others.length} other individuals of its group, which agree within ×${FELLOWS_AGREE}; undoing ${back.text.split(' (')[0]} gives ${fmt(m.value / back.factor)}`,
          centre),
      );
    }
  }
  return findings;
}

export const bodyMeasuresCheck: QaCheck = {
  kind: CHECK,
  description: "a subject's body weight, height, age, BMI, body surface area and body percentages (obesity index, body fat, HbA1c, haematocrit) against what any human (any adult, any group's mean) has, BMI against weight / height², a group's mean weight and height against its own individuals', and an individual's against its group's other individuals; a group's mean weight against what a cohort not marked obese weighs",
  run(ctx: QaContext) {
    const findings: Finding[] = [];
    const subjectOf = (record: GroupRecord | IndividualRecord, kind: 'group' | 'individual'): Subject => ({
      record,
      label: subjectLabel({ kind, pk: record.pk }) as string,
      measures: measuresOf(record.characteristica),
    });
    const byGroup = new Map<number, Subject[]>();
    const groups = new Map<number, Subject>();
    const judged = new Set<number>();
    const judgedTrios = new Map<string, boolean>();
    // Characteristica several individuals list (one record: their group's statistic, not a person's own value).
    const listed = new Set<number>();
    const sharedByIndividuals = new Set<number>();
    for (const individual of ctx.tables.individuals) for (const c of individual.characteristica) (listed.has(c.pk) ? sharedByIndividuals : listed).add(c.pk);
    // Groups too heavy for a cohort not marked obese (cohortFinding): named unless their individuals tell it more exactly.
    const cohorts = new Map<number, Finding>();
    for (const [kind, records] of [['group', ctx.tables.groups], ['individual', ctx.tables.individuals]] as const) {
      for (const record of records) {
        if (!ctx.reported(record.study_sid) || record.characteristica.length === 0) continue;
        const subject = subjectOf(record, kind);
        if (subject.measures.size === 0) continue;
        if (!mayBeHuman(ctx.dataset, subjectFields(subject.label))) continue;
        // A measure beyond its limits is named there (once, with its first subject): the other rules would only repeat it.
        if (beyondAny(subject)) {
          findings.push(...limitFindings(subject, judged));
          continue;
        }
        // Weight, height and BMI a group's individuals inherit are judged once, with its first subject.
        const trio = ['weight', 'height', 'bmi'].map((t) => subject.measures.get(t)?.record.pk ?? '').join('|');
        const seen = judgedTrios.get(trio);
        const bmi = seen !== undefined ? null : (bmiFinding(subject) ?? impliedHeightFinding(subject));
        if (seen === undefined) judgedTrios.set(trio, bmi !== null);
        if (bmi) findings.push(bmi);
        // A weight the BMI rule named (here or with the subject it was judged with) is not named again as a cohort's.
        const named = bmi !== null || seen === true;
        const groupPk = kind === 'individual' ? (record as IndividualRecord).group_pk : record.pk;
        const groupName = groupPk === null ? null : (ctx.dataset.group(groupPk)?.name ?? null);
        const weightPk = subject.measures.get('weight')?.record.pk;
        const cohort = !named && weightPk !== undefined && !judged.has(weightPk) ? cohortFinding(subject, groupName, sharedByIndividuals) : null;
        if (cohort && weightPk !== undefined) {
          judged.add(weightPk);
          // Keyed by group: its individuals' own weights, when it has them, tell it more exactly (groupMemberFindings).
          if (groupPk !== null && !cohorts.has(groupPk)) cohorts.set(groupPk, cohort);
          else if (groupPk === null) findings.push(cohort);
        }
        if (kind === 'group') groups.set(record.pk, subject);
        const group = kind === 'individual' ? (record as IndividualRecord).group_pk : null;
        if (group !== null) pushTo(byGroup, group, subject);
      }
    }
    for (const [pk, members] of byGroup) {
      const group = groups.get(pk);
      const ofGroup = group ? groupMemberFindings(group, members) : [];
      findings.push(...ofGroup);
      if (ofGroup.some((f) => f.measurement_type === 'weight')) cohorts.delete(pk);
      // A group's mean off its individuals is the group's slip: its members are then set against each other as usual.
      findings.push(...fellowFindings(members));
    }
    findings.push(...cohorts.values());
    return findings;
  },
};
