/**
 * Figures that only the notebooks draw (the plots module has the reusable
 * ones: spaghetti, forest, timecourse, reported-vs-recomputed). Plain
 * Vega-Lite: open any `.vl.json` the notebooks write in the Vega editor.
 */
import type { TopLevelSpec } from 'vega-lite';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';

/** Number of outputs per substance, stacked by measurement type (the `count` field of each row). */
export function outputsOverviewSpec(rows: readonly { substance: string; measurement_type: string; count: number }[], title: string): TopLevelSpec {
  return {
    $schema: SCHEMA,
    title,
    width: 420,
    height: { step: 16 },
    data: { values: [...rows] },
    mark: 'bar',
    encoding: {
      y: { field: 'substance', type: 'nominal', sort: '-x', title: null },
      x: { field: 'count', type: 'quantitative', aggregate: 'sum', title: 'outputs (normed, single values)' },
      color: { field: 'measurement_type', type: 'nominal', title: 'measurement type', scale: { scheme: 'tableau20' } },
      tooltip: [
        { field: 'substance', type: 'nominal' },
        { field: 'measurement_type', type: 'nominal' },
        { field: 'count', type: 'quantitative' },
      ],
    },
  };
}

/**
 * Small multiples of semi-log profiles, one panel per subject, with the
 * points the terminal regression used highlighted: the plot a PK scientist
 * checks before trusting λz.
 */
export function lambdaZPanelsSpec(
  rows: readonly { subject: string; time: number; conc: number; used_for_lambda_z: boolean }[],
  options: { timeUnit: string; concUnit: string; title: string },
): TopLevelSpec {
  return {
    $schema: SCHEMA,
    title: options.title,
    data: { values: rows.filter((r) => r.conc > 0) },
    facet: { field: 'subject', type: 'nominal', title: null, sort: null },
    columns: 4,
    spec: {
      width: 150,
      height: 110,
      mark: { type: 'point', filled: true, size: 28 },
      encoding: {
        x: { field: 'time', type: 'quantitative', title: `time [${options.timeUnit}]` },
        y: { field: 'conc', type: 'quantitative', scale: { type: 'log' }, title: `conc. [${options.concUnit}]` },
        color: {
          field: 'used_for_lambda_z',
          type: 'nominal',
          title: 'λz point',
          scale: { domain: [false, true], range: ['#999999', '#009E73'] },
        },
      },
    },
  } as TopLevelSpec;
}

/**
 * Ratios that should be 1 (stored normed ÷ raw re-converted, reported ÷
 * recomputed), per record on a log axis: agreement sits on 1, a unit slip on
 * a power of ten or 60, a wrong dose on the dose factor.
 */
export function normedRatioSpec(
  rows: readonly { record: string; check: string; measurement_type: string; ratio: number; verdict: string }[],
  title: string,
): TopLevelSpec {
  return {
    $schema: SCHEMA,
    title,
    width: 420,
    height: 200,
    layer: [
      {
        data: { values: [{ ratio: 1 }, { ratio: 1000 }, { ratio: 0.001 }] },
        mark: { type: 'rule', strokeDash: [4, 3], color: '#888' },
        encoding: { x: { field: 'ratio', type: 'quantitative', scale: { type: 'log' } } },
      },
      {
        data: { values: [...rows] },
        mark: { type: 'point', filled: true, size: 60, opacity: 0.8 },
        encoding: {
          x: { field: 'ratio', type: 'quantitative', scale: { type: 'log' }, title: 'ratio (log scale; 1 = agreement)' },
          y: { field: 'measurement_type', type: 'nominal', title: null },
          color: { field: 'verdict', type: 'nominal', title: '', scale: { domain: ['agrees', 'unit slip', 'wrong dose'], range: ['#0072B2', '#D55E00', '#E69F00'] } },
          shape: { field: 'check', type: 'nominal', title: '' },
          tooltip: [{ field: 'record' }, { field: 'check' }, { field: 'measurement_type' }, { field: 'ratio', type: 'quantitative', format: '.4g' }],
        },
      },
    ],
  } as TopLevelSpec;
}
