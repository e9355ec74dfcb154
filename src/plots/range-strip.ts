/**
 * A reference-range strip: the range other studies give for a parameter
 * (a band from low to high, with their values as ticks when known) and the
 * finding's reported and recomputed values as points on the same axis, so a
 * value ×1000 outside the band is seen at a glance. Log axis when every
 * value is positive (slips are factors).
 */
import type { TopLevelSpec } from 'vega-lite';

export interface RangeStripInput {
  title: string;
  unit: string;
  low: number;
  high: number;
  /** How many studies (or values) the range is built from, for the caption. */
  n?: number | null;
  /** The values the range was built from, when the finding carries them. */
  values?: readonly number[];
  /** The values to place against the range. */
  points: readonly { label: string; value: number }[];
}

const POINT_COLORS = { domain: ['reported', 'recomputed', 'other studies'], range: ['#D55E00', '#0072B2', '#999'] };

export function rangeStripSpec(input: RangeStripInput): TopLevelSpec {
  const all = [input.low, input.high, ...(input.values ?? []), ...input.points.map((p) => p.value)].filter(Number.isFinite);
  const log = all.length > 0 && all.every((v) => v > 0);
  const x = {
    type: 'quantitative',
    title: `${input.unit}${log ? ' (log)' : ''}`,
    scale: log ? { type: 'log' as const } : { zero: false },
  } as const;
  const band = `range of ${input.n != null ? `${input.n} studies` : 'other studies'}`;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: input.title,
    width: 420,
    height: 60,
    layer: [
      {
        data: { values: [{ low: input.low, high: input.high, band }] },
        mark: { type: 'rect', color: '#CFE8F3', opacity: 0.9 },
        encoding: { x: { ...x, field: 'low' }, x2: { field: 'high' }, tooltip: [{ field: 'band', type: 'nominal' }, { field: 'low', type: 'quantitative', format: '.4g' }, { field: 'high', type: 'quantitative', format: '.4g' }] },
      },
      {
        data: { values: (input.values ?? []).filter((v) => !log || v > 0).map((value) => ({ value, label: 'other studies' })) },
        mark: { type: 'tick', thickness: 1, opacity: 0.6 },
        encoding: { x: { ...x, field: 'value' }, color: { field: 'label', type: 'nominal', title: '', scale: POINT_COLORS } },
      },
      {
        data: { values: input.points.filter((p) => Number.isFinite(p.value) && (!log || p.value > 0)).map((p) => ({ ...p })) },
        mark: { type: 'point', filled: true, size: 120, shape: 'diamond' },
        encoding: {
          x: { ...x, field: 'value' },
          color: { field: 'label', type: 'nominal', title: '', scale: POINT_COLORS },
          tooltip: [{ field: 'label', type: 'nominal' }, { field: 'value', type: 'quantitative', format: '.4g' }],
        },
      },
    ],
  } as TopLevelSpec;
}
