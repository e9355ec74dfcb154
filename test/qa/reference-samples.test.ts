import { describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import type { TimecourseRecord } from '../../src/data/model.js';
import { prepareContext } from '../../src/qa/context.js';
import { beyondLivingLimits, isBodyAnalyte } from '../../src/qa/human-limits.js';
import { rangeSamples, REASONS, sampleLabel, type Unplaced } from '../../src/qa/reference-samples.js';
import { NO_STATS, oralDose, reportedOutput } from '../helpers/records.js';

const study = { study_sid: 'S1', study_name: 'Study 1' };

function curve(fields: Partial<TimecourseRecord>): TimecourseRecord {
  return {
    ...NO_STATS, ...study, subset_pk: 7, subset_name: 'c', output_pk: [], intervention_pk: [1], group_pk: 1, individual_pk: null, normed: true,
    tissue: 'plasma', tissue_label: null, method: null, method_label: null, label: null, time: [0, 0.5, 1, 2], time_unit: 'hr',
    measurement_type: 'concentration', measurement_type_label: null, choice: null, choice_label: null, substance: 'glucose', substance_label: null,
    unit: 'milligram / deciliter', ...fields,
  };
}

function samplesOf(timecourses: TimecourseRecord[], outputs = [reportedOutput(study, { substance: 'glucose', measurement_type: 'concentration', mean: 90, unit: 'milligram / deciliter' })]) {
  // An OGTT: 75 g of glucose by mouth.
  const ogtt = { ...oralDose(study), substance: 'glucose', value: 75 };
  const tables = { studies: [], groups: [], individuals: [], interventions: [ogtt], scatters: [], terms: [], outputs, timecourses, info_nodes: [] };
  const unplaced: Unplaced[] = [];
  const samples = rangeSamples(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })), (u) => unplaced.push(u));
  return { samples, unplaced };
}

describe('reference-samples: the body’s own analytes', () => {
  it('isBodyAnalyte: glucose, bilirubin in plasma, serum or blood; not a drug, not urine', () => {
    expect(isBodyAnalyte('glucose', 'plasma')).toBe(true);
    expect(isBodyAnalyte('bilirubin', 'serum')).toBe(true);
    expect(isBodyAnalyte('glucose', 'urine')).toBe(false);
    expect(isBodyAnalyte('caffeine', 'plasma')).toBe(false);
    expect(isBodyAnalyte(null, 'plasma')).toBe(false);
  });

  it('places a glucose curve after a dose of glucose by its median level (g/L), not its peak per gram of the load', () => {
    // 90, 160, 140, 100 mg/dL: median of the positive points (the upper middle one) 140 mg/dL = 1.4 g/L
    const { samples } = samplesOf([curve({ mean: [90, 160, 140, 100] })]);
    const tc = samples.find((s) => s.record === 'timecourse')!;
    expect(tc.quantity).toBe('level');
    expect(tc.value).toBeCloseTo(1.4, 12);
    expect(tc.unit).toBe('gram / liter');
    expect(tc.dose).toBeNull();
    // A reported glucose concentration too: 90 mg/dL = 0.9 g/L as a level.
    const output = samples.find((s) => s.record === 'output')!;
    expect([output.quantity, output.value]).toEqual(['level', 0.9]);
  });

  it('leaves a level beyond what any living human has to the human-range check: neither judged nor pooled', () => {
    // Glucose limits 1–150 mmol/L (0.18–27 g/L with 180.16 g/mol): 5 mg/dL (mmol/L read as mg/dL) is below.
    expect(beyondLivingLimits('glucose', 'plasma', 0.05, 'gram / liter', 180.16)).toBe(true);
    expect(beyondLivingLimits('glucose', 'plasma', 0.9, 'gram / liter', 180.16)).toBe(false);
    expect(beyondLivingLimits('glucose', 'plasma', 0.05, 'gram / liter', null)).toBe(false); // no molar mass: no limit in g/L
    expect(beyondLivingLimits('caffeine', 'plasma', 1e6, 'gram / liter', 194.19)).toBe(false);
    const { samples, unplaced } = samplesOf([curve({ mean: [5, 9, 8, 6] })], []);
    expect(samples.filter((s) => s.record === 'timecourse')).toEqual([]);
    expect(unplaced).toContainEqual({ record: 'timecourse', pk: 7, reason: REASONS.living });
  });
});

describe('reference-samples: a salt dosed as its base', () => {
  it('divides by the base a salt dose holds and pools it with the base; a dose of the salt as its base', () => {
    // 30 mg of codeine phosphate (0.753 codeine: 22.6 mg) and a codeine Cmax of 0.1 mg/L: 0.1 / 0.0226 = 4.43 mg/L per g
    const dose = { ...oralDose(study), substance: 'codeine phosphate', value: 0.03 };
    const cmax = reportedOutput(study, { substance: 'codeine', measurement_type: 'cmax', mean: 0.1, unit: 'milligram / liter' });
    const tables = { studies: [], groups: [], individuals: [], interventions: [dose], scatters: [], terms: [], outputs: [cmax], timecourses: [], info_nodes: [] };
    const samples = rangeSamples(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })), () => {});
    const fraction = 299.36 / (299.36 + 97.99);
    const perDose = samples.find((s) => s.record === 'output')!;
    expect(perDose.value).toBeCloseTo(0.0001 / (0.03 * fraction), 3);
    expect(perDose.stratum.split('\u0001')[5]).toBe('codeine');
    expect(sampleLabel(perDose)).toMatch(/^codeine cmax per dose of codeine phosphate \(as codeine\) \(plasma/);
    const doseSample = samples.find((s) => s.record === 'dosing')!;
    expect(doseSample.value).toBeCloseTo(0.03 * fraction, 4);
    expect(doseSample.stratum.split('\u0001')[1]).toBe('codeine');
    expect(sampleLabel(doseSample)).toBe('codeine phosphate dose (as codeine; oral, single dose)');
  });
});

describe('reference-samples: several doses of the substance', () => {
  function placed(second: Partial<ReturnType<typeof oralDose>>, type: string, unit: string) {
    // A loading dose of 100 mg and a maintenance dose of 50 mg, one arm.
    const loading = { ...oralDose(study), substance: 'theophylline' };
    const maintenance = { ...oralDose(study), pk: 2, substance: 'theophylline', value: 0.05, application: 'multiple dose', ...second };
    const output = reportedOutput(study, { substance: 'theophylline', measurement_type: type, mean: 3, unit, intervention_pks: [1, 2] });
    const tables = { studies: [], groups: [], individuals: [], interventions: [loading, maintenance], scatters: [], terms: [], outputs: [output], timecourses: [], info_nodes: [] };
    const unplaced: Unplaced[] = [];
    const samples = rangeSamples(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })), (u) => unplaced.push(u));
    return { sample: samples.find((s) => s.record === 'output'), unplaced };
  }

  it('pools a clearance of a loading and maintenance regimen by one route as it is, under that route', () => {
    const { sample } = placed({}, 'clearance', 'liter / hour');
    expect(sample?.value).toBe(3);
    expect(sample?.route).toBe('oral');
    expect(sample?.dose).toBeNull();
  });

  it('leaves it unplaced when the doses differ in route (CL or CL/F?), and always a per-dose value (which dose?)', () => {
    expect(placed({ route: 'iv' }, 'clearance', 'liter / hour').unplaced).toContainEqual({ record: 'output', pk: expect.any(Number), reason: REASONS.dose });
    expect(placed({}, 'cmax', 'milligram / liter').unplaced).toContainEqual({ record: 'output', pk: expect.any(Number), reason: REASONS.dose });
  });
});

describe('reference-samples: amounts excreted and the absorption', () => {
  function sampleOf(fields: Parameters<typeof reportedOutput>[1]) {
    const dose = { ...oralDose(study), substance: 'x', form: 'tablet' };
    const output = reportedOutput(study, { substance: 'x', ...fields });
    const tables = { studies: [], groups: [], individuals: [], interventions: [dose], scatters: [], terms: [], outputs: [output], timecourses: [], info_nodes: [] };
    return rangeSamples(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })), () => {}).find((s) => s.record === 'output');
  }

  it('an amount excreted in 0–24 h per gram of dose (a fraction of it), binned by the interval end', () => {
    // 20 mg in urine over 24 h after 100 mg: 0.02 g / 0.1 g = 0.2 per gram of dose; 24 h lies in the 2^5 h bin (log2 24 = 4.58).
    const s = sampleOf({ measurement_type: 'amount', tissue: 'urine', mean: 0.02, unit: 'gram', time: 24, time_unit: 'hr' });
    expect(s?.value).toBeCloseTo(0.2, 12);
    expect(s?.unit).toBe('gram / gram');
    expect(s?.extra).toBe('0-2^5h');
  });

  it('an absorption half-life and rate pooled as they are, by dosage form (as tmax)', () => {
    const half = sampleOf({ measurement_type: 'thalf_absorption', mean: 0.5, unit: 'hour' });
    expect([half?.value, half?.unit, half?.extra, half?.family]).toEqual([0.5, 'hour', 'tablet', 'thalf']);
    const rate = sampleOf({ measurement_type: 'kabs', mean: 1.4, unit: '1 / hour' });
    expect([rate?.extra, rate?.family]).toEqual(['tablet', 'kel']);
  });
});
