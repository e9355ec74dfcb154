/**
 * The `metabolic-ratio` check: a reported metabolic ratio of two substances at a time ("px/caf" 6 h after a dose of
 * caffeine) against the ratio of the same subject's concentration timecourses of those substances at that time —
 * the ratio is the quotient of two numbers the study curated too, whatever it says about the subject's phenotype.
 *
 * A ratio is named by its substances' sids, numerator first (`px/caf`, PK-DB's curation); only a ratio of two
 * substances is compared (not a ratio of sums, `cod/(mor+m3g+m6g)`). For a reported ratio r at time t (not
 * calculated, a positive value, a time and its unit) of subject, intervention set and tissue K, with a
 * concentration timecourse of each substance of K sampled around t:
 *   c = A(t) / B(t),
 * each level read linearly between the samples around t (robust.ts `levelAt`) in the canonical unit (g/L, with the
 * molar mass), and also as a molar ratio, c·M_B/M_A (when both molar masses are known): the ratio of whichever is
 * closer. On the shared export 174 of the 179 ratios that can be set against their curves agree within ×1.25, 170
 * within ×1.1.
 * - agree: |ln(r/c)| ≤ ln AGREE;
 * - major: r/c within ×AGREE of ×10, ×100 (a percentage) or ×1000, either way (the band that agreement has), or r·c within ×AGREE of 1
 *   while c is at least ×2 from 1 (the ratio inverted: caf/px curated as px/caf). With one ratio of the pair for K,
 *   the ratio is the record to fix; when every ratio of the pair for K (two or more) is off by one factor, one of the
 *   two curves is as likely (a curve ×10 moves every ratio read off it): the finding names both and no culprit;
 * - minor: beyond ×MINOR_BEYOND with no factor (another definition: a ratio of AUCs or of urinary amounts).
 * It cannot see a ratio without both curves of its subject (most: the paper gives the ratio alone), a ratio without
 * a time, or a ratio of sums.
 */
import { linkKey, subjectLabel, subjectOf } from '../../data/dataset.js';
import type { OutputRecord, TimecourseRecord } from '../../data/model.js';
import { representativeSeries, representativeValue } from '../../data/records.js';
import { conversionFactorOrNull } from '../../units/convert.js';
import type { QaCheck } from '../check.js';
import { nearFactor } from '../causes.js';
import type { QaContext, RecomputedTimecourse } from '../context.js';
import { finding, type Finding } from '../finding.js';
import { canonicalUnit } from '../parameters.js';
import { levelAt, median } from '../robust.js';

const CHECK = 'metabolic-ratio';
const TYPE = 'metabolic ratio';
/** A reported ratio and its curves' agree within this factor (digitised curves, a group's mean of ratios). */
export const AGREE = 1.25;
/** A slip factor names the disagreement when r/c lies within this share of it: the agreement band (×AGREE) around the factor. */
export const SLIP_TOLERANCE = AGREE - 1;
/** Beyond this factor, a disagreement that no slip explains is still worth a look (minor). */
export const MINOR_BEYOND = 2;
/** The decimal and prefix slips, and a percentage curated as a ratio (×100). */
export const RATIO_SLIPS: readonly { factor: number; text: string }[] = [
  { factor: 10, text: 'a decimal point slip' },
  { factor: 100, text: 'a percentage curated as a ratio' },
  { factor: 1000, text: 'a milli prefix slip' },
];

const fmt = (x: number) => String(+x.toPrecision(3));

export const REASONS = {
  sums: 'a ratio of sums of substances',
  time: 'no time (a ratio of amounts or AUCs)',
  curves: 'no concentration timecourses of both substances of the same subject, interventions and tissue',
  sampled: 'its time is outside the samples of its curves, or a level there is not positive',
} as const;

/**
 * The numerator's and denominator's sids of a ratio of two substances (`px/caf`, `px / caf`, or its sid `px-over-caf`
 * → px, caf); null for anything else.
 */
export function ratioSubstances(name: string | null): [string, string] | null {
  const match = name === null ? null : /^([^/()+\s]+)\/([^/()+\s]+)$/.exec(name.trim().replace('-over-', '/').replace(/\s*\/\s*/, '/'));
  return match ? [match[1], match[2]] : null;
}

export type RatioVerdict =
  | { kind: 'agree' | 'near'; reported: number; expected: number }
  | { kind: 'slip'; reported: number; expected: number; factor: number; text: string }
  | { kind: 'inverted'; reported: number; expected: number }
  | { kind: 'unexplained'; reported: number; expected: number };

/**
 * The verdict on reported ratios r_i against the ratios their curves give at the same times, c_i as masses or, when
 * both molar masses are known, as moles (`molar`, null otherwise): the closer reading (by the median |ln r_i/c_i|),
 * then the median of ln(r_i/c_i) against the bands of the header (one digitised point does not decide);
 * `reported` and `expected` are the medians of r_i and c_i.
 */
export function ratioVerdict(reported: readonly number[], mass: readonly number[], molar: readonly number[] | null = null): RatioVerdict {
  const residual = (c: readonly number[]) => median(reported.map((r, i) => Math.log(r / c[i])));
  const readings = molar !== null ? [mass, molar] : [mass];
  let chosen = readings[0];
  for (const c of readings) if (Math.abs(residual(c)) < Math.abs(residual(chosen))) chosen = c;
  const r = median(reported);
  const expected = median(chosen);
  const off = Math.exp(residual(chosen));
  if (Math.abs(Math.log(off)) <= Math.log(AGREE)) return { kind: 'agree', reported: r, expected };
  for (const slip of RATIO_SLIPS) {
    for (const factor of [slip.factor, 1 / slip.factor]) {
      if (nearFactor(off, factor, SLIP_TOLERANCE)) return { kind: 'slip', reported: r, expected, factor, text: `${factor > 1 ? `×${slip.factor}` : `×1/${slip.factor}`} (${slip.text})` };
    }
  }
  for (const c of readings) {
    const product = median(reported.map((x, i) => Math.log(x * c[i])));
    if (Math.abs(product) <= Math.log(AGREE) && Math.abs(median(c.map(Math.log))) >= Math.log(2)) return { kind: 'inverted', reported: r, expected: median(c) };
  }
  return { kind: Math.abs(Math.log(off)) > Math.log(MINOR_BEYOND) ? 'unexplained' : 'near', reported: r, expected };
}

/**
 * A curve's levels at the times `ts` given in `unit` (linear between its samples), in its canonical unit: null at a
 * time outside its samples or where it is not positive; null for all when its units do not convert.
 */
function curveLevels(ctx: QaContext, rt: RecomputedTimecourse, ts: readonly number[], unit: string): { values: (number | null)[]; unit: string } | null {
  const tc = rt.tc;
  const toCurve = tc.time_unit ? conversionFactorOrNull(unit, tc.time_unit) : null;
  const series = representativeSeries(tc)?.values;
  const canonical = tc.unit ? canonicalUnit(tc.unit, ctx.molarMass(rt.substance ?? tc.substance)) : null;
  if (toCurve === null || !series || series.length !== tc.time.length || canonical === null) return null;
  const times = tc.time.map((x) => (x === null ? Number.NaN : x));
  const levels = series.map((v) => (v === null ? Number.NaN : v));
  const values = ts.map((t) => {
    const level = levelAt(times, levels, t * toCurve);
    return level !== null && level > 0 ? level * canonical.factor : null;
  });
  return { values, unit: canonical.unit };
}

/** The key of a subject, intervention set and tissue: the link key (dataset.ts) without its substance. */
const keyOf = (r: { study_sid: string; group_pk: number | null; individual_pk: number | null; tissue: string | null }, interventions: readonly number[]) =>
  linkKey({ study_sid: r.study_sid, group_pk: r.group_pk, individual_pk: r.individual_pk, intervention_pks: interventions, substance: null, tissue: r.tissue, method: null });

/** Whether a timecourse is a metabolic ratio's (PK-DB's measurement type, as the export spells its sid). */
export const isRatioCurve = (tc: Pick<TimecourseRecord, 'measurement_type'>) => tc.measurement_type === 'metabolic-ratio' || tc.measurement_type === TYPE;

/** Reported ratios of one record: a single output at its time, or a ratio timecourse's points. */
interface RatioSeries {
  output: OutputRecord | null;
  tc: TimecourseRecord | null;
  name: string | null;
  key: string;
  times: number[];
  timeUnit: string | null;
  values: number[];
}

function ratioSeries(ctx: QaContext): RatioSeries[] {
  const list: RatioSeries[] = [];
  for (const p of ctx.parameters) {
    const o = p.output;
    if (p.source !== 'reported' || o.measurement_type !== TYPE || !ctx.reported(o.study_sid)) continue;
    const value = representativeValue(o);
    if (value === null || !(value > 0)) continue;
    list.push({ output: o, tc: null, name: o.substance, key: keyOf(o, o.intervention_pks), times: o.time === null ? [] : [o.time], timeUnit: o.time_unit, values: [value] });
  }
  for (const tc of ctx.tables.timecourses) {
    if (!tc.normed || !isRatioCurve(tc) || !ctx.reported(tc.study_sid)) continue;
    const series = representativeSeries(tc)?.values ?? [];
    const times: number[] = [];
    const values: number[] = [];
    tc.time.forEach((t, i) => {
      const v = series[i];
      if (t !== null && Number.isFinite(t) && v !== null && v !== undefined && v > 0) {
        times.push(t);
        values.push(v);
      }
    });
    if (values.length === 0) continue;
    list.push({ output: null, tc, name: ctx.dataset.curveNames(tc).substance, key: keyOf(tc, tc.intervention_pk), times, timeUnit: tc.time_unit, values });
  }
  return list;
}

interface Compared {
  series: RatioSeries;
  verdict: RatioVerdict;
  curves: [RecomputedTimecourse, RecomputedTimecourse];
  points: number;
}

function ratioFinding(c: Compared): Finding | null {
  const v = c.verdict;
  if (v.kind === 'agree' || v.kind === 'near') return null;
  const { output, tc, name } = c.series;
  const record = (output ?? tc) as OutputRecord | TimecourseRecord;
  const [a, b] = c.curves;
  const curves = `${a.tc.substance} (timecourse ${a.tc.subset_pk}) and ${b.tc.substance} (timecourse ${b.tc.subset_pk})`;
  const what = tc ? `${name} timecourse ${tc.subset_pk} (median of ${c.points} time(s) shared with the curves)` : `reported ${name} at ${fmt(output!.time as number)} ${output!.time_unit}`;
  const head = `${what}: ${fmt(v.reported)}; the subject's curves of ${curves} give ${fmt(v.expected)}`;
  // ×10 and ×1000 are a concentration's slips as well as a ratio's: one of the two curves is as likely.
  const either = v.kind === 'slip' && v.factor !== 100 && v.factor !== 0.01;
  const cause = v.kind === 'slip' ? v.text : v.kind === 'inverted' ? `the ratio inverted (${name?.split('/').reverse().join('/')} curated as ${name})` : null;
  const message =
    cause === null
      ? `${head}: ×${fmt(v.reported / v.expected)}, which no slip explains (another definition: a ratio of AUCs or of amounts?)`
      : either
        ? `${head}: ${cause} — in the ratio, or in one of the two curves`
        : `${head}: ${cause}`;
  const factor = v.kind === 'slip' ? v.factor : v.kind === 'inverted' ? v.reported / v.expected : null;
  return finding({
    kind: 'metabolic-ratio', check: `${CHECK}/${v.kind}`, severity: cause === null ? 'minor' : 'major', study_sid: record.study_sid, study_name: record.study_name,
    subset_pk: tc ? tc.subset_pk : output!.subset_pk, output_pk: output?.pk ?? null, measurement_type: TYPE, subject: subjectLabel(subjectOf(record)),
    reported: v.reported, reported_unit: record.unit, recomputed: v.expected, recomputed_unit: record.unit, ratio: v.reported / v.expected,
    suspected_cause: cause, culprit: cause === null || either ? null : tc ? 'timecourse' : 'output', message,
    details: {
      timecourses: [a.tc.subset_pk, b.tc.subset_pk],
      cause_kinds: v.kind === 'slip' && !either ? ['unit-factor'] : [],
      cause_factors: factor !== null && !either ? [factor] : [],
    },
  });
}

/** Marks the ratio's record. */
function mark(ctx: QaContext, s: RatioSeries, examined: boolean, reason = ''): void {
  const [kind, pk] = s.output ? (['output', s.output.pk] as const) : (['timecourse', (s.tc as TimecourseRecord).subset_pk] as const);
  if (examined) ctx.examined(kind, pk, CHECK);
  else ctx.notExamined(kind, pk, CHECK, reason);
}

export function metabolicRatioFindings(ctx: QaContext): Finding[] {
  // Concentration curves by key and substance sid (two of one key and substance: no single curve to read).
  const curves = new Map<string, Map<string, RecomputedTimecourse | null>>();
  for (const rt of ctx.timecourses) {
    const tc = rt.tc;
    if (tc.substance === null) continue;
    const key = keyOf(tc, tc.intervention_pk);
    let bySubstance = curves.get(key);
    if (!bySubstance) curves.set(key, (bySubstance = new Map()));
    bySubstance.set(tc.substance, bySubstance.has(tc.substance) ? null : rt);
  }
  const findings: Finding[] = [];
  for (const s of ratioSeries(ctx)) {
    const pair = ratioSubstances(s.name);
    if (pair === null) {
      mark(ctx, s, false, REASONS.sums);
      continue;
    }
    if (s.times.length === 0 || !s.timeUnit) {
      mark(ctx, s, false, REASONS.time);
      continue;
    }
    const bySubstance = curves.get(s.key);
    const a = bySubstance?.get(pair[0]);
    const b = bySubstance?.get(pair[1]);
    if (!a || !b) {
      mark(ctx, s, false, REASONS.curves);
      continue;
    }
    const massA = ctx.molarMass(a.substance ?? a.tc.substance);
    const massB = ctx.molarMass(b.substance ?? b.tc.substance);
    const reported: number[] = [];
    const mass: number[] = [];
    const levelsA = curveLevels(ctx, a, s.times, s.timeUnit);
    const levelsB = curveLevels(ctx, b, s.times, s.timeUnit);
    for (let i = 0; levelsA && levelsB && levelsA.unit === levelsB.unit && i < s.times.length; i++) {
      const [levelA, levelB] = [levelsA.values[i], levelsB.values[i]];
      if (levelA === null || levelB === null) continue;
      reported.push(s.values[i]);
      mass.push(levelA / levelB);
    }
    if (reported.length === 0) {
      mark(ctx, s, false, REASONS.sampled);
      continue;
    }
    const molar = massA !== null && massB !== null && massA > 0 ? mass.map((c) => (c * massB) / massA) : null;
    mark(ctx, s, true);
    ctx.examined('timecourse', a.tc.subset_pk, CHECK);
    ctx.examined('timecourse', b.tc.subset_pk, CHECK);
    const f = ratioFinding({ series: s, verdict: ratioVerdict(reported, mass, molar), curves: [a, b], points: reported.length });
    if (f) findings.push(f);
  }
  return findings;
}

export const metabolicRatiosCheck: QaCheck = {
  kind: 'metabolic-ratio',
  description: "a reported metabolic ratio of two substances (a value at a time, or a ratio timecourse) against the ratio of the subject's own concentration timecourses of them at those times; names a ×10, ×100 (a percentage) or ×1000 slip and an inverted ratio",
  run: metabolicRatioFindings,
};
