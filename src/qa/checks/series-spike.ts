/**
 * The `series-spike` check: one point of a concentration series typed with the
 * wrong prefix or exponent (a single µg/L among mg/L, 5.8e-8 for 5.8e-5) —
 * the slip of one table cell, which whole-curve comparisons dilute away (a
 * curve's Cmax, AUC and median ratio to its siblings barely move).
 *
 * A series is a concentration timecourse's representative values, or the
 * single reported concentrations of one subject, intervention set, substance,
 * tissue and unit at several times (some studies curate a profile as separate
 * outputs). At each interior time t_i with positive neighbours that agree
 * (max/min ≤ NEIGHBOURS_AGREE: a smooth stretch, not an absorption front or a
 * sample at the limit of quantification), the point is set against the
 * log-linear interpolation of its neighbours,
 *   ĉ(t_i) = exp(ln c₋ + (ln c₊ − ln c₋)·(t_i − t₋)/(t₊ − t₋)),
 * and r = c_i / ĉ. Beyond ×SPIKE (both ways) a curve does not go and come back
 * between two samples; a slip factor of a concentration (causes.ts
 * `slipFactors`: ×1000, ×10⁶, molar ↔ mass of ×SPIKE and more) that brings
 * r back within NEIGHBOURS_AGREE names it: major, the point's output as the
 * record to fix. Beyond ×SPIKE without a factor: minor. It cannot see a
 * slipped first or last point (one neighbour), a ×10 (a spike of ×10 is
 * within what two digitised points and an assay reach), nor a slip shared by
 * a run of points.
 */
import { subjectLabel, subjectOf } from '../../data/dataset.js';
import type { OutputRecord } from '../../data/model.js';
import { pushTo, representativeValue } from '../../data/records.js';
import type { QaCheck } from '../check.js';
import { nearestCause, slipFactors, type SuspectedCause } from '../causes.js';
import type { QaContext } from '../context.js';
import { finding, type Finding } from '../finding.js';
import { concentrationSeries } from '../input-checks.js';
import { logLinearAt } from '../robust.js';

const CHECK = 'series-spike';
/** A point this far from the interpolation of its agreeing neighbours is a spike. */
export const SPIKE = 30;
/** Neighbours agree within this factor; a slip factor must bring the point back within it. */
export const NEIGHBOURS_AGREE = 3;

const fmt = (x: number) => String(+x.toPrecision(3));

/** One point of a series: its time, its value and the output record that holds it (null when unknown). */
export interface SeriesPoint {
  time: number;
  value: number;
  output: OutputRecord | null;
}

/** A spike: the point's index, ratio r = c / ĉ and the interpolated ĉ. */
export interface Spike {
  index: number;
  ratio: number;
  expected: number;
}

/**
 * The spikes of a series sorted by time (positive values; a time held twice is skipped: which of its two values
 * is the neighbour is unknown).
 */
export function seriesSpikes(points: readonly SeriesPoint[]): Spike[] {
  const spikes: Spike[] = [];
  const logAgree = Math.log(NEIGHBOURS_AGREE);
  for (let i = 1; i < points.length - 1; i++) {
    const [a, b, c] = [points[i - 1], points[i], points[i + 1]];
    if (!(a.time < b.time && b.time < c.time)) continue;
    if (Math.abs(Math.log(a.value / c.value)) > logAgree) continue;
    const expected = logLinearAt([a.time, c.time], [a.value, c.value], b.time, 1) as number;
    const ratio = b.value / expected;
    if (Math.abs(Math.log(ratio)) >= Math.log(SPIKE)) spikes.push({ index: i, ratio, expected });
  }
  return spikes;
}

/** The slip factor (of SPIKE and more) that brings a spike's ratio back within NEIGHBOURS_AGREE, the closest; null if none. */
export function spikeCause(ratio: number, molarMass: number | null): SuspectedCause | null {
  return nearestCause(Math.log(ratio), slipFactors('cmax', { molarMass }), SPIKE, Math.log(NEIGHBOURS_AGREE));
}

/** Positive points with a finite time, sorted by time (a stable sort: curated order among equal times). */
function sortedPoints(points: SeriesPoint[]): SeriesPoint[] {
  return points.filter((p) => p.value > 0 && Number.isFinite(p.value) && Number.isFinite(p.time)).sort((x, y) => x.time - y.time);
}

/** The timecourses' series: their representative values at their times, each point with its output record. */
function timecourseSeries(ctx: QaContext): { points: SeriesPoint[]; subset: number; substance: string | null; unit: string | null; timeUnit: string | null }[] {
  const series = [];
  for (const rt of ctx.timecourses) {
    const values = concentrationSeries(rt.tc)?.values;
    if (!values) continue;
    const points: SeriesPoint[] = [];
    for (let i = 0; i < rt.tc.time.length; i++) {
      const t = rt.tc.time[i];
      const v = values[i];
      if (t === null || v === null || v === undefined) continue;
      const pk = rt.tc.output_pk[i];
      points.push({ time: t, value: v, output: pk === undefined ? null : (ctx.dataset.output(pk) ?? null) });
    }
    if (points.length >= 3) series.push({ points: sortedPoints(points), subset: rt.tc.subset_pk, substance: rt.substance, unit: rt.tc.unit, timeUnit: rt.tc.time_unit });
  }
  return series;
}

/** Single reported concentrations grouped into series: one subject, intervention set, substance, tissue, unit and time unit. */
function outputSeries(ctx: QaContext): SeriesPoint[][] {
  const groups = new Map<string, SeriesPoint[]>();
  const outputs = ctx.tables.outputs;
  for (let i = 0; i < outputs.length; i++) {
    const o = outputs[i];
    if (!o.normed || o.calculated || o.output_type === 'timecourse' || o.measurement_type !== 'concentration') continue;
    const value = representativeValue(o);
    if (value === null || o.time === null || !o.time_unit || !o.unit) continue;
    const key = `${ctx.matchKey(o)}|${o.unit}|${o.time_unit}`;
    pushTo(groups, key, { time: o.time, value, output: o });
  }
  return [...groups.values()].filter((points) => points.length >= 3).map(sortedPoints);
}

function spikeFinding(spike: Spike, points: readonly SeriesPoint[], cause: SuspectedCause | null, subset: number | null, unit: string | null, timeUnit: string | null): Finding {
  const point = points[spike.index];
  const at = (t: number) => `${fmt(t)}${timeUnit ? ` ${timeUnit}` : ''}`;
  const o = point.output;
  const [before, after] = [points[spike.index - 1], points[spike.index + 1]];
  return finding({
    kind: 'series-spike',
    check: `${CHECK}/${subset === null ? 'outputs' : 'timecourse'}`,
    severity: cause ? 'major' : 'minor',
    study_sid: o?.study_sid ?? null,
    study_name: o?.study_name ?? null,
    subset_pk: subset,
    output_pk: o?.pk ?? null,
    measurement_type: o?.measurement_type ?? 'concentration',
    subject: o ? subjectLabel(subjectOf(o)) : null,
    reported: point.value,
    reported_unit: unit,
    recomputed: spike.expected,
    recomputed_unit: unit,
    ratio: spike.ratio,
    suspected_cause: cause?.text ?? null,
    culprit: cause ? 'output' : null,
    message:
      `the point at ${at(point.time)} is ×${fmt(spike.ratio)} the line through its neighbours (${fmt(before.value)} at ${at(before.time)}, ` +
      `${fmt(after.value)} at ${at(after.time)}, which agree within ×${NEIGHBOURS_AGREE}): ` +
      (cause ? `${cause.text.split(' (')[0]} brings it back — one value typed with the wrong prefix or exponent` : 'no slip factor brings it back'),
    details: { cause_kinds: cause ? [cause.kind] : [], cause_factors: cause ? [cause.factor] : [], neighbours: [before.output?.pk ?? null, after.output?.pk ?? null] },
  });
}

export const seriesSpikeCheck: QaCheck = {
  kind: 'series-spike',
  description: 'one point of a concentration series (a timecourse, or single reported concentrations of one subject over time) off by a slip factor from its agreeing neighbours',
  run(ctx) {
    const findings: Finding[] = [];
    for (const s of timecourseSeries(ctx)) {
      const molarMass = ctx.molarMass(s.substance);
      for (const spike of seriesSpikes(s.points)) findings.push(spikeFinding(spike, s.points, spikeCause(spike.ratio, molarMass), s.subset, s.unit, s.timeUnit));
    }
    for (const points of outputSeries(ctx)) {
      const first = points[0].output as OutputRecord;
      const molarMass = ctx.molarMass(first.substance);
      for (const spike of seriesSpikes(points)) findings.push(spikeFinding(spike, points, spikeCause(spike.ratio, molarMass), null, first.unit, first.time_unit));
    }
    return findings;
  },
};
