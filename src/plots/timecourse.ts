/**
 * The plot of one concentration timecourse, side by side on linear and
 * semi-log axes: the observed points, the λz points and their log-linear fit,
 * the reported half-life as a line of its slope, and the reported and
 * recomputed Cmax/Tmax marked.
 */
import type { TopLevelSpec } from 'vega-lite';

export interface TimecoursePlotInput {
  title: string;
  time_unit: string;
  conc_unit: string;
  points: { time: number; conc: number }[];
  /** Points used for λz (a subset of `points`). */
  lambda_z_points: { time: number; conc: number }[];
  /** ln C = intercept − λz·t over the λz window, when a fit exists. */
  fit: { lambda_z: number; intercept: number; start: number; end: number } | null;
  /** The reported half-life or kel as a line of that slope over the same window, when reported. */
  reported_fit?: { lambda_z: number; intercept: number; start: number; end: number } | null;
  /** Values to mark, in the plot's units: `source` reported or recomputed. */
  markers: { source: 'reported' | 'recomputed'; parameter: string; time: number; conc: number }[];
}

/** Points of the fit line, dense enough to look straight on the linear axis. */
export function fitLine(fit: NonNullable<TimecoursePlotInput['fit']>, steps = 24): { time: number; conc: number }[] {
  const line: { time: number; conc: number }[] = [];
  for (let i = 0; i <= steps; i++) {
    const time = fit.start + ((fit.end - fit.start) * i) / steps;
    line.push({ time, conc: Math.exp(fit.intercept - fit.lambda_z * time) });
  }
  return line;
}

/**
 * A fit line as drawn: 6 significant digits of time and concentration (a
 * 300-pixel panel shows ~3), so that the ~950 plot files of a large QA run do
 * not carry 17-digit samples of exp(); the observed points are written as curated.
 */
const drawnLine = (line: { time: number; conc: number }[]) =>
  line.map((p) => ({ time: Number(p.time.toPrecision(6)), conc: Number(p.conc.toPrecision(6)) }));

const MARKER_COLORS = {
  scale: {
    domain: ['observed', 'λz point', 'λz fit', 'reported λz', 'reported', 'recomputed'],
    range: ['#444', '#009E73', '#009E73', '#D55E00', '#D55E00', '#0072B2'],
  },
};

/**
 * The fit lines as drawn, rounded once for both panels (a fit's concentrations are positive: the log panel keeps them
 * all). Each panel gets its own point objects: vega tags the data objects it ingests.
 */
interface DrawnFits {
  fit: { time: number; conc: number }[];
  reported: { time: number; conc: number }[];
}

const copies = (line: { time: number; conc: number }[]) => line.map((p) => ({ time: p.time, conc: p.conc }));

function panel(input: TimecoursePlotInput, log: boolean, drawn: DrawnFits) {
  const keep = <T extends { conc: number }>(rows: T[]) => (log ? rows.filter((r) => r.conc > 0) : rows);
  const x = { field: 'time', type: 'quantitative', title: `time [${input.time_unit}]` } as const;
  const y = {
    field: 'conc',
    type: 'quantitative',
    title: `concentration [${input.conc_unit}]`,
    scale: log ? { type: 'log' as const } : { zero: true },
  } as const;
  const series = (name: string) => ({ datum: name, type: 'nominal', title: '', ...MARKER_COLORS }) as const;
  return {
    title: log ? 'semi-log' : 'linear',
    width: 300,
    height: 220,
    layer: [
      {
        data: { values: keep(input.points) },
        mark: { type: 'line', point: true, strokeWidth: 1 },
        encoding: { x, y, color: series('observed') },
      },
      {
        data: { values: keep(input.lambda_z_points) },
        mark: { type: 'point', size: 90, strokeWidth: 2 },
        encoding: { x, y, color: series('λz point') },
      },
      {
        data: { values: log ? copies(drawn.fit) : drawn.fit },
        mark: { type: 'line', strokeDash: [5, 3] },
        encoding: { x, y, color: series('λz fit') },
      },
      {
        data: { values: log ? copies(drawn.reported) : drawn.reported },
        mark: { type: 'line', strokeDash: [2, 2] },
        encoding: { x, y, color: series('reported λz') },
      },
      {
        data: { values: keep(input.markers) },
        mark: { type: 'point', shape: 'diamond', size: 140, filled: true, opacity: 0.8 },
        encoding: {
          x,
          y,
          color: { field: 'source', type: 'nominal', title: '', ...MARKER_COLORS },
          tooltip: [
            { field: 'source', type: 'nominal' },
            { field: 'parameter', type: 'nominal' },
            { field: 'time', type: 'quantitative', format: '.4g' },
            { field: 'conc', type: 'quantitative', format: '.4g' },
          ],
        },
      },
    ],
  };
}

/** Linear and semi-log panels of one timecourse. */
export function timecourseSpec(input: TimecoursePlotInput): TopLevelSpec {
  // Each fit line rounded once (toPrecision per point showed in the ~950 plots of the shared export), shared by the panels.
  const drawn: DrawnFits = {
    fit: input.fit ? drawnLine(fitLine(input.fit)) : [],
    reported: input.reported_fit ? drawnLine(fitLine(input.reported_fit)) : [],
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: input.title,
    hconcat: [panel(input, false, drawn), panel(input, true, drawn)],
    resolve: { scale: { color: 'shared' } },
  } as TopLevelSpec;
}
