/**
 * The `time-axis` check (issue 13, item 6): a concentration timecourse whose
 * times are minutes labelled hours (or the reverse).
 *
 * - Minutes ahead of an hour grid: in list order, the times rise, drop, and
 *   rise again (5, 10, 15, 30, 60, 2, 3, 4 … h), and reading the leading run
 *   as minutes (÷60) makes the whole list ascending. The leading run must look
 *   like minutes: at least two whole numbers after the dose, up to at least 10,
 *   and the concentrations must agree (in that order the curve zigzags less).
 *   Merely unsorted times are no slip (hundreds of real timecourses are curated
 *   out of order: 1.5, 2, …, 16, 0, 0.17, 0.33 …, which ÷60 does not sort; nor is
 *   a rotated list, 3, 4, …, 24, 0.5, 1, 2, which ÷60 would sort but which is
 *   ascending with its leading run moved to the end).
 * - A sampling grid ×60 its siblings': most of its sampling times (after the
 *   dose, in hours) ÷60 coincide with the times of another concentration
 *   timecourse of the same study (any analyte: a metabolite is measured in its
 *   parent's samples), while as they are they
 *   coincide with none; more siblings must share the ÷60 grid than its own
 *   (with a single sibling in mirror image, neither is named: which one is
 *   right needs the reference ranges across studies).
 * - A digitised curve's span ×60 its siblings': its last and its median time
 *   both ×60 (within 5 %) those of more sibling curves than end where it does
 *   (digitised times never coincide point by point; a minutes axis stretches
 *   the whole schedule by one factor).
 * - A lone grid in minutes: sampled from ≥ 5 h to ≥ 2 weeks after the dose
 *   (as a single-dose schedule rarely real), with its times ÷60 a usual grid
 *   (0.25, 0.5, 1, 2, 4 … h) and as they are not; also decides a mirror pair.
 * All are major with the cause "minutes as hours" (×1/60 "hours as minutes"),
 * culprit the timecourse. What it cannot see: a single timecourse in its study
 * whose grid is uniformly ×60 (the within-study check sees its t½ or tmax
 * against its siblings', the reference ranges the rest).
 */
import { subjectLabel, subjectOf } from '../../data/dataset.js';
import { pushTo } from '../../data/records.js';
import type { TimecourseRecord } from '../../data/model.js';
import { conversionFactorOrNull } from '../../units/convert.js';
import type { QaCheck } from '../check.js';
import type { QaContext, RecomputedTimecourse } from '../context.js';
import { finding, type Finding } from '../finding.js';
import { concentrationSeries } from '../input-checks.js';

/** Share of a timecourse's times that must coincide with a sibling's grid. */
export const GRID_MATCH = 0.8;
/** Times coincide within 3 % (or 1 minute). */
export const GRID_TOLERANCE = 0.03;
const MINUTE = 1 / 60;
/** With the leading run as minutes the curve must zigzag at most 0.8× as much as with the times as curated. */
export const ZIGZAG_RATIO = 0.8;
/** A timecourse is compared with at most this many siblings: bounded time. */
export const MAX_SIBLINGS = 100;

const fmt = (x: number) => String(+x.toPrecision(4));

function hoursPer(unit: string | null): number | null {
  if (!unit) return null;
  return conversionFactorOrNull(unit, 'hour');
}

/** Σ|Δ ln c| along ascending time: a single rise and fall is small, a curve put out of order zigzags. */
export function logVariation(times: readonly number[], conc: readonly (number | null)[]): number {
  const points = times.map((t, i) => [t, conc[i]] as const).filter((p): p is readonly [number, number] => p[1] !== null && p[1] > 0);
  points.sort((a, b) => a[0] - b[0]);
  let total = 0;
  for (let i = 1; i < points.length; i++) total += Math.abs(Math.log(points[i][1] / points[i - 1][1]));
  return total;
}

/**
 * The length of the leading run that, read as minutes, makes the list ascending; 0 when there is none.
 * `times` in list order and in hours, `conc` aligned (null where missing). The concentrations must agree:
 * with the leading run in minutes the curve must zigzag less (Σ|Δ ln c|) than with the times as they are.
 */
export function leadingMinutes(times: readonly number[], conc: readonly (number | null)[]): number {
  const drop = times.findIndex((t, i) => i > 0 && t < times[i - 1]);
  if (drop <= 0) return 0;
  const lead = times.slice(0, drop);
  const after = lead.filter((t) => t > 0);
  if (after.length < 2 || Math.max(...after) < 10 || !after.every((t) => Number.isInteger(t))) return 0;
  const rest = times.slice(drop);
  const ascending = (list: readonly number[]) => list.every((t, i) => i === 0 || t > list[i - 1]);
  // A list rotated in curation (3, 4, …, 24, 0.5, 1, 2) is ascending with its leading run moved to the end.
  if (ascending([...rest, ...lead])) return 0;
  const minutes = [...lead.map((t) => t / 60), ...rest];
  if (!ascending(minutes)) return 0;
  return logVariation(minutes, conc) < ZIGZAG_RATIO * logVariation(times, conc) ? drop : 0;
}

/** Share of `times` that coincide with a time of `grid` within `tolerance` (relative) or `absolute` hours. */
export function gridShare(times: readonly number[], grid: readonly number[], tolerance = GRID_TOLERANCE, absolute = MINUTE): number {
  if (times.length === 0) return 0;
  let hits = 0;
  for (const t of times) {
    for (const g of grid) {
      if (Math.abs(g - t) <= Math.max(tolerance * Math.max(g, t), absolute)) {
        hits++;
        break;
      }
    }
  }
  return hits / times.length;
}

/**
 * gridShare for an ascending grid of positive times (and ascending times, else slower): the scan of the grid stops once its
 * times lie beyond any tolerance of t (g > (t + absolute) / (1 − tolerance), with a 1 % margin), and starts past
 * the grid times below t·(1 − 2·tolerance) − absolute, which miss t and every later time by at least
 * 2·tolerance·t (no rounding reaches that): the same hits, a walk along both lists.
 */
export function gridShareAscending(times: readonly number[], grid: readonly number[]): number {
  if (times.length === 0) return 0;
  let hits = 0;
  let start = 0;
  for (let k = 0; k < times.length; k++) {
    const t = times[k];
    if (k > 0 && !(t >= times[k - 1])) start = 0; // times out of order: the walk starts again
    const below = t * (1 - 2 * GRID_TOLERANCE) - MINUTE;
    while (start < grid.length && grid[start] < below) start++;
    const beyond = ((t + MINUTE) / (1 - GRID_TOLERANCE)) * 1.01;
    for (let j = start; j < grid.length; j++) {
      const g = grid[j];
      if (g > beyond) break;
      if (Math.abs(g - t) <= Math.max(GRID_TOLERANCE * Math.max(g, t), MINUTE)) {
        hits++;
        break;
      }
    }
  }
  return hits / times.length;
}

function timeFinding(tc: TimecourseRecord, check: string, factor: number, message: string, details: Record<string, unknown>): Finding {
  const minutesAsHours = factor > 1;
  return finding({
    kind: 'time-axis',
    check: `time-axis/${check}`,
    severity: 'major',
    study_sid: tc.study_sid,
    study_name: tc.study_name,
    subset_pk: tc.subset_pk,
    measurement_type: tc.measurement_type,
    subject: subjectLabel(subjectOf(tc)),
    ratio: factor,
    suspected_cause: minutesAsHours ? 'minutes as hours (×60)' : 'hours as minutes (×1/60)',
    culprit: 'timecourse',
    message,
    details: { ...details, cause_kinds: ['unit-factor'], cause_factors: [factor] },
  });
}

/** The leading-minutes finding of one timecourse, or null. */
export function leadingMinutesFinding(rt: RecomputedTimecourse): Finding | null {
  const { tc } = rt;
  const perHour = hoursPer(tc.time_unit);
  if (perHour === null) return null;
  const series = concentrationSeries(tc)?.values ?? [];
  // The finite times in hours and their concentrations, by index: no pair per point (every timecourse of the run).
  const times: number[] = [];
  const conc: (number | null)[] = [];
  for (let i = 0; i < tc.time.length; i++) {
    const t = tc.time[i];
    if (t === null || !Number.isFinite(t)) continue;
    times.push(t * perHour);
    conc.push(series[i] ?? null);
  }
  const lead = leadingMinutes(times, conc);
  if (lead === 0) return null;
  const bolus = rt.dose?.route === 'iv-bolus' ? '; for an IV bolus the peak at the first sample then sits hours after the dose' : '';
  return timeFinding(
    tc, 'leading-minutes', 60,
    `the first ${lead} times (${times.slice(0, lead).map(fmt).join(', ')} h) run ahead of the rest (${times.slice(lead, lead + 3).map(fmt).join(', ')} … h); read as minutes they make the time axis ascending${bolus}`,
    { leading: lead },
  );
}

interface Grid {
  rt: RecomputedTimecourse;
  /** Distinct positive times after the dose, hours, ascending. */
  times: number[];
}

function gridOf(rt: RecomputedTimecourse): Grid | null {
  const perHour = hoursPer(rt.tc.time_unit);
  if (perHour === null) return null;
  const shift = rt.dose?.time ?? 0;
  const times = [...new Set(rt.tc.time.filter((t): t is number => t !== null && Number.isFinite(t)).map((t) => (t - shift) * perHour))]
    .filter((t) => t > 0)
    .sort((a, b) => a - b);
  return times.length >= 3 ? { rt, times } : null;
}

/**
 * Typical sampling times in hours (5 min to 4 days): a grid of these ×60 is a grid in minutes.
 */
export const TYPICAL_TIMES: readonly number[] = [
  1 / 12, 1 / 6, 0.25, 1 / 3, 0.5, 0.75, 1, 1.25, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 24, 28, 30, 32, 36, 48, 60, 72, 96,
];
/** A window that starts 5 h or more after the dose and lasts two weeks or more (336 h). */
export const LATE_FIRST_SAMPLE = 5;
export const LONG_WINDOW = 336;

/** Sampled from ≥ 5 h to ≥ 2 weeks after the dose: as a single-dose schedule that is rarely real. */
export function implausibleWindow(times: readonly number[]): boolean {
  return times.length > 0 && times[0] >= LATE_FIRST_SAMPLE && times[times.length - 1] >= LONG_WINDOW;
}

/**
 * A lone grid in minutes: sampled from ≥ 5 h to ≥ 2 weeks after the dose, and ÷60 at least GRID_MATCH of its
 * times are typical sampling times while as they are fewer than half are.
 */
export function loneMinuteGrid(times: readonly number[]): boolean {
  if (!implausibleWindow(times)) return false;
  // Exact within 0.5 %: a slipped grid is a typed schedule ×60, a digitised or real late schedule is not that round.
  return gridShare(times.map((t) => t / 60), TYPICAL_TIMES, 0.005, 0) >= GRID_MATCH && gridShare(times, TYPICAL_TIMES, 0.005, 0) < 0.5;
}

/** How close a span ratio must come to ×60 (and to ×1 for a sibling that shares the span): 5 %. */
export const SPAN_TOLERANCE = Math.log(1.05);

/**
 * A digitised curve's span ×60 its siblings': its last time and its median time are both ×60 (within 5 %) those of
 * another curve of the study. Digitised times do not coincide point by point (0.125, 0.376 … h against 0.29, 0.59 …
 * h of the same samples read off another plot), but a minutes axis stretches the whole schedule by one factor: the
 * end and the middle of the sampling agree at ×60 only by a slip. 1 for ×60, −1 for ×1/60, 0 for neither.
 */
export function spanFactor(times: readonly number[], sibling: readonly number[]): number {
  const last = times[times.length - 1] / sibling[sibling.length - 1];
  const middle = times[times.length >> 1] / sibling[sibling.length >> 1];
  if (near(last, 60) && near(middle, 60)) return 1;
  if (near(last, 1 / 60) && near(middle, 1 / 60)) return -1;
  return 0;
}

/** Whether a ratio is within SPAN_TOLERANCE of a target (a function, not a closure per spanFactor call). */
function near(ratio: number, target: number): boolean {
  return Math.abs(Math.log(ratio / target)) <= SPAN_TOLERANCE;
}

/** The factors both sibling rules try, in order (bit f of a match mask: FACTORS[f]). */
const FACTORS: readonly number[] = [60, 1 / 60];

/**
 * The vote both sibling rules share: over a study's first MAX_SIBLINGS + 1 grids (by index: no lists per grid), grid i
 * is named ×factor when more siblings match it at that factor than share its own schedule, and a single sibling in
 * mirror image only when the grid's window is implausible (no majority tells which of two is right); FACTORS in order,
 * the first named wins. `mark(i, own, match)` fills, for each sibling j ≠ i of the pool, own[j] (shares grid i's
 * schedule) and match[j] (the mask of the factors at which it matches grid i): one tight loop per rule, no call per pair.
 */
function siblingVotes(
  grids: readonly Grid[],
  mark: (i: number, own: Uint8Array, match: Uint8Array) => void,
  describe: (g: Grid, factor: number, matching: readonly Grid[], own: number) => Finding,
): Finding[] {
  const findings: Finding[] = [];
  const pool = Math.min(grids.length, MAX_SIBLINGS + 1);
  const ownOf = new Uint8Array(pool);
  const matchOf = new Uint8Array(pool);
  for (let i = 0; i < grids.length; i++) {
    const g = grids[i];
    const siblingCount = i < pool ? pool - 1 : pool;
    ownOf.fill(0);
    matchOf.fill(0);
    mark(i, ownOf, matchOf);
    let own = 0;
    for (let j = 0; j < pool; j++) if (j !== i) own += ownOf[j];
    for (let f = 0; f < FACTORS.length; f++) {
      const factor = FACTORS[f];
      const bit = 1 << f;
      let count = 0;
      for (let j = 0; j < pool; j++) if (j !== i && matchOf[j] & bit) count++;
      if (count === 0 || count <= own) continue;
      if (siblingCount === 1 && !(factor > 1 && implausibleWindow(g.times))) continue;
      const matching: Grid[] = [];
      for (let j = 0; j < pool; j++) if (j !== i && matchOf[j] & bit) matching.push(grids[j]);
      findings.push(describe(g, factor, matching, own));
      break;
    }
  }
  return findings;
}

/** Curves whose span is ×60 (×1/60) that of more siblings than share their own end (within 5 %), not named by their grid. */
export function siblingSpanFindings(grids: readonly Grid[]): Finding[] {
  const pool = Math.min(grids.length, MAX_SIBLINGS + 1);
  return siblingVotes(
    grids,
    (i, own, match) => {
      const times = grids[i].times;
      const last = times[times.length - 1];
      for (let j = 0; j < pool; j++) {
        if (j === i) continue;
        const sibling = grids[j].times;
        own[j] = Math.abs(Math.log(last / sibling[sibling.length - 1])) <= SPAN_TOLERANCE ? 1 : 0;
        const sign = spanFactor(times, sibling);
        match[j] = sign === 1 ? 1 : sign === -1 ? 2 : 0;
      }
    },
    (g, factor, matching, own) => {
      const end = g.times[g.times.length - 1];
      return timeFinding(
        g.rt.tc, 'sibling-span', factor,
        `its sampling ends at ${fmt(end)} h with its middle at ${fmt(g.times[g.times.length >> 1])} h, ×${factor > 1 ? '60' : '1/60'} those of ${matching.length} sibling timecourse(s) of the study (subsets ${matching.slice(0, 5).map((s) => s.rt.tc.subset_pk).join(', ')}: to ${fmt(end / factor)} h), while ${own} end(s) as it does`,
        { siblings: matching.map((s) => s.rt.tc.subset_pk) },
      );
    },
  );
}

/** Timecourses whose grid is ×60 (or ×1/60) that of more siblings (same study) than share their own. */
export function siblingGridFindings(grids: readonly Grid[]): Finding[] {
  // A share depends on the two grids' times only, and the timecourses of a study mostly share one schedule (a
  // hundred individuals, a handful of grids): each pair of distinct grids is compared once per factor.
  const distinct = new Map<string, number>();
  // The distinct grid's number of each grid, by index.
  const idOf = new Int32Array(grids.length);
  for (let i = 0; i < grids.length; i++) {
    const text = grids[i].times.join(',');
    let id = distinct.get(text);
    if (id === undefined) distinct.set(text, (id = distinct.size));
    idOf[i] = id;
  }
  const shareMemo = new Map<number, number>();
  // The share of grid i's times (scale 0: as they are, f + 1: ÷ FACTORS[f]) in sibling j's grid, memoised by distinct grids.
  const share = (i: number, times: readonly number[], scale: number, j: number): number => {
    const key = (idOf[i] * 3 + scale) * distinct.size + idOf[j];
    let value = shareMemo.get(key);
    if (value === undefined) shareMemo.set(key, (value = gridShareAscending(times, grids[j].times)));
    return value;
  };
  const pool = Math.min(grids.length, MAX_SIBLINGS + 1);
  return siblingVotes(
    grids,
    (i, own, match) => {
      const times = grids[i].times;
      // Scaled on the first pair that needs it (a grid whose share as it is reaches half is no candidate).
      let scaled: (readonly number[])[] | null = null;
      for (let j = 0; j < pool; j++) {
        if (j === i) continue;
        const asIs = share(i, times, 0, j);
        own[j] = asIs >= GRID_MATCH ? 1 : 0;
        if (asIs >= 0.5) continue;
        scaled ??= FACTORS.map((factor) => times.map((t) => t / factor));
        for (let f = 0; f < FACTORS.length; f++) if (share(i, scaled[f], f + 1, j) >= GRID_MATCH) match[j] |= 1 << f;
      }
    },
    (g, factor, matching, own) =>
      timeFinding(
        g.rt.tc, 'sibling-grid', factor,
        `its sampling times ${factor > 1 ? '÷60' : '×60'} (${g.times.slice(0, 4).map((t) => fmt(t / factor)).join(', ')} … h) are the grid of ${matching.length} sibling timecourse(s) of the study (subsets ${matching.slice(0, 5).map((s) => s.rt.tc.subset_pk).join(', ')}), as they are of ${own}`,
        { siblings: matching.map((s) => s.rt.tc.subset_pk) },
      ),
  );
}

export const timeAxisCheck: QaCheck = {
  kind: 'time-axis',
  description: 'minutes curated as hours in a concentration timecourse: a leading run of minutes ahead of an hour grid, or a sampling grid ×60 that of its sibling timecourses',
  run(ctx: QaContext) {
    const findings: Finding[] = [];
    const byStudy = new Map<string, Grid[]>();
    for (const rt of ctx.timecourses) {
      // A timecourse is judged by its own times and its study's other curves: a study not reported gives nothing.
      if (!ctx.reported(rt.tc.study_sid)) continue;
      const lead = leadingMinutesFinding(rt);
      if (lead) findings.push(lead);
      const grid = gridOf(rt);
      if (!grid) continue;
      // Every concentration curve of the study: a metabolite is measured in its parent's samples, so its grid is theirs.
      pushTo(byStudy, rt.tc.study_sid, grid);
    }
    const flagged = new Set(findings.map((f) => f.subset_pk));
    for (const grids of byStudy.values()) {
      for (const f of siblingGridFindings(grids)) if (!flagged.has(f.subset_pk)) findings.push(f);
    }
    for (const f of findings) flagged.add(f.subset_pk);
    for (const grids of byStudy.values()) {
      for (const f of siblingSpanFindings(grids)) if (!flagged.has(f.subset_pk)) findings.push(f);
    }
    for (const f of findings) flagged.add(f.subset_pk);
    for (const grids of byStudy.values()) {
      for (const g of grids) {
        if (flagged.has(g.rt.tc.subset_pk) || !loneMinuteGrid(g.times)) continue;
        findings.push(
          timeFinding(
            g.rt.tc, 'minute-grid', 60,
            `sampled from ${fmt(g.times[0])} h to ${fmt(g.times[g.times.length - 1])} h after the dose, and its times ÷60 (${g.times.slice(0, 5).map((t) => fmt(t / 60)).join(', ')} … h) are a usual sampling grid: minutes curated as hours?`,
            {},
          ),
        );
      }
    }
    return findings;
  },
};
