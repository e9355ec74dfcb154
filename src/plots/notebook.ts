/** Chart builders for notebooks: a spaghetti plot of profiles and a forest plot of estimates. */
import type { TopLevelSpec } from 'vega-lite';

export interface ProfileRow {
  subject: string;
  time: number;
  conc: number;
}

/** One line per subject; `log` puts concentration on a log axis (zeros dropped). */
export function spaghettiSpec(
  rows: readonly ProfileRow[],
  options: { title?: string; timeUnit?: string; concUnit?: string; log?: boolean } = {},
): TopLevelSpec {
  const values = options.log ? rows.filter((r) => r.conc > 0) : [...rows];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: options.title ?? 'Concentration–time profiles',
    width: 420,
    height: 280,
    data: { values },
    mark: { type: 'line', point: { size: 12 }, strokeWidth: 1, opacity: 0.8 },
    encoding: {
      x: { field: 'time', type: 'quantitative', title: `time${options.timeUnit ? ` [${options.timeUnit}]` : ''}` },
      y: {
        field: 'conc',
        type: 'quantitative',
        title: `concentration${options.concUnit ? ` [${options.concUnit}]` : ''}`,
        scale: options.log ? { type: 'log' } : { zero: true },
      },
      color: { field: 'subject', type: 'nominal', legend: values.length > 0 && new Set(values.map((r) => r.subject)).size <= 20 ? {} : null },
      detail: { field: 'subject', type: 'nominal' },
    },
  };
}

export interface ForestRow {
  label: string;
  estimate: number;
  lower: number | null;
  upper: number | null;
  /** e.g. `reported` or `recomputed`. */
  source?: string;
}

/** Point estimates with intervals, one row per label; `log` for ratios and half-lives. */
export function forestSpec(
  rows: readonly ForestRow[],
  options: { title?: string; xTitle?: string; log?: boolean; reference?: number } = {},
): TopLevelSpec {
  const x = {
    type: 'quantitative',
    title: options.xTitle ?? 'estimate',
    scale: options.log ? { type: 'log' } : { zero: false },
  } as const;
  // Every layer sorts by the rows' own order: with `sort: null` each layer would order by its own
  // data, and rows without an interval (absent from the rule layer) would fall to the bottom.
  const y = { field: 'label', type: 'nominal', title: null, sort: rows.map((r) => r.label) } as const;
  const color = { field: 'source', type: 'nominal', title: '' } as const;
  const withInterval = rows.filter((r) => r.lower !== null && r.upper !== null);
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: options.title ?? 'Forest plot',
    width: 380,
    height: { step: 18 },
    layer: [
      {
        data: { values: withInterval },
        mark: { type: 'rule' },
        encoding: { x: { ...x, field: 'lower' }, x2: { field: 'upper' }, y, color },
      },
      {
        data: { values: [...rows] },
        mark: { type: 'point', filled: true, shape: 'square' },
        encoding: { x: { ...x, field: 'estimate' }, y, color },
      },
      ...(options.reference !== undefined
        ? [{ data: { values: [{ reference: options.reference }] }, mark: { type: 'rule' as const, strokeDash: [4, 3], color: '#888' }, encoding: { x: { ...x, field: 'reference' } } }]
        : []),
    ],
    // Study labels ("Author1999, healthy men, 200 mg") are long; the default 180 px cuts them.
    config: { axisY: { labelLimit: 400 } },
  } as TopLevelSpec;
}
