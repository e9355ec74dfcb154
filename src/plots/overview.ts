/**
 * Overview charts of a QA run: recomputed vs reported on log-log axes, and the
 * distribution of log10(reported / recomputed). Both take plain rows so that a
 * notebook can feed them any comparison table.
 */
import type { TopLevelSpec } from 'vega-lite';

export interface ComparisonPoint {
  study_sid: string;
  parameter: string;
  reported: number;
  recomputed: number;
  /** agree | minor | major */
  classification: string;
  suspected_cause: string | null;
}

/** Colours that stay distinguishable for red-green colour blindness (Okabe–Ito). */
export const CLASSIFICATION_COLORS = { agree: '#0072B2', minor: '#E69F00', major: '#D55E00' } as const;

const classificationColor = {
  field: 'classification',
  type: 'nominal',
  title: 'classification',
  scale: { domain: Object.keys(CLASSIFICATION_COLORS), range: Object.values(CLASSIFICATION_COLORS) },
} as const;

/**
 * Guide lines y = f·x for the identity and the commonest unit slips, spanning
 * the data's range so the log axes are not stretched by the guides.
 */
export function guideLines(points: readonly ComparisonPoint[], factors = [1, 1000, 1 / 1000, 60, 1 / 60]) {
  const values = points.flatMap((p) => [p.reported, p.recomputed]).filter((v) => v > 0 && Number.isFinite(v));
  const lo = values.length ? Math.min(...values) : 1e-3;
  const hi = values.length ? Math.max(...values) : 1e3;
  const label = (f: number) => (f === 1 ? 'identity' : f > 1 ? `×${f}` : `×1/${Math.round(1 / f)}`);
  return factors.flatMap((f) => {
    // Clip each line to the box [lo, hi]² so it does not widen the y domain.
    const x0 = Math.max(lo, lo / f);
    const x1 = Math.min(hi, hi / f);
    if (!(x0 < x1)) return [];
    return [
      { guide: label(f), x: x0, y: x0 * f },
      { guide: label(f), x: x1, y: x1 * f },
    ];
  });
}

/** Recomputed (x) vs reported (y), log-log, with identity and ×1000 / ×60 guides. */
export function overviewScatterSpec(points: readonly ComparisonPoint[], title = 'Reported vs recomputed'): TopLevelSpec {
  const data = points.filter((p) => p.reported > 0 && p.recomputed > 0);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    width: 420,
    height: 420,
    layer: [
      {
        data: { values: guideLines(data) },
        mark: { type: 'line', strokeDash: [4, 3], color: '#888', strokeWidth: 1 },
        encoding: {
          x: { field: 'x', type: 'quantitative', scale: { type: 'log' }, title: 'recomputed' },
          y: { field: 'y', type: 'quantitative', scale: { type: 'log' }, title: 'reported' },
          detail: { field: 'guide', type: 'nominal' },
        },
      },
      {
        data: { values: guideLines(data).filter((_, i) => i % 2 === 1) },
        mark: { type: 'text', align: 'left', dx: 3, fontSize: 9, color: '#666' },
        encoding: {
          x: { field: 'x', type: 'quantitative', scale: { type: 'log' } },
          y: { field: 'y', type: 'quantitative', scale: { type: 'log' } },
          text: { field: 'guide', type: 'nominal' },
        },
      },
      {
        data: { values: data as unknown as Record<string, unknown>[] },
        mark: { type: 'point', filled: true, opacity: 0.7 },
        encoding: {
          x: { field: 'recomputed', type: 'quantitative', scale: { type: 'log' } },
          y: { field: 'reported', type: 'quantitative', scale: { type: 'log' } },
          color: classificationColor,
          shape: { field: 'parameter', type: 'nominal' },
          tooltip: [
            { field: 'study_sid', type: 'nominal' },
            { field: 'parameter', type: 'nominal' },
            { field: 'reported', type: 'quantitative', format: '.4g' },
            { field: 'recomputed', type: 'quantitative', format: '.4g' },
            { field: 'suspected_cause', type: 'nominal' },
          ],
        },
      },
    ],
  };
}

/** Histogram of log10(reported / recomputed), stacked by classification. */
export function ratioHistogramSpec(points: readonly ComparisonPoint[], title = 'log10(reported / recomputed)'): TopLevelSpec {
  const values = points
    .filter((p) => p.reported > 0 && p.recomputed > 0)
    .map((p) => ({ parameter: p.parameter, classification: p.classification, log10_ratio: Math.log10(p.reported / p.recomputed) }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    width: 420,
    height: 240,
    data: { values },
    mark: 'bar',
    encoding: {
      x: { field: 'log10_ratio', type: 'quantitative', bin: { maxbins: 60 }, title: 'log10 ratio (0 = agreement, 3 = ×1000)' },
      y: { aggregate: 'count', type: 'quantitative', title: 'comparisons' },
      color: classificationColor,
    },
  };
}
