/**
 * The charts of a QA report, as Vega-Lite specs: the two overview charts, one
 * plot per timecourse that has a minor or major finding (agreements are info
 * findings and would bury the interesting plots), and a reference-range strip
 * per finding whose details carry a range.
 */
import type { TopLevelSpec } from 'vega-lite';
import { overviewScatterSpec, ratioHistogramSpec, type ComparisonPoint } from '../plots/overview.js';
import { rangeStripSpec } from '../plots/range-strip.js';
import { timecourseSpec, timecourseSpecJson, type TimecoursePlotInput } from '../plots/timecourse.js';
import type { Comparison, RecomputedTimecourse } from '../qa/compare-reported.js';
import type { QaResult } from '../qa/run.js';
import { concentrationSeries } from '../qa/input-checks.js';
import type { Finding } from '../qa/finding.js';
import { conversionFactorOrNull } from '../units/convert.js';
import { displayValue } from './display-units.js';

export interface ReportCharts {
  overview: { id: string; spec: TopLevelSpec }[];
  /** Per subset_pk. */
  timecourses: Map<number, TopLevelSpec>;
  /** Reference-range strips, per finding id. */
  ranges: Map<string, TopLevelSpec>;
}

export function comparisonPoints(comparisons: readonly Comparison[]): ComparisonPoint[] {
  return comparisons.map((c) => ({
    study_sid: c.output.study_sid,
    parameter: c.parameter,
    reported: c.reported,
    recomputed: c.recomputed,
    classification: c.verdict.classification,
    suspected_cause: c.verdict.causes.map((k) => k.text).join('; ') || null,
  }));
}

/** Observed points, shifted to the dose time like the recomputation. */
function observedPoints(rt: RecomputedTimecourse): { time: number; conc: number }[] {
  const series = concentrationSeries(rt.tc)?.values ?? [];
  const shift = rt.dose?.time ?? 0;
  const points: { time: number; conc: number }[] = [];
  rt.tc.time.forEach((t, i) => {
    const c = series[i];
    if (t != null && c != null && Number.isFinite(t) && Number.isFinite(c)) points.push({ time: t - shift, conc: c });
  });
  return points.sort((a, b) => a.time - b.time);
}

function timeFactor(from: string, to: string | null): number | null {
  return to ? conversionFactorOrNull(from, to) : null;
}

/**
 * A reported cmax in the timecourse's unit: scaled by the recomputed value's
 * two expressions (reported unit and timecourse unit), which avoids needing the
 * molar mass a second time.
 */
function reportedConcentration(c: Comparison, rt: RecomputedTimecourse): number | null {
  const inTc = rt.standard.values.cmax?.value ?? rt.pkdb.cmax?.value;
  const inReported = rt.standard.values.cmax ? c.standard : c.pkdb;
  return inTc !== undefined && inReported ? c.reported * (inTc / inReported) : null;
}

/**
 * The reported elimination rate in 1/(timecourse time unit), from a reported
 * thalf (λz = ln 2 / t½) or kel, drawn through the end of the recomputed fit
 * so the two slopes can be compared by eye.
 */
function reportedFit(rt: RecomputedTimecourse, comparisons: readonly Comparison[], fit: TimecoursePlotInput['fit']): TimecoursePlotInput['reported_fit'] {
  const timeUnit = rt.tc.time_unit;
  if (!fit || !timeUnit) return null;
  let lambdaZ: number | null = null;
  const thalf = comparisons.find((c) => c.parameter === 'thalf');
  const kel = comparisons.find((c) => c.parameter === 'kel');
  if (thalf) {
    const factor = timeFactor(thalf.reported_unit, timeUnit);
    if (factor !== null) lambdaZ = Math.LN2 / (thalf.reported * factor);
  } else if (kel) {
    const factor = timeFactor(kel.reported_unit, `1 / ${timeUnit}`);
    if (factor !== null) lambdaZ = kel.reported * factor;
  }
  if (lambdaZ === null || !(lambdaZ > 0) || !Number.isFinite(lambdaZ)) return null;
  const endLog = fit.intercept - fit.lambda_z * fit.end;
  return { lambda_z: lambdaZ, intercept: endLog + lambdaZ * fit.end, start: fit.start, end: fit.end };
}

export function timecoursePlotInput(rt: RecomputedTimecourse, comparisons: readonly Comparison[]): TimecoursePlotInput {
  const { tc } = rt;
  const lz = rt.standard.lambdaZ;
  const recomputedTmax = rt.standard.values.tmax?.value ?? null;
  const recomputedCmax = rt.standard.values.cmax?.value ?? null;
  const markers: TimecoursePlotInput['markers'] = [];
  if (recomputedTmax !== null && recomputedCmax !== null) {
    markers.push({ source: 'recomputed', parameter: 'cmax/tmax', time: recomputedTmax, conc: recomputedCmax });
  }
  const reportedTmax = comparisons.find((c) => c.parameter === 'tmax');
  const tmaxInTc = reportedTmax ? timeFactor(reportedTmax.reported_unit, tc.time_unit) : null;
  const reportedTime = reportedTmax && tmaxInTc !== null ? reportedTmax.reported * tmaxInTc : recomputedTmax;
  const reportedCmax = comparisons.find((c) => c.parameter === 'cmax');
  const cmaxInTc = reportedCmax ? reportedConcentration(reportedCmax, rt) : null;
  if (reportedTime !== null && (cmaxInTc ?? recomputedCmax) !== null && (reportedCmax || reportedTmax)) {
    markers.push({
      source: 'reported',
      parameter: [reportedCmax ? 'cmax' : '', reportedTmax ? 'tmax' : ''].filter(Boolean).join('/'),
      time: reportedTime,
      conc: (cmaxInTc ?? recomputedCmax) as number,
    });
  }
  const points = observedPoints(rt);
  const fit = lz && lz.times.length > 0 ? { lambda_z: -lz.slope, intercept: lz.intercept, start: lz.times[0], end: lz.times[lz.times.length - 1] } : null;
  const subject = tc.individual_pk !== null ? `individual ${tc.individual_pk}` : `group ${tc.group_pk}`;
  return inDisplayUnit({
    title: `${tc.study_name} · ${tc.subset_name} (subset ${tc.subset_pk}) · ${tc.substance_label ?? tc.substance ?? ''} · ${subject}`,
    time_unit: tc.time_unit ?? '',
    conc_unit: tc.unit ?? '',
    points,
    lambda_z_points: lz ? lz.times.map((time, i) => ({ time, conc: lz.concentrations[i] })) : [],
    fit,
    reported_fit: reportedFit(rt, comparisons, fit),
    markers,
  });
}

/**
 * The plot in the readable unit of its highest concentration (ng/mL rather
 * than gram / liter, display-units.ts): every concentration × k, and the
 * log-linear fits' intercepts + ln k (ln kC = ln k + ln C).
 */
export function inDisplayUnit(input: TimecoursePlotInput): TimecoursePlotInput {
  const peak = Math.max(0, ...input.points.map((p) => p.conc).filter(Number.isFinite));
  const shown = peak > 0 ? displayValue(peak, input.conc_unit) : null;
  if (!shown) return input;
  const k = shown.value / peak;
  const scale = <T extends { conc: number }>(rows: T[]) => rows.map((r) => ({ ...r, conc: r.conc * k }));
  const fit = (f: TimecoursePlotInput['fit']) => (f ? { ...f, intercept: f.intercept + Math.log(k) } : f);
  return {
    ...input,
    conc_unit: shown.unit,
    points: scale(input.points),
    lambda_z_points: scale(input.lambda_z_points),
    fit: fit(input.fit),
    reported_fit: fit(input.reported_fit ?? null),
    markers: scale(input.markers),
  };
}

/** Subsets with a minor or major finding. */
export function flaggedSubsets(result: QaResult): Set<number> {
  const flagged = new Set<number>();
  for (const f of result.findings) if (f.subset_pk !== null && f.severity !== 'info') flagged.add(f.subset_pk);
  return flagged;
}

/** A reference range a check put in a finding's details. */
export interface FindingRange {
  low: number;
  high: number;
  n: number | null;
  unit: string | null;
  values: number[];
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The first object in `details` (or `details` itself) with numeric `low` and
 * `high`: the shape the reference-range checks write (`{n, low, high}`, with
 * optional `unit` and `values`). Other key spellings for the count are read too.
 */
export function findingRange(f: Pick<Finding, 'details' | 'reported_unit'>): FindingRange | null {
  const details = f.details;
  if (!details) return null;
  for (const candidate of [details, ...Object.values(details)]) {
    if (candidate === null || typeof candidate !== 'object' || Array.isArray(candidate)) continue;
    const r = candidate as Record<string, unknown>;
    if (!num(r.low) || !num(r.high)) continue;
    const n = [r.n, r.n_studies, r.studies, r.count].find(num) ?? null;
    const values = Array.isArray(r.values) ? r.values.filter(num).slice(0, 2000) : [];
    return { low: r.low, high: r.high, n, unit: typeof r.unit === 'string' ? r.unit : f.reported_unit, values };
  }
  return null;
}

/** `value` in `from` expressed in `to`; null when they do not convert. */
function inUnit(value: number | null, from: string | null, to: string): number | null {
  if (value === null || !Number.isFinite(value)) return null;
  if (!from || from === to) return value;
  return timeFactor(from, to) !== null ? value * (timeFactor(from, to) as number) : null;
}

/** The strip of a finding with a range, in the display unit of the range's high end. */
export function rangeSpec(f: Finding, range: FindingRange): TopLevelSpec {
  const unit = range.unit ?? '';
  const shown = displayValue(range.high, unit);
  const k = shown ? shown.value / range.high : 1;
  const points: { label: string; value: number }[] = [];
  const reported = inUnit(f.reported, f.reported_unit, unit);
  if (reported !== null) points.push({ label: 'reported', value: reported * k });
  const recomputed = inUnit(f.recomputed, f.recomputed_unit, unit);
  if (recomputed !== null) points.push({ label: 'recomputed', value: recomputed * k });
  return rangeStripSpec({
    title: `${f.measurement_type ?? 'value'}: ${f.study_name ?? f.study_sid ?? ''} against other studies`,
    unit: shown?.unit ?? unit,
    low: range.low * k,
    high: range.high * k,
    n: range.n,
    values: range.values.map((v) => v * k),
    points,
  });
}

/** One plot file of a report: its name (without `.vl.json`) and its spec, built when asked for. */
export interface PlotJob {
  name: string;
  spec: () => TopLevelSpec;
  /** `JSON.stringify(spec())`, the file's text (a timecourse's without building its spec: timecourseSpecJson). */
  json: () => string;
}

/** A plot whose file text is its spec's JSON. */
const plotJob = (name: string, spec: () => TopLevelSpec): PlotJob => ({ name, spec, json: () => JSON.stringify(spec()) });

/**
 * The report's plots in file order (overview, timecourses, reference ranges), each spec built only when asked
 * for: a writer that serialises one at a time holds one spec in memory instead of all of them (~950 timecourse
 * plots of the shared export, ~10 MB of JSON, otherwise alive together and copied by every young-generation GC).
 * The same plots, in the same order, as buildReportCharts (`chartPlots`).
 */
export function reportPlots(result: QaResult): PlotJob[] {
  const points = comparisonPoints(result.comparisons);
  const bySubset = comparisonsBySubset(result.comparisons);
  const jobs: PlotJob[] = [plotJob('overview-scatter', () => overviewScatterSpec(points)), plotJob('overview-histogram', () => ratioHistogramSpec(points))];
  // Keyed as buildReportCharts' maps are: a repeated key keeps its first place and its last value.
  const timecourses = new Map<number, RecomputedTimecourse>();
  const flagged = flaggedSubsets(result);
  for (const rt of result.timecourses) if (flagged.has(rt.tc.subset_pk)) timecourses.set(rt.tc.subset_pk, rt);
  timecourses.forEach((rt, pk) =>
    jobs.push({
      name: `timecourse-${pk}`,
      spec: () => timecourseChart(rt, bySubset),
      json: () => timecourseSpecJson(timecoursePlotInput(rt, bySubset.get(rt.tc.subset_pk) ?? [])),
    }),
  );
  const ranges = new Map<string, { f: Finding; range: FindingRange }>();
  for (const f of result.findings) {
    const range = f.id ? findingRange(f) : null;
    if (range && f.id) ranges.set(f.id, { f, range });
  }
  ranges.forEach(({ f, range }, id) => jobs.push(plotJob(`range-${id}`, () => rangeSpec(f, range))));
  return jobs;
}

/** The plots of charts already built, in the order of reportPlots. */
export function chartPlots(charts: ReportCharts): PlotJob[] {
  return [
    ...charts.overview.map((c) => plotJob(c.id, () => c.spec)),
    ...[...charts.timecourses].map(([pk, spec]) => plotJob(`timecourse-${pk}`, () => spec)),
    ...[...charts.ranges].map(([id, spec]) => plotJob(`range-${id}`, () => spec)),
  ];
}

function comparisonsBySubset(comparisons: readonly Comparison[]): Map<number, Comparison[]> {
  const bySubset = new Map<number, Comparison[]>();
  for (const c of comparisons) {
    const pk = c.timecourse.tc.subset_pk;
    const list = bySubset.get(pk);
    if (list) list.push(c);
    else bySubset.set(pk, [c]);
  }
  return bySubset;
}

function timecourseChart(rt: RecomputedTimecourse, bySubset: ReadonlyMap<number, Comparison[]>): TopLevelSpec {
  return timecourseSpec(timecoursePlotInput(rt, bySubset.get(rt.tc.subset_pk) ?? []));
}

export function buildReportCharts(result: QaResult): ReportCharts {
  const points = comparisonPoints(result.comparisons);
  const flagged = flaggedSubsets(result);
  const bySubset = comparisonsBySubset(result.comparisons);
  const timecourses = new Map<number, TopLevelSpec>();
  for (const rt of result.timecourses) {
    if (!flagged.has(rt.tc.subset_pk)) continue;
    timecourses.set(rt.tc.subset_pk, timecourseChart(rt, bySubset));
  }
  const ranges = new Map<string, TopLevelSpec>();
  for (const f of result.findings) {
    const range = f.id ? findingRange(f) : null;
    if (range && f.id) ranges.set(f.id, rangeSpec(f, range));
  }
  return {
    ranges,
    overview: [
      { id: 'overview-scatter', spec: overviewScatterSpec(points) },
      { id: 'overview-histogram', spec: ratioHistogramSpec(points) },
    ],
    timecourses,
  };
}
