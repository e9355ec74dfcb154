import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { InterventionRecord } from '../../../src/data/model.js';
import { doseLabelCheck, doseLabelFinding, highLowFindings } from '../../../src/qa/checks/dose-label.js';
import { prepareContext } from '../../../src/qa/context.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
let pk = 1;
function dosing(name: string, value: number, unit: string, substance = 'paracetamol'): InterventionRecord {
  return {
    ...STATS, study_sid: 'S1', study_name: 'Label', pk: pk++, raw_pk: null, normed: true, name, route: 'oral', form: null, application: 'single dose',
    time: '0', time_end: null, time_unit: 'hr', measurement_type: 'dosing', calculation_type: null, choice: null, substance, value, unit,
  };
}

describe('dose-label', () => {
  it('names a value ×10 its label major, with the dose as culprit', () => {
    const d = dosing('paracetamol1000mg_po', 10, 'gram');
    const { finding, examined } = doseLabelFinding(d, null);
    expect(examined).toBe(true);
    expect(finding).toMatchObject({
      kind: 'dose-label', severity: 'major', culprit: 'dose', intervention_pk: d.pk, reported: 10, recomputed: 1,
      details: { label: '1000mg', cause_kinds: ['dose'], cause_factors: [10] },
    });
    expect(finding!.ratio).toBeCloseTo(10, 12);
  });

  it('names a per-kg value ×1000 its label, a molar amount read as a mass, and leaves agreement alone', () => {
    expect(doseLabelFinding(dosing('paracetamol12mg/kg_iv', 0.012, 'count'), null).finding).toMatchObject({ severity: 'major', details: { cause_factors: [1000] } });
    // 5 mmol glucose curated as 5 g: ×5.56 = 1000/180, the molar amount read as a mass one prefix step up
    const molar = doseLabelFinding(dosing('glc5mmol', 5, 'gram', 'glucose'), 180).finding!;
    expect(molar).toMatchObject({ severity: 'major', culprit: 'dose' });
    expect(molar.details?.cause_factors).toEqual([expect.closeTo(1000 / 180, 9)]);
    // 5 mmol curated as 2 g: ×2.2, no slip factor: minor
    expect(doseLabelFinding(dosing('glc5mmol', 2, 'gram', 'glucose'), 180).finding).toMatchObject({ severity: 'minor', culprit: null });
    // 5 mmol curated as 900 g: ×1000
    expect(doseLabelFinding(dosing('glc5mmol', 900, 'gram', 'glucose'), 180).finding).toMatchObject({ severity: 'major', details: { cause_factors: [1000] } });
    expect(doseLabelFinding(dosing('paracetamol1000mg_po', 1.02, 'gram'), null)).toEqual({ finding: null, examined: true });
  });

  it('names the amount per kg curated as the absolute amount: ×1/70 of the label, an adult weight', () => {
    const f = doseLabelFinding(dosing('paracetamol1000mg_po', 1 / 70, 'gram'), null).finding!;
    expect(f).toMatchObject({ severity: 'major', culprit: 'dose', details: { cause_kinds: ['dose'] } });
    expect(f.details?.cause_factors).toEqual([expect.closeTo(1 / 70, 12)]);
    expect(f.suspected_cause).toMatch(/per-kg vs absolute/);
  });

  it('names another amount minor (the salt, another arm), and examines nothing without a comparable amount', () => {
    const f = doseLabelFinding(dosing('phenacetin_900mg_po', 0.6, 'gram'), null).finding!;
    expect(f).toMatchObject({ severity: 'minor', culprit: null, suspected_cause: null });
    expect(f.ratio).toBeCloseTo(2 / 3, 12);
    expect(doseLabelFinding(dosing('MID_po', 0.015, 'gram'), null)).toEqual({ finding: null, examined: false });
    expect(doseLabelFinding(dosing('Dcaf_2mg', 0.000002, 'count'), null)).toEqual({ finding: null, examined: false });
  });

  it('runs over the dosings of the context and marks its coverage', () => {
    const ds = [dosing('apap1000mg', 1000, 'gram'), dosing('apap500mg', 0.5, 'gram'), dosing('D_CAF', 0.1, 'gram', 'caffeine')];
    const tables = { studies: [], groups: [], individuals: [], interventions: ds, scatters: [], terms: [], outputs: [], timecourses: [] };
    const ctx = prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' }));
    const findings = doseLabelCheck.run(ctx);
    expect(findings.map((f) => [f.intervention_pk, f.severity, f.details?.cause_factors])).toEqual([[ds[0].pk, 'major', [1000]]]);
  });
});

describe('dose-label: arms labelled high and low', () => {
  it('finds the dosing labelled high below its sibling labelled low (minor: amounts or labels exchanged)', () => {
    const high = { ...dosing('Caffhigh', 0.25, 'gram', 'caffeine'), measurement_type: 'qualitative dosing' };
    const low = { ...dosing('Cafflow', 0.5, 'gram', 'caffeine'), measurement_type: 'qualitative dosing' };
    expect(highLowFindings([high, low])).toMatchObject([
      { kind: 'dose-label', severity: 'minor', culprit: null, intervention_pk: high.pk, reported: 0.25, recomputed: 0.5, ratio: 0.5 },
    ]);
    // In order, in another unit, of another substance or study: nothing.
    expect(highLowFindings([dosing('MID_im_highDose', 0.015, 'gram', 'midazolam'), dosing('MID_im_lowDose', 0.0075, 'gram', 'midazolam')])).toEqual([]);
    expect(highLowFindings([dosing('D_high', 1, 'gram'), dosing('D_low', 2, 'gram / kilogram')])).toEqual([]);
    expect(highLowFindings([dosing('D_high', 1, 'gram'), { ...dosing('D_low', 2, 'gram'), study_sid: 'S2' }])).toEqual([]);
  });

  it('runs in the check over a study’s dosings and qualitative dosings', () => {
    const high = { ...dosing('ALF_po_highDose', 0.001, 'gram', 'alfentanil'), measurement_type: 'qualitative dosing' };
    const low = dosing('ALF_po_lowDose', 0.002, 'gram', 'alfentanil');
    const tables = { studies: [], groups: [], individuals: [], interventions: [high, low], scatters: [], terms: [], outputs: [], timecourses: [] };
    const findings = doseLabelCheck.run(prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' })));
    expect(findings.map((f) => f.message)).toEqual([
      'dosing ALF_po_highDose (0.001 gram) is labelled high but is below ALF_po_lowDose (0.002 gram), labelled low: their amounts or their labels were exchanged',
    ]);
  });
});
