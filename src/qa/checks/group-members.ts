/**
 * The `group-members` check: a group's reported arithmetic mean against the
 * values of its own individuals (an individual's `group_pk`) for the same
 * study, intervention set, substance, tissue, measurement type, unit and time —
 * reported values, and concentration curves point by point at the times both
 * share. It needs no dose, no other arm and no other study, so it sees
 * single-arm studies that within-study and the reference ranges cannot.
 *
 * Arithmetic: a mean μ of a group of n subjects is Σx/n over all n of them.
 * - Complete (every one of the n individuals curated, m = n): mean(x) = μ
 *   (digitising and rounding: within ×IDENTITY_SLACK).
 * - Partial (m < n): values are ≥ 0, so Σ of the curated ones ≤ n·μ (within
 *   ×IDENTITY_SLACK). Only a sum too high is a contradiction.
 * - Samuelson's inequality (Samuelson 1968), where the group reports its SD s (reported values):
 *   no one of n values lies further than s·(n−1)/√n from their mean, so each
 *   curated individual is within that of μ (×IDENTITY_SLACK), complete or not.
 * For a curve, x and μ at each shared time, the residual the median over those
 * times (a digitised point or two off does not decide). Reported values are
 * taken as written: each anywhere within half its last decimal place
 * (`roundingHalfStep`), so that values of one significant digit (0.001, ±50 %)
 * never break an identity that their rounding can hold.
 *
 * When the arithmetic fails, which record holds the slip:
 * - one individual, off the median of its fellow members by ≥ ×MEMBER_OUTLIER,
 *   whose value ÷ a slip factor of causes.ts (×10, ×1000, ×60, ×24, per-kg with
 *   its body weight, molar ↔ mass with the molar mass) is back within ×MEMBER_BACK
 *   of them and makes the arithmetic hold: that individual's value (major);
 * - else the group's mean, when its members agree among themselves (all
 *   within ×MEMBER_BACK of their median) and the mean × a slip factor is their
 *   mean (complete), or for a partial set a factor of ×10 and more (a subset's
 *   mean is not the whole group's, but not tenfold) with the sum above n·μ (a
 *   mean too low) or Samuelson broken (too high): the group's value (major);
 * - where the arithmetic holds within the slack but not to its rounding (a complete set of reported values), the one
 *   member ×MEMBER_OUTLIER off its fellows whose slip factor undone makes the mean exact (EXACT_MEMBER_HOLD): a ×1/10
 *   individual of ten moves their mean by −9 % only (major);
 * - else nothing is named (a group mean that is a geometric mean or a median
 *   curated as the mean, individuals from another table): no finding.
 * It cannot see a slip shared by the group and its members, a group without
 * curated individuals, or an individual slip that the arithmetic absorbs (a
 * ×1/10 individual of a partial set lowers a sum that only has an upper bound).
 */
import type { OutputRecord } from '../../data/model.js';
import { pushTo, representativeSeries } from '../../data/records.js';
import type { QaCheck } from '../check.js';
import { slipFactors, type SuspectedCause } from '../causes.js';
import type { QaContext, RecomputedTimecourse } from '../context.js';
import { finding, type Finding } from '../finding.js';
import { referenceBacks, referenceRefutes } from '../range-run.js';
import { median } from '../robust.js';
import { roundingHalfStep } from '../rounding.js';
import { slipFamilyOf as familyOf } from '../slip-factor.js';
import { Numbering } from '../study-ids.js';
import { curveProfile } from '../study-items.js';
import type { SlipFamily } from '../causes.js';

/** The arithmetic holds within this factor (digitised means, rounded individual values). */
export const IDENTITY_SLACK = 1.2;
/**
 * A member this far from the median of its fellow members may hold a slip: less than within-study's ×5, as the
 * arithmetic, not the spread, is the evidence here (a ×3.5 molar slip of one of six makes their mean ×1.4 the group's).
 */
export const MEMBER_OUTLIER = 3;
/**
 * In a complete set, a member nearer its fellows than ×MEMBER_OUTLIER (a molar ↔ mass slip of ×2–3 hides in the
 * spread of individuals) is named when dividing it by a slip factor closes the arithmetic to within
 * ×EXACT_FIX_SLACK, from beyond ×IDENTITY_SLACK, and no other member or factor does: a mean of n is exact up to its
 * rounding, so an off mean that one member's factor makes exact is that member, not the spread.
 */
export const EXACT_FIX_OUTLIER = 1.8;
export const EXACT_FIX_SLACK = 1.04;
/**
 * Inside the slack: a complete set of reported values whose mean is off the group's by more than its rounding
 * (beyond ×EXACT_FIX_SLACK) though within ×IDENTITY_SLACK, with one member ×MEMBER_OUTLIER or more off its fellows
 * whose slip factor undone makes the mean exact (within ×EXACT_MEMBER_HOLD) and no other member or factor does: one
 * individual's ×1/10 among ten moves their mean only −9 %, and a subject really that far off (a poor metaboliser)
 * is in the group's mean as curated, so the arithmetic holds with its value as it is, not with the factor undone.
 */
export const EXACT_MEMBER_HOLD = 1.015;

/** A slip factor must bring the member (or the group) back within this factor of the others. */
export const MEMBER_BACK = 3;
/** Smallest factor named on a group mean against a partial set of its members. */
export const PARTIAL_GROUP_FACTOR = 10;
/** Shared times a curve comparison needs. */
export const MIN_TIMES = 3;

const fmt = (x: number) => String(+x.toPrecision(3));

/**
 * A group and its members on a common grid: `mean[t]` the group's mean, `members[j][t]` member j's value at the
 * same point (T = 1 for a reported value). Every entry positive.
 */
export interface MemberSet {
  /** The group's count n (≥ the number of members). */
  n: number;
  mean: readonly number[];
  members: readonly (readonly number[])[];
  /** The group's SD at each point, when it reports one (Samuelson's bound). */
  sd?: readonly number[] | null;
}

/**
 * ln of how far the arithmetic is off, the median over the points, each member's values divided by `divisors[j]`:
 * complete, ln(mean of members / μ); partial, ln(Σ members / (n·μ)) (≤ ln IDENTITY_SLACK holds).
 */
export function arithmeticResidual(set: MemberSet, divisors: readonly number[] = set.members.map(() => 1)): number {
  const m = set.members.length;
  const complete = m === set.n;
  const logs = set.mean.map((mu, t) => {
    let sum = 0;
    for (let j = 0; j < m; j++) sum += set.members[j][t] / divisors[j];
    return Math.log(complete ? sum / m / mu : sum / (set.n * mu));
  });
  return median(logs);
}

/**
 * Samuelson's inequality: the largest distance of a member (÷ its divisor) from μ in units of s·(n−1)/√n, the median
 * over the points; null without an SD. Above IDENTITY_SLACK no sample of n with this mean and SD can hold it.
 */
export function samuelsonExcess(set: MemberSet, divisors: readonly number[] = set.members.map(() => 1)): number | null {
  const sd = set.sd;
  if (!sd || set.n < 2) return null;
  const reach = (set.n - 1) / Math.sqrt(set.n);
  let worst = 0;
  for (let j = 0; j < set.members.length; j++) {
    const excess = median(set.mean.map((mu, t) => Math.abs(set.members[j][t] / divisors[j] - mu) / (sd[t] * reach)));
    worst = Math.max(worst, excess);
  }
  return worst;
}

/**
 * The residual of a set of reported values (one point) moved towards 0 by what their rounding allows: each member
 * and the mean anywhere within half their last decimal place (0.001 of 0.004, 0.001, 0.003 may be 0.0015). Values
 * of one significant digit carry up to ±50 %: an identity of such values is no evidence at 20 %.
 */
function roundedResidual(set: MemberSet, residual: number, divisors: readonly number[]): number {
  if (set.mean.length !== 1 || residual === 0) return residual;
  const m = set.members.length;
  const mu = set.mean[0];
  const towards = residual < 0 ? 1 : -1; // members too low: each may be up to half a step higher, μ lower
  let sum = 0;
  for (let j = 0; j < m; j++) sum += (set.members[j][0] + towards * roundingHalfStep(set.members[j][0])) / divisors[j];
  const muBound = mu - towards * roundingHalfStep(mu);
  if (!(sum > 0) || !(muBound > 0)) return 0;
  const moved = Math.log(m === set.n ? sum / m / muBound : sum / (set.n * muBound));
  return Math.sign(moved) === Math.sign(residual) ? moved : 0;
}

/**
 * Whether the arithmetic holds: within ×IDENTITY_SLACK either way when complete, below n·μ·IDENTITY_SLACK when
 * partial, after the rounding of reported values (roundedResidual); and every member within Samuelson's reach
 * (×IDENTITY_SLACK) when the group reports an SD.
 */
export function arithmeticHolds(set: MemberSet, residual: number, divisors: readonly number[] = set.members.map(() => 1)): boolean {
  const slack = Math.log(IDENTITY_SLACK);
  const rounded = roundedResidual(set, residual, divisors);
  const sums = set.members.length === set.n ? Math.abs(rounded) <= slack : rounded <= slack;
  if (!sums) return false;
  const excess = samuelsonExcess(set, divisors);
  return excess === null || excess <= IDENTITY_SLACK;
}

/** ln of member k's distance from the median of its fellow members, the median over the points. */
export function memberDeviation(set: MemberSet, k: number): number {
  return median(set.mean.map((_, t) => Math.log(set.members[k][t] / median(set.members.filter((_, j) => j !== k).map((x) => x[t])))));
}

export type Verdict =
  | { culprit: 'member'; index: number; cause: SuspectedCause; deviation: number; residual: number; fixed: number }
  /** `cause` null: a complete set off ×UNEXPLAINED_GROUP or more that no slip factor of the group's mean reconciles. */
  | { culprit: 'group'; cause: SuspectedCause | null; residual: number; fixed: number }
  | null;

/**
 * A complete set of three or more members that agree with each other (each within ×MEMBER_BACK of its fellows)
 * while their mean is this far or farther from the group's: the group's mean is off, whether or not a slip factor
 * names how (the mean of n is Σx/n; a median or a geometric mean curated as the mean departs from it by ×2 at most
 * for such a set). Lowenthal1976: two groups' metabolite Cmax ×1/15 the mean of their five individuals each.
 */
export const UNEXPLAINED_GROUP = 5;

/**
 * Which record the arithmetic convicts (see the header), given the slip factors of the quantity for each member
 * (`factorsOf(j)`, per-kg by its own weight) and of the group (`groupFactors`). Null when it holds or no single
 * record with a slip factor explains it.
 */
export function judge(set: MemberSet, factorsOf: (member: number) => readonly SuspectedCause[], groupFactors: readonly SuspectedCause[]): Verdict {
  const m = set.members.length;
  if (m < 2 || set.n < m) return null;
  const residual = arithmeticResidual(set);
  if (arithmeticHolds(set, residual)) return exactMember(set, residual, factorsOf);
  const back = Math.log(MEMBER_BACK);
  const candidates: { index: number; cause: SuspectedCause; deviation: number; fixed: number }[] = [];
  const complete = m === set.n;
  if (m >= 3) {
    for (let k = 0; k < m; k++) {
      const deviation = memberDeviation(set, k);
      const near = Math.abs(deviation) < Math.log(MEMBER_OUTLIER);
      if (near && !(complete && Math.abs(deviation) >= Math.log(EXACT_FIX_OUTLIER))) continue;
      // Of several factors that restore it, the closest: complete, by the identity's residual; partial (a bound), by
      // how near the member comes to its fellows.
      let best: { cause: SuspectedCause; fixed: number; score: number } | null = null;
      for (const cause of factorsOf(k)) {
        const distance = Math.abs(deviation - Math.log(cause.factor));
        if (distance > back) continue;
        const divisors = set.members.map((_, j) => (j === k ? cause.factor : 1));
        const fixed = arithmeticResidual(set, divisors);
        const score = complete ? Math.abs(fixed) : distance;
        if (near && Math.abs(fixed) > Math.log(EXACT_FIX_SLACK)) continue;
        if (arithmeticHolds(set, fixed, divisors) && (best === null || score < best.score)) best = { cause, fixed, score };
      }
      if (best) candidates.push({ index: k, deviation, cause: best.cause, fixed: best.fixed });
    }
  }
  if (candidates.length === 1) return { culprit: 'member', residual, ...candidates[0] };
  if (candidates.length > 1) return null;
  // The group's mean: its members agree with each other, and the mean × a slip factor is theirs.
  for (let k = 0; k < m; k++) if (Math.abs(memberDeviation(set, k)) > back) return null;
  // ln(mean of members / μ): complete, the residual itself; partial, the subset's mean against μ.
  const offBy = complete ? residual : residual + Math.log(set.n / m);
  // A partial set tells a mean too low by its sum (above n·μ), one too high only by the SD (Samuelson: every member
  // further below μ than s·(n−1)/√n allows; a mean curated ×10 with its SD still leaves its members far below).
  const samuelsonBroken = (samuelsonExcess(set) ?? 0) > IDENTITY_SLACK;
  let best: SuspectedCause | null = null;
  for (const cause of groupFactors) {
    const f = Math.log(cause.factor);
    if (!complete && (Math.abs(f) < Math.log(PARTIAL_GROUP_FACTOR) || (f < 0 ? residual <= 0 : !samuelsonBroken))) continue;
    const distance = Math.abs(offBy + f);
    if (distance <= (complete ? Math.log(IDENTITY_SLACK) : Math.log(MEMBER_BACK / 2)) && (best === null || distance < Math.abs(offBy + Math.log(best.factor)))) best = cause;
  }
  if (best === null) return complete && m >= 3 && Math.abs(residual) >= Math.log(UNEXPLAINED_GROUP) ? { culprit: 'group', cause: null, residual, fixed: residual } : null;
  const divisor = best.factor;
  return { culprit: 'group', cause: best, residual, fixed: arithmeticResidual({ ...set, mean: set.mean.map((mu) => mu / divisor) }) };
}

/**
 * The one member of a complete set of reported values whose slip factor undone makes a mean that holds within the
 * slack but beyond its rounding exact (EXACT_MEMBER_HOLD); null when none or several do.
 */
function exactMember(set: MemberSet, residual: number, factorsOf: (member: number) => readonly SuspectedCause[]): Verdict {
  const m = set.members.length;
  if (m !== set.n || m < 3 || set.mean.length !== 1) return null;
  const rounded = roundedResidual(set, residual, set.members.map(() => 1));
  if (Math.abs(rounded) <= Math.log(EXACT_FIX_SLACK)) return null;
  const found: { index: number; cause: SuspectedCause; deviation: number; fixed: number }[] = [];
  for (let k = 0; k < m; k++) {
    const deviation = memberDeviation(set, k);
    if (Math.abs(deviation) < Math.log(MEMBER_OUTLIER)) continue;
    for (const cause of factorsOf(k)) {
      if (Math.abs(deviation - Math.log(cause.factor)) > Math.log(MEMBER_BACK)) continue;
      const fixed = arithmeticResidual(set, set.members.map((_, j) => (j === k ? cause.factor : 1)));
      if (Math.abs(fixed) <= Math.log(EXACT_MEMBER_HOLD)) found.push({ index: k, cause, deviation, fixed });
    }
  }
  return found.length === 1 ? { culprit: 'member', residual, ...found[0] } : null;
}

/** Every point of a comparison: the group record and its members, with what to name in a finding. */
interface Comparison {
  kind: 'output' | 'curve';
  group: { output: OutputRecord | null; rt: RecomputedTimecourse | null; value: number | null };
  members: { output: OutputRecord | null; rt: RecomputedTimecourse | null; value: number | null; bodyWeightKg: number | null }[];
  set: MemberSet;
  type: string;
  unit: string;
  family: SlipFamily;
  substance: string | null;
}

const CHECK = 'group-members';

/** The individual's group, and the group's count when it has one. */
function groupOfIndividual(ctx: QaContext, individualPk: number): number | null {
  return ctx.dataset.individual(individualPk)?.group_pk ?? null;
}

type Parameter = QaContext['parameters'][number];

/**
 * A value as its group states it: per m² of body surface where the parameters made it absolute (parameters.ts), as a
 * group's mean per m² is its members' mean per m², not of their values each multiplied by its own area.
 */
function stated(p: Parameter): { value: number | null; unit: string | null; factor: number | null } {
  const area = p.bodySurfaceM2;
  if (area === null) return p;
  return { value: p.value === null ? null : p.value / area, unit: `${p.unit} / meter ** 2`, factor: p.factor === null ? null : p.factor / area };
}

/** The group's SD in the canonical unit (per m² where the value is: `stated`), when it reports a positive one. */
function sdOf(p: Parameter): number[] | null {
  const sd = p.output.sd;
  const factor = stated(p).factor;
  return sd !== null && sd > 0 && factor !== null ? [sd * factor] : null;
}

/** Reported values: a group's arithmetic mean and its individuals' values of the same key (one value each). */
function outputComparisons(ctx: QaContext): Comparison[] {
  const groups = new Map<number, (typeof ctx.parameters)[number]>();
  const members = new Map<number, (typeof ctx.parameters)[number][]>();
  // The key numbered by its parts (study-ids.ts): no key text built, flattened and hashed per value (~20,000 reported
  // values of the shared export, for a few thousand keys).
  const keys = new Numbering();
  const keyOf = (p: Parameter, group: number) =>
    keys.of([p.output.study_sid, group, p.interventions, p.substance, p.tissue, p.measurement_type, stated(p).unit ?? '', p.output.time ?? '', p.output.time_unit ?? '']);
  const parameters = ctx.parameters;
  for (let i = 0; i < parameters.length; i++) {
    const p = parameters[i];
    // A group and its members are of one study: a study not reported gives nothing.
    if (p.source !== 'reported' || p.value === null || !(p.value > 0) || p.unit === null || !ctx.reported(p.output.study_sid)) continue;
    const o = p.output;
    if (o.individual_pk === null) {
      // Only an arithmetic mean is Σx/n (a median or a geometric mean is not).
      if (o.group_pk === null || o.mean === null) continue;
      const key = keyOf(p, o.group_pk);
      // Two means of one key (two analyses): no single reference.
      groups.set(key, groups.has(key) ? (null as never) : p);
    } else {
      const group = groupOfIndividual(ctx, o.individual_pk);
      if (group !== null) pushTo(members, keyOf(p, group), p);
    }
  }
  const comparisons: Comparison[] = [];
  for (const [key, g] of groups) {
    const list = members.get(key);
    if (!g || !list || list.length < 2) continue;
    const n = ctx.dataset.group(g.output.group_pk as number)?.count ?? null;
    // One value per individual, and no more individuals than the group counts.
    if (n === null || new Set(list.map((p) => p.output.individual_pk)).size !== list.length || list.length > n) continue;
    const [group, each] = [stated(g), list.map(stated)];
    const family = familyOf(g.measurement_type, group.unit as string);
    if (family === null) continue;
    comparisons.push({
      kind: 'output',
      group: { output: g.output, rt: null, value: group.value },
      members: list.map((p, k) => ({ output: p.output, rt: null, value: each[k].value, bodyWeightKg: p.bodyWeightKg })),
      set: { n, mean: [group.value as number], members: each.map((x) => [x.value as number]), sd: sdOf(g) },
      type: g.measurement_type, unit: group.unit as string, family, substance: g.substance,
    });
  }
  return comparisons;
}

/** The value of a profile at time h (hours after the dose), when it has that sampling time. */
function at(profile: { time: number[]; conc: number[] }, h: number): number | null {
  for (let i = 0; i < profile.time.length; i++) if (Math.abs(profile.time[i] - h) <= 1e-6 * Math.max(1, h)) return profile.conc[i];
  return null;
}

/** Curves: a group's mean curve and its individuals' curves of the same key, at the times all of them share. */
function curveComparisons(ctx: QaContext): Comparison[] {
  const groups = new Map<string, RecomputedTimecourse>();
  const members = new Map<string, RecomputedTimecourse[]>();
  const keyOf = (rt: RecomputedTimecourse, group: number) => {
    const tc = rt.tc;
    return `${tc.study_sid}|${group}|${[...tc.intervention_pk].sort((a, b) => a - b).join(',')}|${tc.substance}|${tc.tissue}|${tc.measurement_type}`;
  };
  for (const rt of ctx.timecourses) {
    const tc = rt.tc;
    if (!ctx.reported(tc.study_sid)) continue;
    if (tc.individual_pk === null) {
      if (tc.group_pk === null || representativeSeries(tc)?.field !== 'mean') continue;
      const key = keyOf(rt, tc.group_pk);
      groups.set(key, groups.has(key) ? (null as never) : rt);
    } else {
      const group = groupOfIndividual(ctx, tc.individual_pk);
      if (group !== null) pushTo(members, keyOf(rt, group), rt);
    }
  }
  const comparisons: Comparison[] = [];
  for (const [key, g] of groups) {
    const list = members.get(key);
    if (!g || !list || list.length < 2) continue;
    const n = ctx.dataset.group(g.tc.group_pk as number)?.count ?? null;
    if (n === null || new Set(list.map((rt) => rt.tc.individual_pk)).size !== list.length || list.length > n) continue;
    const molarMass = ctx.molarMass(g.substance);
    const groupCurve = curveProfile(g, molarMass);
    const memberCurves = list.map((rt) => curveProfile(rt, molarMass));
    if (!groupCurve || memberCurves.some((c) => c === null || c.unit !== groupCurve.unit)) continue;
    const mean: number[] = [];
    const values: number[][] = list.map(() => []);
    for (let i = 0; i < groupCurve.profile.time.length; i++) {
      const h = groupCurve.profile.time[i];
      const row = memberCurves.map((c) => at(c!.profile, h));
      if (row.some((x) => x === null)) continue;
      mean.push(groupCurve.profile.conc[i]);
      row.forEach((x, j) => values[j].push(x as number));
    }
    if (mean.length < MIN_TIMES) continue;
    comparisons.push({
      kind: 'curve',
      group: { output: null, rt: g, value: null },
      members: list.map((rt) => ({ output: null, rt, value: null, bodyWeightKg: ctx.bodyWeightKg(rt.tc) })),
      set: { n, mean, members: values },
      type: 'concentration', unit: groupCurve.unit, family: 'cmax', substance: g.substance,
    });
  }
  return comparisons;
}

/**
 * For a group's mean off its members by no slip factor (`UNEXPLAINED_GROUP`), what the other studies say of the
 * group's value: they put it off by that ratio and back without it (the group's mean is the record to fix), or in range
 * with the ratio undone far out (its individuals' values are the likelier holders: a renal clearance curated as the
 * clearance beside the group's total, Miners1988). Null: they say neither (no reference), and the finding names both.
 */
export interface UnexplainedEvidence {
  culprit: 'group' | 'members';
  words: string;
}

/** A compared record by name: `output:<pk>` or `timecourse:<subset pk>`. */
function recordName(x: { output: OutputRecord | null; rt: RecomputedTimecourse | null }): string {
  return x.output ? `output:${x.output.pk}` : `timecourse:${x.rt?.tc.subset_pk}`;
}

function verdictFinding(c: Comparison, v: NonNullable<Verdict>, evidence: UnexplainedEvidence | null = null): Finding {
  const complete = c.set.members.length === c.set.n;
  const named = v.culprit === 'member' ? c.members[v.index] : c.group;
  const record = named.output ?? (named.rt as RecomputedTimecourse).tc;
  const what = c.kind === 'curve' ? 'curve' : c.type;
  const arithmetic = complete
    ? `the mean of its ${c.set.n} individuals is ×${fmt(Math.exp(v.residual))} the group's mean${c.kind === 'curve' ? ' (median over the shared times)' : ''}`
    : `the ${c.set.members.length} curated of its ${c.set.n} individuals sum to ×${fmt(Math.exp(v.residual))} n × the group's mean${c.kind === 'curve' ? ' (median over the shared times)' : ''}, which a sum of part of the group cannot exceed`;
  const excess = samuelsonExcess(c.set);
  const samuelson =
    excess !== null && excess > IDENTITY_SLACK
      ? `; a member lies ×${fmt(excess)} as far from the mean as the group's SD allows any of ${c.set.n} (Samuelson: s·(n−1)/√n)`
      : '';
  const who =
    v.culprit === 'member'
      ? `individual ${record.individual_pk}'s ${what} is ×${fmt(Math.exp(v.deviation))} the median of the group's other individuals; ${v.cause.text.split(' (')[0]} brings it back and the arithmetic to ×${fmt(Math.exp(v.fixed))}`
      : v.cause === null
        ? `the group's mean ${what} or its individuals' values, who agree with each other (each within ×${MEMBER_BACK} of its fellows), hold a slip no unit or molar factor names${
            evidence === null ? '' : evidence.culprit === 'group' ? ` — the group's mean: ${evidence.words}` : ` — its individuals' values: ${evidence.words}`
          }`
        : `the group's mean ${what} is off its individuals, who agree with each other; ${v.cause.text.split(' (')[0]} on the group's mean brings the arithmetic to ×${fmt(Math.exp(v.fixed))}`;
  // Without a factor, the members' mean is what the group's should be (reported / members' mean: 1 / the residual).
  const factor = v.cause?.factor ?? Math.exp(-v.residual);
  const subsetPk = named.rt?.tc.subset_pk ?? named.output?.subset_pk ?? null;
  return finding({
    kind: 'group-members',
    check: `group-members/${v.culprit}`,
    severity: 'major',
    study_sid: record.study_sid,
    study_name: record.study_name,
    subset_pk: subsetPk,
    output_pk: named.output?.pk ?? null,
    measurement_type: c.type,
    subject: record.individual_pk !== null ? `individual:${record.individual_pk}` : `group:${record.group_pk}`,
    reported: named.value,
    reported_unit: c.kind === 'curve' ? null : c.unit,
    recomputed: named.value === null ? null : named.value / factor,
    recomputed_unit: c.kind === 'curve' ? null : c.unit,
    ratio: factor,
    suspected_cause:
      v.cause?.text ??
      (evidence?.culprit === 'members'
        ? `its individuals' values: the group's mean is ×${fmt(factor)} their mean and in range of the other studies (another quantity curated under this type?)`
        : `the group's mean${evidence ? '' : ' or its individuals\' values'}: ×${fmt(factor)} the mean of its ${c.set.n} individuals, who agree with each other (no unit or molar factor is that)`),
    culprit: v.cause === null && evidence?.culprit !== 'group' ? null : c.kind === 'curve' ? 'timecourse' : 'output',
    message: `group ${c.group.output?.group_pk ?? c.group.rt?.tc.group_pk} (n = ${c.set.n}) and its individuals disagree: ${arithmetic}${samuelson}; ${who}`,
    details: {
      group_record: recordName(c.group),
      member_records: c.members.map(recordName),
      factor,
      cause_kinds: v.cause ? [v.cause.kind] : [],
      cause_factors: v.cause ? [v.cause.factor] : [],
    },
  });
}

/**
 * The slip factors of a quantity (causes.ts slipFactors) plus a decimal slip ×10 where its family leaves it out
 * (a tmax: ×10 between a reported and a recomputed tmax may be another definition; here both sides are the authors'
 * numbers of one quantity, so an individual ×10 that the arithmetic convicts is a decimal slip).
 */
export function memberSlipFactors(family: SlipFamily, molarMass: number | null, bodyWeightKg: number | null): SuspectedCause[] {
  // A copy: slipFactors' lists are shared.
  const causes = [...slipFactors(family, { molarMass, bodyWeightKg })];
  if (!causes.some((c) => c.kind === 'unit-factor' && c.factor === 10)) {
    const text = 'a decimal point slip';
    causes.push({ kind: 'unit-factor', factor: 10, text: `×10 (${text})` }, { kind: 'unit-factor', factor: 0.1, text: `×1/10 (${text})` });
  }
  return causes;
}

/** Coverage: the group's record and every member's were set against each other. */
function markExamined(ctx: QaContext, c: Comparison): void {
  for (const x of [c.group, ...c.members]) {
    if (x.output) ctx.examined('output', x.output.pk, CHECK);
    if (x.rt) ctx.examined('timecourse', x.rt.tc.subset_pk, CHECK);
  }
}

/** What the other studies say of a group's mean off its members ×`factor` by no slip factor (see UnexplainedEvidence). */
function unexplainedEvidence(ctx: QaContext, c: Comparison, factor: number): UnexplainedEvidence | null {
  const record = recordName(c.group);
  const backed = referenceBacks(ctx, record, factor);
  if (backed) return { culprit: 'group', words: backed };
  const refuted = referenceRefutes(ctx, record, factor);
  return refuted ? { culprit: 'members', words: `the other studies put the group's value in range (${refuted})` } : null;
}

export const groupMembersCheck: QaCheck = {
  kind: 'group-members',
  description: "a group's reported mean (value or curve) against its own individuals' values: the mean of all n, or a sum of some of them that cannot exceed n × the mean; names the individual or the group a slip factor reconciles",
  run(ctx) {
    const findings: Finding[] = [];
    for (const c of [...outputComparisons(ctx), ...curveComparisons(ctx)]) {
      markExamined(ctx, c);
      const molarMass = ctx.molarMass(c.substance);
      const factorsOf = (j: number) => memberSlipFactors(c.family, molarMass, c.members[j].bodyWeightKg);
      const groupWeight = c.group.output ? ctx.bodyWeightKg(c.group.output) : c.group.rt ? ctx.bodyWeightKg(c.group.rt.tc) : null;
      const v = judge(c.set, factorsOf, memberSlipFactors(c.family, molarMass, groupWeight));
      if (v) findings.push(verdictFinding(c, v, v.culprit === 'group' && v.cause === null ? unexplainedEvidence(ctx, c, Math.exp(-v.residual)) : null));
    }
    return findings;
  },
};
