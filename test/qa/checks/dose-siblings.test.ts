import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { InterventionRecord, OutputRecord } from '../../../src/data/model.js';
import { slipFactors } from '../../../src/qa/causes.js';
import { doseSiblingsCheck, exposureScales, oddDoses } from '../../../src/qa/checks/dose-siblings.js';
import { prepareContext } from '../../../src/qa/context.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const study = { study_sid: 'D1', study_name: 'Doses' };
const factors = slipFactors('dose', { molarMass: null }).filter((c) => c.kind !== 'per-kg').map((c) => c.factor);

describe('dose-siblings: the arithmetic', () => {
  it('finds the dosing ×10 two siblings that agree (0.75 g, 0.75 g, 7.5 g), not a ladder nor an unexplained one', () => {
    expect(oddDoses([0.75, 0.75, 7.5], factors)).toEqual([{ index: 2, ratio: 10, factor: 10 }]);
    expect(oddDoses([0.0003, 0.3, 0.3, 0.3], factors)[0]).toMatchObject({ index: 0, factor: 0.001 });
    // a ladder 1, 10, 100: no two siblings agree around one rung
    expect(oddDoses([1, 10, 100], factors)).toEqual([]);
    // ×4 (5 mg beside two 20 mg arms) is no slip factor; two dosings are no majority
    expect(oddDoses([0.005, 0.02, 0.02], factors)).toEqual([]);
    expect(oddDoses([0.1, 1], factors)).toEqual([]);
  });

  it('lets exposure that scales with the dose (within ×3 of the dose ratio) clear it', () => {
    // Cmax 9 mg/L at the ×10 dose against 1 mg/L: ×9, within ×3 of ×10
    expect(exposureScales([9], [1, 1.1], 10)).toBe(true);
    // Cmax 1.2 against 1: the exposure did not follow the dose, the dose is the slip
    expect(exposureScales([1.2], [1, 1.1], 10)).toBe(false);
    expect(exposureScales([], [1], 10)).toBe(false);
  });
});

function dose(pk: number, value: number): InterventionRecord {
  return {
    ...STATS, ...study, pk, raw_pk: null, normed: true, name: `cip${pk}`, route: 'oral', form: null, application: 'single dose', time: '0', time_end: null,
    time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance: 'ciprofloxacin', value, unit: 'gram',
  };
}
let nextPk = 100;
function cmax(interventionPk: number, mean: number): OutputRecord {
  return {
    ...STATS, ...study, pk: nextPk++, raw_pk: null, normed: true, calculated: false, group_pk: interventionPk, individual_pk: null, intervention_pks: [interventionPk],
    tissue: 'plasma', method: null, label: null, output_type: 'output', time: null, time_unit: null, measurement_type: 'cmax',
    calculation_type: null, choice: null, substance: 'ciprofloxacin', subset_pk: null, unit: 'milligram / liter', mean,
  };
}
function run(outputs: OutputRecord[]) {
  const tables = { studies: [], groups: [], individuals: [], interventions: [dose(1, 0.75), dose(2, 0.75), dose(3, 7.5)], scatters: [], terms: [], outputs, timecourses: [] };
  return doseSiblingsCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
}

describe('dose-siblings: the check', () => {
  it('names the 7.5 g dosing beside two of 0.75 g (major, culprit the dose) unless its Cmax scaled with it', () => {
    expect(run([])).toMatchObject([{ kind: 'dose-siblings', severity: 'major', culprit: 'dose', intervention_pk: 3, ratio: 10 }]);
    expect(run([cmax(1, 2), cmax(2, 2.2), cmax(3, 2.1)])).toHaveLength(1);
    expect(run([cmax(1, 2), cmax(2, 2.2), cmax(3, 19)])).toEqual([]);
  });
});

describe('dose-siblings: per kg', () => {
  it('finds 7.14 mg beside two 500 mg dosings (×1/70: 500 mg/70 kg, the amount per kg curated as absolute)', () => {
    const odd = oddDoses([0.5, 0.5, 0.5 / 70], factors);
    expect(odd).toHaveLength(1);
    expect(odd[0].index).toBe(2);
    expect(odd[0].factor).toBeCloseTo(1 / 70, 12);
    // ×1/20 is neither a slip factor nor an adult weight
    expect(oddDoses([0.5, 0.5, 0.025], factors)).toEqual([]);
  });
});
