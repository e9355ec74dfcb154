import { describe, expect, it } from 'vitest';
import { fitLine, type TimecoursePlotInput } from '../../src/plots/timecourse.js';
import { Dataset } from '../../src/data/dataset.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import { runQa } from '../../src/qa/run.js';
import { buildReportCharts, chartPlots, findingRange, inDisplayUnit, reportPlots } from '../../src/report/charts.js';

describe('timecourse plots in display units', () => {
  const input: TimecoursePlotInput = {
    title: 't',
    time_unit: 'hr',
    conc_unit: 'gram / liter',
    points: [{ time: 0, conc: 0 }, { time: 1, conc: 0.00001 }, { time: 4, conc: 0.000004 }],
    lambda_z_points: [{ time: 4, conc: 0.000004 }],
    fit: { lambda_z: 0.3, intercept: Math.log(0.000012), start: 1, end: 4 },
    reported_fit: null,
    markers: [{ source: 'recomputed', parameter: 'cmax/tmax', time: 1, conc: 0.00001 }],
  };

  it('scales every concentration and both fits by the same factor (a 10 ng/mL peak: ×10⁶)', () => {
    const shown = inDisplayUnit(input);
    expect(shown.conc_unit).toBe('ng/mL');
    shown.points.forEach((p, i) => expect(p.conc).toBeCloseTo(input.points[i].conc * 1e6, 9));
    expect(shown.markers[0].conc).toBeCloseTo(10, 12);
    const before = fitLine(input.fit!);
    const after = fitLine(shown.fit!);
    after.forEach((p, i) => expect(p.conc).toBeCloseTo(before[i].conc * 1e6, 8));
  });

  it('leaves a plot alone when its unit has no display unit or it has no positive value', () => {
    expect(inDisplayUnit({ ...input, conc_unit: 'IU/l' })).toEqual({ ...input, conc_unit: 'IU/l' });
    const empty = { ...input, points: [{ time: 0, conc: 0 }] };
    expect(inDisplayUnit(empty)).toBe(empty);
  });
});

describe('findingRange', () => {
  it('reads {low, high} with its count from the details or one of their objects', () => {
    expect(findingRange({ reported_unit: 'hour', details: { low: 1, high: 5, n: 4 } })).toEqual({ low: 1, high: 5, n: 4, unit: 'hour', values: [] });
    expect(findingRange({ reported_unit: 'hour', details: { reference: { low: 1, high: 5, studies: 9, unit: 'minute', values: [1, 'x', 3] } } })).toEqual({
      low: 1,
      high: 5,
      n: 9,
      unit: 'minute',
      values: [1, 3],
    });
    expect(findingRange({ reported_unit: 'hour', details: { low: 1 } })).toBeNull();
    expect(findingRange({ reported_unit: 'hour' })).toBeNull();
  });
});

describe('reportPlots', () => {
  it('gives the plots of buildReportCharts, by the same names, in the order they are written', async () => {
    const fixtures = await loadFixtures();
    const result = runQa(Dataset.fromTables(fixtures.tables, fixtures.source));
    const lazy = reportPlots(result);
    const built = chartPlots(buildReportCharts(result));
    expect(lazy.length).toBeGreaterThan(2);
    expect(lazy.map((p) => p.name)).toEqual(built.map((p) => p.name));
    lazy.forEach((p, i) => expect(JSON.stringify(p.spec())).toBe(JSON.stringify(built[i].spec())));
    // The file text, written without building a timecourse's spec, is the spec's JSON.
    lazy.forEach((p, i) => expect(p.json()).toBe(JSON.stringify(built[i].spec())));
  });
});
