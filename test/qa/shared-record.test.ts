import { describe, expect, it } from 'vitest';
import { finding, type Finding } from '../../src/qa/finding.js';
import { sharedRecords } from '../../src/qa/shared-record.js';

const major = (fields: Partial<Finding>): Finding => finding({ kind: 'reported-vs-recomputed', severity: 'major', message: 'm', study_sid: 'S', ...fields });

/** A curve (timecourse 5) ×1000: its reported Cmax (output 10) ×0.00087 of it, and its arm ×904 the only other arm (timecourse 6). */
const cmax = major({ output_pk: 10, subset_pk: 5, measurement_type: 'cmax', ratio: 0.00087, details: { cause_factors: [0.001] } });
const pair = major({ kind: 'within-study', subset_pk: 5, measurement_type: 'concentration', ratio: 904, details: { record: 'timecourse:5', pair_record: 'timecourse:6', cause_factors: [1000] } });

describe('sharedRecords: one slip for several open majors', () => {
  it('names the one record whose slip explains open majors of two kinds: the curve its Cmax and its sibling arm both put apart', () => {
    const settled = sharedRecords([cmax, pair]);
    expect(settled.get(cmax)).toEqual({
      culprit: 'timecourse',
      text: 'the curve is the record to fix: one slip in it (×1150) explains this finding and the open within-study finding on it too, one in any other of their records only one',
      by: ['within-study'],
    });
    expect(settled.get(pair)?.culprit).toBe('timecourse');
  });

  it('reads a major settled already as evidence on the record it blames, where its own comparison names that record', () => {
    // An identity that cannot tell CL (output 12) ×10 from its dose (dosing 7) ×1/10, and the CL's comparison with its
    // curve settled on the value (×10): one slip in the CL explains both.
    const identity = major({ kind: 'pk-identity', output_pk: 12, measurement_type: 'clearance', ratio: 10, details: { candidates: [{ slot: 'dose', output_pk: null, intervention_pk: 7, factor: 0.1 }] } });
    const settledCl = major({ output_pk: 12, subset_pk: 5, measurement_type: 'clearance', ratio: 10, culprit: 'output', details: { cause_factors: [10], dose_pk: 7 } });
    expect(sharedRecords([identity, settledCl]).get(identity)).toEqual({
      culprit: 'output',
      text: 'the reported value is the record to fix: one slip in it (×10) explains this finding and the reported-vs-recomputed finding on it too, one in any other of their records only one',
      by: ['reported-vs-recomputed'],
    });
    // A settled finding that says nothing of the record's level by its own comparison (the other studies' doses) blocks
    // the dose but names nothing: open.
    const doseOff = major({ kind: 'reference-range', intervention_pk: 7, measurement_type: 'dosing', ratio: 0.1, culprit: 'dose', details: { cause_factors: [0.1] } });
    expect(sharedRecords([identity, doseOff]).size).toBe(0);
    expect(sharedRecords([identity, settledCl, doseOff]).size).toBe(0);
  });

  it('reads a value per dose out of the other studies\' range as the value or its dose by the inverse factor', () => {
    // An AUC per dose ×1/10 the other studies' (output 30, dosing 9), and a CL ×0.11 its curve (curve 8 low, or the
    // dose ×9.1 high): the dose alone explains both kinds.
    const aucPerDose = major({ kind: 'reference-range', output_pk: 30, intervention_pk: 9, measurement_type: 'auc_inf', ratio: 0.085, details: { per_dose: true, cause_factors: [0.1] } });
    const cl = major({ output_pk: 31, subset_pk: 8, measurement_type: 'clearance', ratio: 0.11, details: { cause_factors: [0.11], dose_pk: 9 } });
    const settled = sharedRecords([aucPerDose, cl]);
    expect(settled.get(aucPerDose)?.culprit).toBe('dose');
    expect(settled.get(cl)?.culprit).toBe('dose');
    // Not a value per dose (its own level against the others'): no dose to sit in.
    expect(sharedRecords([{ ...aucPerDose, details: { cause_factors: [0.1] } }, cl]).size).toBe(0);
  });

  it('settles nothing where a major settled already blames another of its records by the slip it would see there', () => {
    // A calculated V of curve 7 ×0.33 the plasma volume (physiology: the curve ×3 high or more, or the dose ×1/3 or
    // less) beside an identity that names the dose ×1/10 or the amount ×10: the dose alone explains both kinds…
    const volume = major({ kind: 'physiology', output_pk: 20, subset_pk: 7, measurement_type: 'vd', ratio: 0.33, details: { rule: 'volume-below-plasma', value_record: 'timecourse:7', dose_pk: 9 } });
    const identity = major({ kind: 'pk-identity', output_pk: 21, measurement_type: 'cumulative amount', ratio: 10, details: { candidates: [{ slot: 'dose', output_pk: null, intervention_pk: 9, factor: 0.1 }] } });
    expect(sharedRecords([volume, identity]).get(volume)?.culprit).toBe('dose');
    // …but the curve's own reported values put it ×15 too high (settled on it): the curve explains the volume as well.
    const curveHigh = major({ output_pk: 22, subset_pk: 7, measurement_type: 'auc_inf', ratio: 1 / 15, culprit: 'timecourse' });
    expect(sharedRecords([volume, identity, curveHigh]).has(volume)).toBe(false);
    // Blamed the other way (the curve low), it explains nothing here.
    expect(sharedRecords([volume, identity, { ...curveHigh, ratio: 15 }]).get(volume)?.culprit).toBe('dose');
  });

  it('needs the same slip (within ×2, the same way) and two kinds: a Cmax and an AUC off one curve alike may share the table\'s unit', () => {
    expect(sharedRecords([cmax, { ...pair, ratio: 1 / 904 }]).size).toBe(0);
    expect(sharedRecords([cmax, { ...pair, ratio: 300 }]).size).toBe(0);
    const auc = major({ output_pk: 11, subset_pk: 5, measurement_type: 'auc_inf', ratio: 0.001, details: { cause_factors: [0.001] } });
    expect(sharedRecords([cmax, auc]).size).toBe(0);
  });

  it('reads a CL against its curve inversely and names its dose, and leaves decided findings and records a finding does not point at alone', () => {
    // A dose (dosing 7) ×1/10: the CL ×10 its recomputation (dose ×1/10), and a pair of arms' CL ×10 apart.
    const cl = major({ output_pk: 12, subset_pk: 5, measurement_type: 'clearance', ratio: 10, details: { cause_factors: [10], dose_pk: 7 } });
    const clPair = major({ kind: 'within-study', output_pk: 12, measurement_type: 'clearance', ratio: 9, details: { record: 'output:12', pair_record: 'output:13', cause_factors: [10] } });
    // Both point at output 12 (×10) and the CL also at the curve (×10) and the dose (×0.1): output 12 alone is shared.
    expect(sharedRecords([cl, clPair]).get(cl)?.culprit).toBe('output');
    // The partner of a pair is no record the pair's finding points at: its own finding (here none) would name it.
    const other = major({ output_pk: 13, subset_pk: 8, measurement_type: 'clearance', ratio: 1 / 9, details: { cause_factors: [0.1] } });
    const settled = sharedRecords([clPair, other]);
    expect(settled.get(other)?.culprit).toBe('output');
    expect(settled.has(clPair)).toBe(false);
    expect(sharedRecords([{ ...cmax, culprit: 'output' }, pair]).size).toBe(0);
  });

  it('reads a physiology bound as a slip of at least its size: the curve above what its dose can give and ×953 its sibling arm', () => {
    // Timecourse 5's highest point ×11 the most its dose (dosing 7) can give: the curve ×11 or more high, or the dose ×1/11 or less.
    const excess = major({ kind: 'physiology', subset_pk: 5, intervention_pk: 7, measurement_type: 'concentration', ratio: 11, details: { rule: 'concentration-above-dose-per-plasma', dose_pk: 7, value_record: 'timecourse:5' } });
    const settled = sharedRecords([excess, { ...pair, ratio: 953 }]);
    expect(settled.get(excess)?.culprit).toBe('timecourse');
    expect(settled.get(excess)?.text).toMatch(/one slip in it \(×953\) explains/);
    // A pair only ×5 apart is below the bound's ×11: no shared slip. Nor the other way round.
    expect(sharedRecords([excess, { ...pair, ratio: 5 }]).size).toBe(0);
    expect(sharedRecords([excess, { ...pair, ratio: 1 / 953 }]).size).toBe(0);
    // A calculated volume below the plasma volume (×0.1): its curve ×10 or more high, or its dose ×0.1 or less.
    const volume = major({ kind: 'physiology', output_pk: 30, subset_pk: 5, measurement_type: 'vd', ratio: 0.1, details: { rule: 'volume-below-plasma', source: 'calculated', dose_pk: 7, value_record: 'timecourse:5' } });
    expect(sharedRecords([volume, { ...pair, ratio: 953 }]).get(volume)?.culprit).toBe('timecourse');
    const doseLow = major({ output_pk: 12, subset_pk: 9, measurement_type: 'clearance', ratio: 50, details: { cause_factors: [70], dose_pk: 7 } });
    expect(sharedRecords([volume, doseLow]).get(volume)?.culprit).toBe('dose');
  });

  it('reads a plausibility value that cannot be and a PK identity that cannot tell its odd one out', () => {
    // Chan1997-like: a tmax of 290 h, ×58 its curve's 5 h and after its last sample (48 h), ×60 named.
    const tmax = major({ output_pk: 40, subset_pk: 9, measurement_type: 'tmax', ratio: 58, details: { cause_factors: [60] } });
    const late = major({ kind: 'plausibility', output_pk: 40, measurement_type: 'tmax', ratio: 6.04, details: { rule: 'tmax-after-last-sample', cause_factors: [60, 24] } });
    const both = sharedRecords([tmax, late]);
    expect([both.get(tmax)?.culprit, both.get(late)?.culprit]).toEqual(['output', 'output']);
    // An AUC∞ below its AUClast by ×58 (AUC∞ low by at least that, or AUClast high) and the AUC∞ ×0.0172 its curve: the AUC∞.
    const below = major({ kind: 'plausibility', output_pk: 41, measurement_type: 'auc_inf', ratio: 0.0172, details: { rule: 'auc-inf-below-auc-end', auc_end_output_pk: 42 } });
    const aucInf = major({ output_pk: 41, subset_pk: 9, measurement_type: 'auc_inf', ratio: 0.0172, details: { cause_factors: [1 / 60] } });
    expect(sharedRecords([below, aucInf]).get(below)?.culprit).toBe('output');
    // One of CL, t½, Vz off (the identity names Vz first, t½ ×1/60 among its candidates) and the t½ ×1/60 its curve: the t½.
    const identity = major({ kind: 'pk-identity', output_pk: 43, measurement_type: 'vd', ratio: 26, details: { candidates: [{ slot: 'thalf', output_pk: 44, intervention_pk: null, factor: 1 / 60 }, { slot: 'clearance', output_pk: 45, intervention_pk: null, factor: 1 / 26 }] } });
    const thalf = major({ output_pk: 44, subset_pk: 9, measurement_type: 'thalf', ratio: 0.0167, details: { cause_factors: [1 / 60] } });
    const settled = sharedRecords([identity, thalf]);
    expect(settled.get(thalf)?.culprit).toBe('output');
    // The identity's own output is Vz: it cannot name the t½ (its id would change), and stays open.
    expect(settled.has(identity)).toBe(false);
  });
});
