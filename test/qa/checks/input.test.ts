import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { GroupRecord, InterventionRecord, OutputRecord } from '../../../src/data/model.js';
import { inputCheck, statisticsFindings } from '../../../src/qa/checks/input.js';
import { prepareContext } from '../../../src/qa/context.js';
import { dosing, group, output } from '../../helpers/study-records.js';

function context(outputs: OutputRecord[], interventions: InterventionRecord[] = [dosing(1, 0.1)], groups: GroupRecord[] = []) {
  const tables = { studies: [], groups, individuals: [], interventions, scatters: [], terms: [], outputs, timecourses: [] };
  return prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' }));
}

describe('input: a record’s own statistics', () => {
  it('makes a mean above its own maximum major, naming ×10 where undoing it lands inside a narrow range', () => {
    // Cmax mean 38 mg/L beside a range of 2.1–4.4 mg/L (normed to g/L): 3.8 with ×10 undone
    const slipped = { ...output(1, 1, 'cmax', 'milligram / liter', 38), min: 2.1, max: 4.4 };
    const fine = { ...output(1, 1, 'auc_inf', 'milligram * hour / liter', 20), min: 15, max: 26 };
    const findings = inputCheck.run(context([slipped, fine]));
    expect(findings).toMatchObject([
      { kind: 'input', check: 'input/statistics', severity: 'major', culprit: 'output', output_pk: slipped.pk, subject: 'group:1', measurement_type: 'cmax', details: { cause_factors: [10] } },
    ]);
    expect(findings[0].ratio).toBeCloseTo(38 / 4.4, 9);
    expect(findings[0].message).toMatch(/its mean 38 lies above its own maximum 4\.4 \(×8\.64\)/);
    expect(findings[0].suspected_cause).toMatch(/^×10 .*: the mean with it undone lies within its range$/);
  });

  it('names no factor for a median below an inverted range (min and max of another row), and none for a mean ×1.4 off', () => {
    const inverted = { ...output(1, 1, 'thalf', 'hour', 0), mean: null, median: 11, min: 23.3, max: 22.8 };
    const near = { ...output(1, 1, 'tmax', 'hour', 38), min: 20, max: 28 };
    const findings = statisticsFindings(context([inverted, near]));
    expect(findings.map((f) => [f.output_pk, f.severity, f.details?.cause_factors])).toEqual([
      [inverted.pk, 'major', undefined],
      [near.pk, 'major', undefined],
    ]);
    expect(findings[0].suspected_cause).toBe('min and max swapped, or one of them from another row');
    expect(findings[0].message).toMatch(/its minimum 23\.3 is above its maximum 22\.8; its median 11 lies below its own minimum 23\.3/);
  });

  it("holds a dose's and a subject characteristic's statistics too, a characteristic its individuals inherit once", () => {
    const dose = { ...dosing(1, 0.1), min: 0.2, max: 0.3 };
    const g = group(1);
    const age = { ...g.characteristica[0], pk: 9001, measurement_type: 'age', choice: null, unit: 'year', mean: 38, min: 20, max: 28 };
    const groups = [{ ...g, characteristica: [age] }, { ...group(2), characteristica: [age] }];
    const findings = statisticsFindings(context([], [dose], groups));
    expect(findings).toMatchObject([
      { culprit: 'dose', intervention_pk: dose.pk, measurement_type: 'dosing', check: 'input/statistics' },
      { culprit: 'subject', subject: 'group:1', measurement_type: 'age', reported: 38 },
    ]);
  });

  it('says nothing of records without a range, or whose statistics keep their order', () => {
    expect(statisticsFindings(context([output(1, 1, 'cmax', 'milligram / liter', 2), { ...output(1, 1, 'cmax', 'milligram / liter', 2), min: 1, max: 3 }]))).toEqual([]);
  });
});
