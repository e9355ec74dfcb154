/**
 * What biology, rather than a slip, makes one arm's record lie off its siblings' (within-study.ts): its own PK
 * identities predicting it (`identityExplains`), a poor metaboliser's low metabolite (`poorMetaboliser`), a late
 * absorber's low early level (`lateAbsorber`); what it cannot do among subjects of one population (ALIKE_FACTOR: a
 * tenfold level beyond agreeing siblings; `eliminationInLine`: a tenfold level at the same elimination); and the
 * words and evidence these need from the run.
 */
import type { QaContext } from './context.js';
import { IDENTITIES } from './identities.js';
import type { Deviation } from './study-pools.js';
import type { ItemMeasure, StudyItem } from './study-items.js';
import { dosesItself, namedAfterDose } from './substance-relations.js';
import { pushTo } from '../data/records.js';
import { conversionFactorOrNull } from '../units/convert.js';

const fmt = (x: number) => String(+x.toPrecision(3));

/** Another record of the arm is in line within ×2. */
export const IN_LINE = Math.log(2);
/** Routes into the blood: no absorption phase. */
const INTRAVASCULAR: ReadonlySet<string> = new Set(['iv', 'intravenous', 'intraarterial']);

/**
 * A group off its sibling groups of the same population marks (arm-deviations.ts `onePopulation`) and dose (within ×2) is a slip from
 * ALIKE_FACTOR (a decimal slip and up), ALIKE_K spreads of theirs and ALIKE_ARMS of them: no period or formulation of
 * one population at one dose moves a group's exposure ×10 beyond its siblings' agreement.
 */
export const ALIKE_FACTOR = 10;
export const ALIKE_K = 5;
export const ALIKE_ARMS = 2;

/** Whether the record's arm has its siblings' dose (within ×2), or no dose ratio applies. */
export function sameDose(dev: Deviation): boolean {
  return dev.doseRatio === null || Math.abs(Math.log(dev.doseRatio)) <= IN_LINE;
}

/**
 * Less exposure than any phenotype gives (`lessThanAnyPhenotype`): the biology that moves one arm's exposure tenfold
 * raises it (a poor metaboliser, a failing liver or kidney, an inhibitor); towards less, an ultra-rapid metaboliser,
 * a smoker, pregnancy or a burn move clearance ×2–4, an inducer further but it is a co-medication, which puts the arm
 * in a pool of its own. A record at LESS_EXPOSURE_FACTOR or more of a slip factor and LESS_EXPOSURE_DISTANCE from the
 * centre of LESS_EXPOSURE_ARMS or more sibling arms of its strict pool (same co-interventions, route and dose within
 * ×2), ALIKE_K spreads of theirs out, is a slip. Not one individual's level or clearance after an oral dose: a tablet
 * that was vomited or never left the stomach gives one subject a tenth of the others' exposure, though not a faster
 * elimination (its reported t½ or kel count).
 */
export const LESS_EXPOSURE_FACTOR = 10;
export const LESS_EXPOSURE_DISTANCE = Math.log(8);
export const LESS_EXPOSURE_ARMS = 3;

/**
 * Whether `lead` lies below its siblings' exposure (`direction` < 0: a lower Cmax, AUC or curve, a higher CL or kel, a
 * shorter t½) farther than any phenotype takes one arm (see LESS_EXPOSURE_FACTOR); `intravascular`: its dose goes
 * into the blood (no absorption to fail).
 */
export function lessThanAnyPhenotype(lead: Deviation, factor: number, direction: number, intravascular: boolean): boolean {
  return (
    direction < 0 && lead.item.measure !== 'other' && lead.minFactor === 1 && sameDose(lead) && lead.arms >= LESS_EXPOSURE_ARMS &&
    Math.abs(Math.log(factor)) >= Math.log(LESS_EXPOSURE_FACTOR) - 1e-9 && Math.abs(lead.d) >= LESS_EXPOSURE_DISTANCE && Math.abs(lead.d) >= ALIKE_K * lead.s &&
    (lead.item.kind === 'group' || intravascular || (lead.item.source === 'reported' && UNABSORBED_ALIKE.has(lead.item.measure)))
  );
}

/** An individual's elimination, which a dose that was not absorbed leaves as it is (its level falls, not its rate). */
const UNABSORBED_ALIKE: ReadonlySet<ItemMeasure> = new Set(['thalf', 'kel']);

/** Whether an intervention's route goes into the blood (no absorption phase). */
export function intravascularRoute(route: string | null | undefined): boolean {
  return route != null && INTRAVASCULAR.has(route);
}

/** The measures of a curve's elimination (calculated from it, or reported for it). */
const ELIMINATION: ReadonlySet<ItemMeasure> = new Set(['thalf', 'kel', 'mrt']);
/** The measures of a curve's level. */
const LEVEL: ReadonlySet<ItemMeasure> = new Set(['curve', 'cmax', 'auc_end', 'auc_inf']);

/**
 * The record's half-life (kel, MRT: of its own curve, else one reported for its arm) in line (within ×2) with its
 * siblings' while its level (`lead`) is off by a slip `factor` of ×10 or more, ALIKE_K spreads of theirs, among
 * ALIKE_ARMS or more arms of one population by every curated trait (a cirrhosis arm's bioavailability may rise
 * tenfold) at their dose: the deviation that says so, else null. The biology that raises exposure tenfold does it
 * through clearance (a poor metaboliser, a failing liver or kidney), which moves the half-life with it; the same
 * elimination at a tenfold level needs a tenfold volume or bioavailability between subjects of one study. A unit
 * slip scales every level and leaves the shape alone.
 */
export function eliminationInLine(lead: Deviation, factor: number, own: readonly Deviation[], others: readonly Deviation[]): Deviation | null {
  if (!LEVEL.has(lead.item.measure) || Math.abs(Math.log(factor)) < Math.log(ALIKE_FACTOR)) return null;
  if (lead.samePopulation !== true || lead.arms < ALIKE_ARMS || Math.abs(lead.d) < ALIKE_K * lead.s || !sameDose(lead)) return null;
  const inLine = (d: Deviation) => ELIMINATION.has(d.item.measure) && Math.abs(d.d) <= IN_LINE;
  return own.find(inLine) ?? others.find(inLine) ?? null;
}

/** A deviation in words: `reported clearance per dose ×0.113`. */
export function describeDeviation(dev: Deviation): string {
  const what = dev.item.measure === 'curve' ? 'curve' : `${dev.item.source} ${dev.item.type}`;
  const norm = dev.item.rawLog !== null && dev.item.measure !== 'curve' ? ' per dose' : '';
  return `${what}${norm} ×${fmt(Math.exp(dev.d))}`;
}

/**
 * The PK identities of qa/identities.ts that hold whatever the route (equalities that apply after an extravascular
 * dose: CL = dose/AUC∞, t½ = ln 2/kel, Vz = CL·t½/ln 2 = CL/kel), each solved for every measure in it, on the log
 * scale of an arm's deviations from its siblings: the constant and F cancel between arms of one pool, and the dose
 * term is 0 as exposure deviations are per dose. By measure, the lists of [other measure, power] that predict it.
 */
const ARM_IDENTITIES: ReadonlyMap<ItemMeasure, readonly (readonly (readonly [ItemMeasure, number])[])[]> = (() => {
  const byMeasure = new Map<ItemMeasure, [ItemMeasure, number][][]>();
  for (const identity of IDENTITIES) {
    if (identity.kind !== 'equality' || identity.band('extravascular') === null) continue;
    const terms = identity.terms.filter((term) => term.slot !== 'dose');
    for (const target of terms) {
      const others = terms.filter((term) => term !== target).map((term): [ItemMeasure, number] => [term.slot as ItemMeasure, -term.power / target.power]);
      pushTo(byMeasure, target.slot as ItemMeasure, others);
    }
  }
  return byMeasure;
})();

/** How close an identity's prediction must come to the record's deviation to explain it (×2: rounding, methods). */
export const IDENTITY_EXPLAINS = Math.log(2);

/**
 * Whether the arm's own other records predict the off record's deviation through a PK identity (a V ×0.13 beside
 * its CL ×0.54 and kel ×3.0: CL/kel ×0.18): then the record is consistent with its arm, its deviation the arm's
 * physiology (or a slip elsewhere that a check of those records names), not a slip of its own. Returns the words.
 */
export function identityExplains(lead: Deviation, arm: readonly Deviation[]): string | null {
  const byMeasure = new Map<ItemMeasure, Deviation>();
  for (const d of arm) if (d.item.record !== lead.item.record && !byMeasure.has(d.item.measure)) byMeasure.set(d.item.measure, d);
  for (const terms of ARM_IDENTITIES.get(lead.item.measure) ?? []) {
    const parts = terms.map(([measure, power]) => [byMeasure.get(measure), power] as const);
    if (parts.some(([dev]) => dev === undefined)) continue;
    const predicted = parts.reduce((sum, [dev, power]) => sum + power * dev!.d, 0);
    if (Math.abs(predicted - lead.d) <= IDENTITY_EXPLAINS) return `${parts.map(([dev]) => describeDeviation(dev!)).join(' and ')} of the same arm give ×${fmt(Math.exp(predicted))}`;
  }
  return null;
}

/**
 * Whether the deviation is one individual's exposure (Cmax, AUC, curve) to a metabolite — a substance none of its
 * interventions gives — below its fellows': a poor metaboliser's, not a slip. A CYP2D6 poor metaboliser forms
 * ×1/20–1/100 the morphine of codeine its fellows form (Rogers1982: two of eight individuals, ×1/22 and ×1/58, with
 * their codeine in line), and a study that did not phenotype its subjects curates no mark that sets them apart.
 */
export function poorMetaboliser(lead: Deviation, others: readonly Deviation[], metabolite: (item: StudyItem) => boolean): boolean {
  if (lead.item.kind !== 'individual' || lead.d >= 0 || lead.d < -Math.log(POOR_METABOLISER_MAX) || !EXPOSURE_MEASURES.has(lead.item.measure)) return false;
  // Another exposure of the same metabolite in line: a phenotype would have lowered it too.
  return !others.some((d) => EXPOSURE_MEASURES.has(d.item.measure) && Math.abs(d.d) <= IN_LINE) && metabolite(lead.item);
}
/**
 * Whether the deviation is a single concentration sampled within ABSORPTION_HOURS of an extravascular dose, below its
 * fellows': before the peak one subject's level may still be near zero while the others' rise (a lag time, slow gastric
 * emptying: Sindrup1992, one of 32 codeine levels 1 h after the dose ×1/390 the others'), whatever the factor.
 */
export function lateAbsorber(lead: Deviation, hoursAfterOralDose: (item: StudyItem) => number | null): boolean {
  if (lead.item.measure !== 'other' || lead.item.type !== 'concentration' || lead.d >= 0) return false;
  const hours = hoursAfterOralDose(lead.item);
  return hours !== null && hours <= ABSORPTION_HOURS;
}
/** Up to this long after an extravascular dose, a concentration may still be rising in one subject and near its peak in others. */
export const ABSORPTION_HOURS = 2;

/** The furthest below its fellows a poor metaboliser's metabolite lies (×1/100, with a margin of 1.5); beyond, a slip. */
export const POOR_METABOLISER_MAX = 150;
const EXPOSURE_MEASURES: ReadonlySet<ItemMeasure> = new Set(['cmax', 'auc_end', 'auc_inf', 'curve']);

/** Hours after the record's extravascular dosing of its substance (or of the parent it is named after: codeine beside
 * quinidine), time units converted, for a reported value at a time; null for an IV dose, no time, none or several. */
export function hoursAfterOralDoseOf(ctx: QaContext): (item: StudyItem) => number | null {
  return (item) => {
    const o = item.output;
    if (!o || o.time === null || o.time_unit === null) return null;
    const dosings = ctx.dosingOfSet(o.intervention_pks).filter((d) => namedAfterDose(d.substance, o.substance));
    if (dosings.length !== 1 || dosings[0].route === null || intravascularRoute(dosings[0].route)) return null;
    const perHour = conversionFactorOrNull(o.time_unit, 'hour');
    const start = Number(dosings[0].time ?? 0);
    // A dose at a time other than 0 needs its unit; at 0 it needs none.
    const startPerHour = dosings[0].time_unit ? conversionFactorOrNull(dosings[0].time_unit, 'hour') : start === 0 ? 1 : null;
    if (perHour === null || startPerHour === null || !Number.isFinite(start)) return null;
    return o.time * perHour - start * startPerHour;
  };
}

/** Whether an item measures a substance none of its interventions gives, as itself or as a salt ('codeine phosphate' gives codeine). */
export function metaboliteOf(ctx: QaContext): (item: StudyItem) => boolean {
  return (item) => {
    const record = item.output ?? (item.timecourse ? ctx.dataset.output(item.timecourse.tc.output_pk[0]) : undefined);
    const substance = record?.substance;
    if (!record || !substance) return false;
    return !record.intervention_pks.some((pk) => dosesItself(ctx.dataset.intervention(pk)?.substance ?? null, substance));
  };
}
