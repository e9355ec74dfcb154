import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { InterventionRecord, OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { gridShare, gridShareAscending, leadingMinutes, logVariation, loneMinuteGrid, spanFactor, timeAxisCheck } from '../../../src/qa/checks/time-axis.js';
import { prepareContext } from '../../../src/qa/context.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const study = { study_sid: 'T1', study_name: 'Times' };

describe('time-axis: leading minutes', () => {
  // Patwardhan1980a in the shared export: lorazepam sampled at 5–60 min, then hours, all curated as hours.
  const times = [5, 10, 15, 30, 60, 2, 3, 4, 6, 8, 24];
  const conc = [4.1, 3.8, 3.4, 3.0, 2.7, 2.3, 2.3, 1.9, 1.6, 1.6, 0.8];

  it('finds the run of minutes whose ÷60 makes the axis ascending and the curve smooth', () => {
    expect(leadingMinutes(times, conc)).toBe(5);
    // Σ|Δ ln c| of a monotone decline is ln(4.1/0.8); as curated the curve zigzags far more.
    expect(logVariation([...times.slice(0, 5).map((t) => t / 60), ...times.slice(5)], conc)).toBeCloseTo(Math.log(4.1 / 0.8), 9);
    expect(logVariation(times, conc)).toBeGreaterThan(2 * Math.log(4.1 / 0.8));
  });

  it('leaves unsorted, rotated and out-of-order hour lists alone', () => {
    expect(leadingMinutes([1.5, 2, 3, 4, 6, 8, 12, 16, 0, 0.17, 0.33, 0.5, 0.75, 1], [5, 6, 5, 4, 3, 2, 1, 0.5, 0, 2, 3, 4, 5, 5.5])).toBe(0);
    expect(leadingMinutes([3, 4, 5, 6, 12, 24, 0.5, 1, 1.5, 2], [6, 5, 4.5, 4, 2, 1, 3, 5, 6, 6.2])).toBe(0); // rotation
    // Shull1976: 5–12 h moved ahead of 0.5–4 h and 14–24 h; ÷60 sorts it but the curve would zigzag.
    const shull = [5, 6, 8, 10, 12, 0.5, 1, 1.5, 2, 3, 4, 14, 16, 24];
    const c = [5.6, 4.9, 3.6, 2.5, 2.1, 3.3, 4.3, 6.6, 7.8, 6.5, 6.3, 1.7, 1.5, 0.94];
    expect(leadingMinutes(shull, c)).toBe(0);
    expect(leadingMinutes([0, 6, 8, 0.25, 0.5, 1, 2, 4], [0, 1, 1, 2, 3, 3, 2, 1])).toBe(0); // no minute values up to 10
  });
});

describe('time-axis: sibling grids', () => {
  it('counts the times that coincide within 3 % or a minute', () => {
    expect(gridShare([0.5, 1, 2, 4], [0.5, 1.02, 3, 4.2])).toBe(0.5); // 1.02 is 2 % off, 4.2 is 5 % off
    expect(gridShare([0.01, 1], [0.02, 0.99])).toBe(1); // 0.01 h apart is within a minute
  });
  it('gridShareAscending equals gridShare for an ascending grid, times in order or not', () => {
    const grid = [0.25, 0.5, 1, 1.5, 2, 3, 4, 6, 8, 12, 24];
    const cases = [[0.25, 0.5, 1, 2, 4, 8, 24], [0.26, 0.51, 0.98, 2.1, 3.2, 11.7, 25], [15, 30, 60, 120, 240], [5, 10, 15, 30, 60, 2, 3, 4], [0.01, 0.3, 48]];
    for (const times of cases) expect(gridShareAscending(times, grid)).toBe(gridShare(times, grid));
    // 2.1, 3.2 and 25 are 5 %, 6.7 % and 4 % off 2, 3 and 24 (beyond 3 % and a minute): 4 of 7 hit
    expect(gridShareAscending([0.26, 0.51, 0.98, 2.1, 3.2, 11.7, 25], grid)).toBeCloseTo(4 / 7, 12);
  });

  let pk = 1;
  function tc(subset: number, group: number, times: number[]): { tc: TimecourseRecord; points: OutputRecord[] } {
    const conc = times.map((t) => 10 * Math.exp(-0.1 * t));
    const points = times.map((t, k) => ({
      ...STATS, ...study, pk: pk++, raw_pk: null, normed: true, calculated: false, group_pk: group, individual_pk: null, intervention_pks: [1],
      tissue: 'plasma', method: null, label: null, output_type: 'timecourse', time: t, time_unit: 'hr', measurement_type: 'concentration',
      calculation_type: null, choice: null, substance: 'x', subset_pk: subset, unit: 'mg/l', value: conc[k],
    }) as OutputRecord);
    return {
      points,
      tc: {
        ...study, subset_pk: subset, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: [1], group_pk: group, individual_pk: null,
        normed: true, tissue: 'plasma', tissue_label: null, method: null, method_label: null, label: null, time: times, time_unit: 'hr',
        measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance: 'x', substance_label: null,
        value: conc, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'mg/l',
      },
    };
  }
  const dose: InterventionRecord = {
    ...STATS, ...study, pk: 1, raw_pk: null, normed: true, name: 'd', route: 'iv', form: null, application: 'single dose', time: '0', time_end: null,
    time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: 'x', value: 0.1, unit: 'gram',
  };
  const run = (curves: { tc: TimecourseRecord; points: OutputRecord[] }[]) =>
    timeAxisCheck.run(prepareContext(Dataset.fromTables({
      studies: [], groups: [], individuals: [], interventions: [dose], scatters: [], terms: [],
      outputs: curves.flatMap((c) => c.points), timecourses: curves.map((c) => c.tc),
    }, { kind: 'export', location: 'test' })));
  const grid = [0.25, 0.5, 1, 2, 4, 8, 12, 24];

  it('names the timecourse whose grid ÷60 is its siblings’ as minutes read as hours', () => {
    const findings = run([tc(1, 1, grid), tc(2, 2, grid), tc(3, 3, grid.map((t) => t * 60))]);
    expect(findings).toMatchObject([{ kind: 'time-axis', severity: 'major', subset_pk: 3, ratio: 60, culprit: 'timecourse', suspected_cause: 'minutes as hours (×60)', details: { siblings: [1, 2] } }]);
  });

  it('names neither of two timecourses in mirror image, unless one is sampled from ≥ 5 h to ≥ 2 weeks', () => {
    const short = [0.25, 0.5, 1, 2, 4];
    expect(run([tc(1, 1, short), tc(3, 3, short.map((t) => t * 60))])).toEqual([]);
    // 15 h to 1440 h (60 days) after a single dose, and ÷60 exactly 0.25 … 24 h.
    expect(run([tc(1, 1, grid), tc(3, 3, grid.map((t) => t * 60))])).toMatchObject([{ subset_pk: 3, ratio: 60, details: { siblings: [1] } }]);
  });

  it('names a lone grid in minutes only when it is sampled late and long and exactly a usual grid ×60', () => {
    expect(loneMinuteGrid([30, 60, 120, 240, 480, 720, 1440])).toBe(true);
    expect(loneMinuteGrid([0.5, 1, 2, 4, 8, 12, 24])).toBe(false); // an ordinary grid
    expect(loneMinuteGrid([48.97, 73.1, 96.8, 121, 360, 432])).toBe(false); // Cheng1992: days 2–18 of a real schedule
    expect(run([tc(1, 1, grid.map((t) => t * 60))])).toMatchObject([{ subset_pk: 1, severity: 'major', suspected_cause: 'minutes as hours (×60)' }]);
    expect(run([tc(1, 1, grid.map((t) => t * 60))])[0].check).toBe('time-axis/minute-grid');
  });

  // Kinzler2019 in the shared export: morphine and M6G of one group read off two plots, the same samples digitised apart.
  const morphine = [0.125, 0.376, 0.627, 0.878, 1.338, 1.923, 2.383, 2.885, 3.387, 3.805, 4.39, 4.892, 6, 8, 10, 12, 16, 24, 30, 36, 48];
  const m6g = [0.291, 0.587, 0.84, 1.136, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 6, 8, 10, 12, 16, 24, 30, 36, 48];

  it('names a digitised curve whose end and middle are ×60 a sibling’s, where the grids do not coincide', () => {
    const slipped = morphine.map((t) => t * 60);
    // last 2880 / 48 = 60; middles (index 10) 263.4 / 4.5 = 58.5: within 5 % of 60
    expect(spanFactor(slipped, m6g)).toBe(1);
    expect(spanFactor(m6g, slipped)).toBe(-1);
    expect(spanFactor(morphine, m6g)).toBe(0);
    expect(gridShare(slipped.map((t) => t / 60), m6g)).toBeLessThan(0.8); // the grid rule cannot see it
    const findings = run([tc(1, 1, m6g), tc(2, 1, slipped)]);
    expect(findings).toMatchObject([{ subset_pk: 2, ratio: 60, check: 'time-axis/sibling-span', details: { siblings: [1] } }]);
    // with two siblings to 48 h only the slipped one is named; two curves to 2880 h against one outvote it
    expect(run([tc(1, 1, m6g), tc(2, 1, slipped), tc(3, 2, m6g)]).map((f) => f.subset_pk)).toEqual([2]);
    expect(run([tc(1, 1, m6g), tc(2, 1, slipped), tc(3, 2, morphine.map((t) => t * 60.5))]).map((f) => [f.subset_pk, f.ratio])).toEqual([[1, 1 / 60]]);
  });
});
