import { describe, expect, it } from 'vitest';
import { CORROBORATION_FACTOR, corroborate, findsOffBy } from '../../src/qa/corroborate.js';
import { EITHER_SIDE } from '../../src/qa/curve-cause.js';
import { finding, type Finding } from '../../src/qa/finding.js';

const major = (fields: Partial<Finding>): Finding => finding({ kind: 'reported-vs-recomputed', severity: 'major', message: 'm', study_sid: 'S', ...fields });
/** A Cmax ×1/10 its own curve (output 10, timecourse 5): the value typed a decade low, or the curve a decade high. */
const cmaxLow = major({ output_pk: 10, subset_pk: 5, measurement_type: 'cmax', ratio: 0.1, suspected_cause: '×1/10 (a decimal point slip)', details: { cause_factors: [0.1] } });
/** The curve ×10.9 its group's other members (group-members names ×10). */
const curveHigh = major({ kind: 'group-members', subset_pk: 5, measurement_type: 'concentration', culprit: 'timecourse', ratio: 10.9, details: { cause_factors: [10] } });
/** The Cmax ×1/12 the other studies' (reference-range names ×1/10). */
const valueLow = major({ kind: 'reference-range', output_pk: 10, measurement_type: 'cmax', culprit: 'output', ratio: 1 / 12, details: { cause_factors: [0.1] } });

describe('findsOffBy: the same slip seen from another comparison', () => {
  it('needs a named factor of the same size (within ×2) and the ratio on the same side', () => {
    expect(findsOffBy(curveHigh, 10)).toBe(true);
    expect(findsOffBy(curveHigh, 10 * CORROBORATION_FACTOR * 0.99)).toBe(true);
    expect(findsOffBy(curveHigh, 10 * CORROBORATION_FACTOR * 1.01)).toBe(false);
    expect(findsOffBy(curveHigh, 0.1)).toBe(false); // the curve is high, not low
    expect(findsOffBy({ ...curveHigh, details: {} }, 10)).toBe(false); // no factor named
    // Without a ratio, the factor's own direction.
    expect(findsOffBy({ ...valueLow, ratio: null }, 0.1)).toBe(true);
    expect(findsOffBy({ ...valueLow, ratio: null }, 10)).toBe(false);
  });
});

describe('corroborate: the record to fix, read across the checks', () => {
  it('blames the curve when another check finds the curve off by the inverse factor', () => {
    const [settled, evidence] = corroborate([cmaxLow, curveHigh]);
    expect(settled.culprit).toBe('timecourse');
    expect(settled.suspected_cause).toBe('×1/10 (a decimal point slip) — the curve (×10 the reported value) is the record to fix: group-members finds it off by the same factor');
    expect(settled.details?.culprit_by).toEqual(['group-members']);
    expect(evidence).toBe(curveHigh);
  });
  it('blames the reported value when another check finds it off by the same factor', () => {
    const [settled] = corroborate([cmaxLow, valueLow, { ...valueLow, kind: 'pk-identity' }]);
    expect(settled.culprit).toBe('output');
    expect(settled.suspected_cause).toMatch(/the reported value \(×0\.1 its curve\) is the record to fix: reference-range and pk-identity find it off/);
  });
  it('stays undecided when both records or neither are found off, or the evidence is no major', () => {
    expect(corroborate([cmaxLow, curveHigh, valueLow])[0]).toBe(cmaxLow);
    expect(corroborate([cmaxLow])[0]).toBe(cmaxLow);
    expect(corroborate([cmaxLow, { ...curveHigh, severity: 'minor' }])[0]).toBe(cmaxLow);
    // Another curve, another output, another factor.
    expect(corroborate([cmaxLow, { ...curveHigh, subset_pk: 6 }])[0]).toBe(cmaxLow);
    expect(corroborate([cmaxLow, { ...valueLow, output_pk: 11 }])[0]).toBe(cmaxLow);
    expect(corroborate([cmaxLow, { ...curveHigh, ratio: 70, details: { cause_factors: [60] } }])[0]).toBe(cmaxLow);
  });
  it('leaves minors, decided findings and other kinds alone', () => {
    const minor = { ...cmaxLow, severity: 'minor' as const };
    expect(corroborate([minor, curveHigh])[0]).toBe(minor);
    const dose = { ...cmaxLow, culprit: 'dose' as const };
    expect(corroborate([dose, curveHigh])[0]).toBe(dose);
    const swap = { ...cmaxLow, kind: 'swap' as const };
    expect(corroborate([swap, curveHigh])[0]).toBe(swap);
  });
  it('settles a finding open between a value and its dose by the one record another major blames by a factor of that size', () => {
    // A Cmax ×33.6 the most its 100 mg dose can give: Cmax ×1000 or dose ×1/1000 (physiology), culprit open.
    const excess = major({ kind: 'physiology', output_pk: 10, intervention_pk: 7, measurement_type: 'cmax', ratio: 33.6, details: { cause_factors: [1000, 1 / 1000] } });
    const doseLow = major({ kind: 'reference-range', intervention_pk: 7, measurement_type: 'dosing', culprit: 'dose', ratio: 0.0011, details: { cause_factors: [1 / 1000] } });
    const [byDose] = corroborate([excess, doseLow]);
    expect(byDose.culprit).toBe('dose');
    expect(byDose.suspected_cause).toBe('the dose is the record to fix: reference-range finds it off by a factor of that size');
    const valueHigh = { ...valueLow, ratio: 900, details: { cause_factors: [1000] } };
    expect(corroborate([excess, valueHigh])[0].culprit).toBe('output');
    // Both blamed, a factor of another size, or a pair of arms (either may hold the slip): open.
    expect(corroborate([excess, doseLow, valueHigh])[0]).toBe(excess);
    expect(corroborate([excess, { ...doseLow, details: { cause_factors: [1 / 70] } }])[0]).toBe(excess);
    const pair = { ...excess, kind: 'within-study' as const, details: { ...excess.details, pair_record: 'timecourse:6' } };
    expect(corroborate([pair, doseLow])[0]).toBe(pair);
  });
  it('reads a dose blamed through a value per dose the other way round: its AUC per dose ×1/14 is the dose ×14', () => {
    // A CL ×0.11 its recomputation (dose/AUC with the dose ×9.1 too high), beside the arm's within-study finding that
    // blames the dose: its curve ×0.069 its siblings' per dose (details.per_dose), in line without the dose.
    const clLow = major({ output_pk: 12, subset_pk: 5, measurement_type: 'clearance', ratio: 0.11, details: { cause_factors: [0.11], dose_pk: 7 } });
    const perDose = major({ kind: 'within-study', subset_pk: 5, intervention_pk: 7, measurement_type: 'concentration', culprit: 'dose', ratio: 0.069, details: { per_dose: true, cause_factors: [0.1] } });
    const [settled] = corroborate([clLow, perDose]);
    expect(settled.culprit).toBe('dose');
    expect(settled.suspected_cause).toBe('the dose (×9.09 the dose the reported value implies) is the record to fix: within-study finds it off by the same factor');
    // The same finding read as the dose's own ratio (a dose ×0.069, too low) explains no CL ×0.11: open.
    expect(corroborate([clLow, { ...perDose, details: { cause_factors: [0.1] } }])[0]).toBe(clLow);
  });

  it('reads a CL or V against its curve inversely, and its dose as a third record it may sit in', () => {
    // A CL ×10 its recomputation (output 12, curve 5, dose 7): the CL typed a decade high, the curve a decade high
    // (CL = dose/AUC recomputed a decade low), or the dose a decade low.
    const clHigh = major({ output_pk: 12, subset_pk: 5, measurement_type: 'clearance', ratio: 10, details: { cause_factors: [10], dose_pk: 7 } });
    const [byCurve] = corroborate([clHigh, curveHigh]);
    expect(byCurve.culprit).toBe('timecourse');
    expect(byCurve.suspected_cause).toBe('the curve (×10 the level the reported value implies) is the record to fix: group-members finds it off by the same factor');
    // The curve low does not explain a CL high.
    expect(corroborate([clHigh, { ...curveHigh, ratio: 0.09, details: { cause_factors: [0.1] } }])[0]).toBe(clHigh);
    const doseLow = major({ kind: 'reference-range', intervention_pk: 7, measurement_type: 'dosing', culprit: 'dose', ratio: 0.09, details: { cause_factors: [0.1] } });
    const [byDose] = corroborate([clHigh, doseLow]);
    expect(byDose.culprit).toBe('dose');
    expect(byDose.suspected_cause).toBe('the dose (×0.1 the dose the reported value implies) is the record to fix: reference-range finds it off by the same factor');
    // Curve and dose both blamed: open. A Cmax's dose is no record of its recomputation.
    expect(corroborate([clHigh, curveHigh, doseLow])[0]).toBe(clHigh);
    const cmax = major({ output_pk: 13, subset_pk: 5, measurement_type: 'cmax', ratio: 0.1, details: { cause_factors: [0.1], dose_pk: 7 } });
    expect(corroborate([cmax, doseLow])[0]).toBe(cmax);
    // A curve's time axis ×60 moves its CL (×60 its recomputation) but not its V (= CL/λz): no witness for the V.
    const timeAxis = major({ kind: 'time-axis', subset_pk: 5, measurement_type: 'concentration', culprit: 'timecourse', ratio: 60, details: { cause_factors: [60] } });
    const v = major({ output_pk: 14, subset_pk: 5, measurement_type: 'vd', ratio: 70, details: { cause_factors: [70] } });
    const cl60 = major({ output_pk: 15, subset_pk: 5, measurement_type: 'clearance', ratio: 60, details: { cause_factors: [60] } });
    expect(corroborate([v, cl60, timeAxis]).map((f) => f.culprit ?? null)).toEqual([null, 'timecourse', 'timecourse']);
  });

  it('settles an AUC above its Cmax × interval and its own comparison on the AUC, the one record both may sit in', () => {
    // AUC0–24 (output 20) ×60 its curve (5) and ×9.9 Cmax (output 21) × 24 h: an AUC in mg·min/L curated as mg·h/L.
    const auc = major({ output_pk: 20, subset_pk: 5, measurement_type: 'auc_end', ratio: 61, details: { cause_factors: [60] } });
    const bound = major({ kind: 'plausibility', output_pk: 20, measurement_type: 'auc_end', ratio: 9.9, details: { rule: 'auc-above-cmax-times-interval', cmax_output_pk: 21 } });
    const [a, b] = corroborate([auc, bound]);
    expect([a.culprit, b.culprit]).toEqual(['output', 'output']);
    expect(b.suspected_cause).toBe('the AUC is the record to fix: it is ×61 its curve and puts the AUC at ×9.9 Cmax × interval; one slip in it explains both, one in the curve or in the other value only one');
    expect(b.details?.culprit_by).toEqual(['reported-vs-recomputed']);
    // The AUC only ×5 its curve does not undo ×9.9: both open. The Cmax ×1/12 its curve: its comparison, not the AUC's finding.
    expect(corroborate([{ ...auc, ratio: 5 }, bound]).map((f) => f.culprit ?? null)).toEqual([null, null]);
    const cmax = major({ output_pk: 21, subset_pk: 5, measurement_type: 'cmax', ratio: 1 / 12, details: { cause_factors: [0.1] } });
    expect(corroborate([cmax, bound]).map((f) => f.culprit ?? null)).toEqual(['output', null]);
    // A Cmax ×1/1939 its curve (the curve ×1000): undone, the AUC would be ×0.005 its Cmax × interval, no fit.
    expect(corroborate([{ ...cmax, ratio: 1 / 1939 }, bound]).map((f) => f.culprit ?? null)).toEqual([null, null]);
    // A comparison settled on its curve by others leaves the AUC's finding open.
    const curveOff = major({ kind: 'group-members', subset_pk: 5, measurement_type: 'concentration', culprit: 'timecourse', ratio: 1 / 60, details: { cause_factors: [1 / 60] } });
    expect(corroborate([auc, bound, curveOff]).map((f) => f.culprit ?? null)).toEqual(['timecourse', null, 'timecourse']);
  });

  it("reads a calculated volume's dose from details.dose_pk, and keeps its intervention (its id) as it was", () => {
    // A calculated V ×0.0135 the plasma volume (a 10 mg/kg dose curated as 10 mg): the curve's level or the dose, per kg ×1/89.
    const volume = major({ kind: 'physiology', output_pk: 11, subset_pk: 5, measurement_type: 'vd', ratio: 0.0135, details: { cause_factors: [1 / 89], dose_pk: 7 } });
    const dosePerKg = major({ kind: 'dose-label', intervention_pk: 7, measurement_type: 'dosing', culprit: 'dose', ratio: 1 / 70, details: { cause_factors: [1 / 70] } });
    const [settled] = corroborate([volume, dosePerKg]);
    expect(settled.culprit).toBe('dose');
    expect(settled.intervention_pk ?? null).toBeNull();
    expect(settled.suspected_cause).toBe('the dose is the record to fix: dose-label finds it off by a factor of that size');
    // Without the dose named, the dose cannot be blamed.
    expect(corroborate([{ ...volume, details: { cause_factors: [1 / 89] } }, dosePerKg])[0].culprit ?? null).toBeNull();
  });

  it("replaces a curve-level cause's open side with the one found", () => {
    const curveCause = { ...cmaxLow, suspected_cause: `the 2 reported values (cmax, auc_inf) are ×0.1 the timecourse's level alike (CL and V inversely): ×1/10${EITHER_SIDE}` };
    const [settled] = corroborate([curveCause, curveHigh]);
    expect(settled.suspected_cause).toBe("the 2 reported values (cmax, auc_inf) are ×0.1 the timecourse's level alike (CL and V inversely): ×1/10 — the curve (×10 the reported value) is the record to fix: group-members finds it off by the same factor");
  });
});

describe('corroborate: a value per dose under a dose its own checks find off', () => {
  // Caffeine Cmax per dose ×1/1000 the other studies' (reference-range blamed the output), dose 810 curated as 162 g
  // under a label of 162 mg (dose-label: ×1000).
  const perDose = major({ kind: 'reference-range', check: 'reference-range/output', output_pk: 20, intervention_pk: 810, measurement_type: 'cmax', culprit: 'output', ratio: 0.00107, suspected_cause: '×1/1000 (milli/micro prefix slip)', details: { cause_factors: [0.001], per_dose: true } });
  const label = major({ kind: 'dose-label', check: 'dose-label/amount', intervention_pk: 810, culprit: 'dose', ratio: 1000, details: { cause_factors: [1000] } });

  it('blames the dose when its label, the other studies\' doses or its siblings find it off by the inverse factor', () => {
    const [settled] = corroborate([perDose, label]);
    expect(settled.culprit).toBe('dose');
    expect(settled.suspected_cause).toMatch(/— the dose is the record to fix: dose-label finds it off by the inverse factor, which explains this value per dose$/);
    expect(corroborate([perDose, { ...label, kind: 'reference-range', check: 'reference-range/dosing' }])[0].culprit).toBe('dose');
    // Within-study names its dose in details.dose_pk (its id keeps no intervention).
    const arm = { ...perDose, kind: 'within-study' as const, check: 'within-study/output', intervention_pk: null, details: { ...perDose.details, dose_pk: 810 } };
    expect(corroborate([arm, label])[0].culprit).toBe('dose');
  });

  it('keeps the value\'s own blame for a value not per dose, another factor, another dose, or a dose blamed only through values', () => {
    const { per_dose: _, ...notPerDose } = perDose.details!;
    expect(corroborate([{ ...perDose, details: notPerDose }, label])[0].culprit).toBe('output');
    expect(corroborate([perDose, { ...label, ratio: 10, details: { cause_factors: [10] } }])[0].culprit).toBe('output');
    expect(corroborate([perDose, { ...label, intervention_pk: 811 }])[0].culprit).toBe('output');
    expect(corroborate([perDose, { ...label, kind: 'physiology', check: 'physiology' }])[0].culprit).toBe('output');
  });
});

describe('corroborate: a concentration above what its dose can give, under a dose its own checks find too small', () => {
  // A paracetamol curve ×4.57 above dose / plasma volume (physiology named the curve: its subject's own Cmax was within
  // reach), under a 1000 mg dose curated as 14.3 mg (dose-label: ×1/70): the dose's ×70 undone puts it at ×0.065.
  const above = major({ kind: 'physiology', subset_pk: 721, intervention_pk: 702, measurement_type: 'concentration', culprit: 'timecourse', ratio: 4.57, details: { rule: 'concentration-above-dose-per-plasma', dose_pk: 702, cause_factors: [151.2, 1 / 151.2] } });
  const label = major({ kind: 'dose-label', check: 'dose-label/amount', intervention_pk: 702, culprit: 'dose', ratio: 0.0143, details: { cause_factors: [1 / 70] } });

  it('blames the dose when the factor its own checks find undone puts the value back within the bound', () => {
    const [settled] = corroborate([above, label]);
    expect(settled.culprit).toBe('dose');
    expect(settled.suspected_cause).toBe('the dose is the record to fix: dose-label finds it off by a factor, which puts this value back within what the dose can give');
  });

  it('keeps its own record for a dose found too large, or too small by less than the excess', () => {
    expect(corroborate([above, { ...label, ratio: 10, details: { cause_factors: [10] } }])[0].culprit).toBe('timecourse');
    expect(corroborate([above, { ...label, ratio: 0.5, details: { cause_factors: [0.5] } }])[0].culprit).toBe('timecourse');
    expect(corroborate([{ ...above, kind: 'reference-range' as const, details: { cause_factors: [10] } }, label])[0].culprit).toBe('timecourse');
  });
});
