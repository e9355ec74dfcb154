import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { InterventionRecord, OutputRecord, TimecourseRecord } from '../../../src/data/model.js';
import { NEIGHBOURS_AGREE, seriesSpikeCheck, seriesSpikes, spikeCause, type SeriesPoint } from '../../../src/qa/checks/series-spike.js';
import { prepareContext } from '../../../src/qa/context.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const study = { study_sid: 'S1', study_name: 'Spikes' };
const points = (times: number[], values: number[]): SeriesPoint[] => times.map((time, i) => ({ time, value: values[i], output: null }));

describe('series-spike: the arithmetic', () => {
  it('sets an interior point against the log-linear line through its agreeing neighbours', () => {
    // 1 h 50, 1.5 h 0.0582 (×1/1000 of 58.2), 2 h 52.9: the line at 1.5 h is √(50 · 52.9) = 51.43; r = 0.0582 / 51.43
    const [spike] = seriesSpikes(points([0.5, 1, 1.5, 2, 3], [21, 50, 0.0582, 52.9, 43]));
    expect(spike.index).toBe(2);
    expect(spike.expected).toBeCloseTo(Math.sqrt(50 * 52.9), 9);
    expect(spike.ratio).toBeCloseTo(0.0582 / Math.sqrt(50 * 52.9), 12);
    expect(spikeCause(spike.ratio, null)?.factor).toBe(1 / 1000);
    // unevenly spaced: at 2 h between 1 h (8) and 5 h (4) the line gives 8 · (4/8)^(1/4) = 6.727
    expect(seriesSpikes(points([1, 2, 5], [8, 4000, 4]))[0].expected).toBeCloseTo(8 * 0.5 ** 0.25, 9);
  });

  it('leaves alone an absorption front, neighbours that disagree, ×10, the first and last points and repeated times', () => {
    expect(seriesSpikes(points([0, 0.5, 1, 2], [0.001, 2, 4, 3]))).toEqual([]); // 0.001 and 4 disagree beyond ×3
    expect(seriesSpikes(points([1, 2, 3], [10, 100, 8]))).toEqual([]); // ×10 is no spike
    expect(seriesSpikes(points([1, 2, 3], [10000, 10, 8]))).toEqual([]); // the first point has one neighbour
    expect(seriesSpikes(points([1, 2, 2, 3], [10, 0.01, 9, 8]))).toEqual([]); // 2 h twice: no line through it
    expect(NEIGHBOURS_AGREE).toBe(3);
  });

  it('names a molar ↔ mass factor only of ×30 and more, and nothing for a spike no factor explains', () => {
    expect(spikeCause(1 / 194.19, 194.19)?.kind).toBe('molar-mass'); // µmol read as µg, caffeine
    expect(spikeCause(1 / 5.15, 194.19)).toBeNull(); // ×5.15 is below SPIKE
    expect(spikeCause(250, null)).toBeNull(); // ×250: ×1000 is ×4 away, ×60 ×4.2: neither within ×3
  });
});

describe('series-spike: the check', () => {
  let pk = 1;
  const dose: InterventionRecord = {
    ...STATS, ...study, pk: 1, raw_pk: null, normed: true, name: 'd', route: 'oral', form: null, application: 'single dose', time: '0', time_end: null,
    time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: 'x', value: 0.1, unit: 'gram',
  };
  const output = (fields: Partial<OutputRecord>): OutputRecord => ({
    ...STATS, ...study, pk: pk++, raw_pk: null, normed: true, calculated: false, group_pk: 1, individual_pk: null, intervention_pks: [1],
    tissue: 'plasma', method: null, label: null, output_type: 'output', time: null, time_unit: null, measurement_type: 'concentration',
    calculation_type: null, choice: null, substance: 'x', subset_pk: null, unit: 'gram / liter', ...fields,
  });
  const run = (outputs: OutputRecord[], timecourses: TimecourseRecord[] = []) =>
    seriesSpikeCheck.run(prepareContext(Dataset.fromTables({ studies: [], groups: [], individuals: [], interventions: [dose], scatters: [], terms: [], outputs, timecourses }, { kind: 'export', location: 'test' })));

  it('names the one reported concentration of a profile curated as single outputs that is ×1/1000 its neighbours', () => {
    const times = [0.5, 1, 1.5, 2, 4];
    const values = [2.1e-5, 5.0e-5, 5.8e-8, 5.3e-5, 3.4e-5];
    const outputs = times.map((t, i) => output({ time: t, time_unit: 'hr', mean: values[i] }));
    const findings = run(outputs);
    expect(findings).toMatchObject([{ kind: 'series-spike', severity: 'major', output_pk: outputs[2].pk, culprit: 'output', details: { cause_factors: [1 / 1000], neighbours: [outputs[1].pk, outputs[3].pk] } }]);
    expect(findings[0].message).toMatch(/^the point at 1\.5 hr is ×0\.00113 the line through its neighbours \(0\.00005 at 1 hr, 0\.000053 at 2 hr/);
    // another group's profile is another series: no spike across subjects
    const other = [0.5, 1, 1.5].map((t) => output({ group_pk: 2, time: t, time_unit: 'hr', mean: 1e-3 }));
    expect(run([...outputs.filter((_, i) => i !== 2), ...other])).toEqual([]);
  });

  it('names a timecourse point by its output record', () => {
    const times = [1, 2, 4, 6, 8];
    const conc = [4e-3, 3e-3, 1.4e-3, 7e-7, 6e-4]; // 6 h: the line through 1.4e-3 (4 h) and 6e-4 (8 h) gives √(8.4e-7)
    const points = times.map((t, i) => output({ output_type: 'timecourse', time: t, time_unit: 'hr', value: conc[i], subset_pk: 9 }));
    const tc = {
      ...study, subset_pk: 9, subset_name: 'tc', output_pk: points.map((p) => p.pk), intervention_pk: [1], group_pk: 1, individual_pk: null,
      normed: true, tissue: 'plasma', tissue_label: null, method: null, method_label: null, label: null, time: times, time_unit: 'hr',
      measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance: 'x', substance_label: null,
      value: conc, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: 'gram / liter',
    } as TimecourseRecord;
    const findings = run(points, [tc]);
    expect(findings).toMatchObject([{ severity: 'major', subset_pk: 9, output_pk: points[3].pk, details: { cause_factors: [1 / 1000] } }]);
    expect(findings[0].recomputed).toBeCloseTo(Math.sqrt(1.4e-3 * 6e-4), 12);
  });
});
