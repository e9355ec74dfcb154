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

/** A panel's rows of its five layers, in layer order: observed, λz points, λz fit, reported λz, markers. */
type PanelData = [
  { time: number; conc: number }[],
  { time: number; conc: number }[],
  { time: number; conc: number }[],
  { time: number; conc: number }[],
  TimecoursePlotInput['markers'],
];

/** The rows a panel draws: on the log axis only positive concentrations. */
function panelData(input: TimecoursePlotInput, log: boolean, drawn: DrawnFits): PanelData {
  const keep = <T extends { conc: number }>(rows: T[]) => (log ? rows.filter((r) => r.conc > 0) : rows);
  return [keep(input.points), keep(input.lambda_z_points), log ? copies(drawn.fit) : drawn.fit, log ? copies(drawn.reported) : drawn.reported, keep(input.markers)];
}

function panel(input: Pick<TimecoursePlotInput, 'time_unit' | 'conc_unit'>, log: boolean, data: PanelData) {
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
        data: { values: data[0] },
        mark: { type: 'line', point: true, strokeWidth: 1 },
        encoding: { x, y, color: series('observed') },
      },
      {
        data: { values: data[1] },
        mark: { type: 'point', size: 90, strokeWidth: 2 },
        encoding: { x, y, color: series('λz point') },
      },
      {
        data: { values: data[2] },
        mark: { type: 'line', strokeDash: [5, 3] },
        encoding: { x, y, color: series('λz fit') },
      },
      {
        data: { values: data[3] },
        mark: { type: 'line', strokeDash: [2, 2] },
        encoding: { x, y, color: series('reported λz') },
      },
      {
        data: { values: data[4] },
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

/** Each fit line rounded once (toPrecision per point showed in the ~950 plots of the shared export), shared by the panels. */
function drawnFits(input: TimecoursePlotInput): DrawnFits {
  return {
    fit: input.fit ? drawnLine(fitLine(input.fit)) : [],
    reported: input.reported_fit ? drawnLine(fitLine(input.reported_fit)) : [],
  };
}

/** The spec around the two panels. */
function specShell(title: string, hconcat: unknown[]) {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    hconcat,
    resolve: { scale: { color: 'shared' } },
  };
}

/** Linear and semi-log panels of one timecourse. */
export function timecourseSpec(input: TimecoursePlotInput): TopLevelSpec {
  const drawn = drawnFits(input);
  return specShell(input.title, [panel(input, false, panelData(input, false, drawn)), panel(input, true, panelData(input, true, drawn))]) as TopLevelSpec;
}

/**
 * A panel's JSON without its data, split where each layer's rows go (six pieces around five `"values":[]`), by
 * time unit, concentration unit and axis: the few unit pairs of a run serialise their panels once.
 */
const panelPieces = new Map<string, string[]>();
const NO_DATA: PanelData = [[], [], [], [], []];

function piecesOf(timeUnit: string, concUnit: string, log: boolean): string[] {
  const key = `${log ? 'log' : 'linear'}\u0000${timeUnit}\u0000${concUnit}`;
  let pieces = panelPieces.get(key);
  if (pieces === undefined) {
    // A unit's text is a JSON string, its quotes escaped: only the layers' own `"values":[]` match.
    pieces = JSON.stringify(panel({ time_unit: timeUnit, conc_unit: concUnit }, log, NO_DATA)).split('"values":[]');
    panelPieces.set(key, pieces);
  }
  return pieces;
}

/**
 * `JSON.stringify(timecourseSpec(input))`, the text of a plot file, without building the spec: the panels'
 * axes, marks and colour scales (half of a file) are serialised once per unit pair (piecesOf) and each layer's
 * rows once for both panels where the log axis keeps them all (a fit line always). The ~950 plot files of the
 * shared export cost ~100 ms of JSON and spec objects otherwise. test/plots/specs.test.ts holds it to the spec's text.
 */
export function timecourseSpecJson(input: TimecoursePlotInput): string {
  const drawn = drawnFits(input);
  const linear = panelData(input, false, drawn).map((rows) => JSON.stringify(rows));
  const logData: PanelData = [input.points, input.lambda_z_points, drawn.fit, drawn.reported, input.markers];
  const log = logData.map((rows, k) => (k === 2 || k === 3 || rows.every((r) => r.conc > 0) ? linear[k] : JSON.stringify(rows.filter((r) => r.conc > 0))));
  const panelJson = (pieces: string[], texts: string[]) => {
    let text = pieces[0];
    for (let k = 0; k < texts.length; k++) text += `"values":${texts[k]}${pieces[k + 1]}`;
    return text;
  };
  const panels = `${panelJson(piecesOf(input.time_unit, input.conc_unit, false), linear)},${panelJson(piecesOf(input.time_unit, input.conc_unit, true), log)}`;
  const shell = JSON.stringify(specShell(input.title, []));
  // The title, a JSON string, comes before the hconcat key: the last match is the key.
  const at = shell.lastIndexOf('"hconcat":[]') + '"hconcat":['.length;
  return `${shell.slice(0, at)}${panels}${shell.slice(at)}`;
}
