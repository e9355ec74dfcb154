import { describe, expect, it } from 'vitest';
import type { InterventionRecord, OutputRecord } from '../../src/data/model.js';
import { balancingDose, excretedAmounts, fractionExcreted, isSubstanceSum, largestFractionsExcreted, REASONS } from '../../src/qa/excretion.js';
import { oralDose, reportedOutput } from '../helpers/records.js';

const study = { study_sid: 'S1', study_name: 'Study 1' };
const MASSES: Record<string, number> = { paracetamol: 151.16, 'paracetamol glucuronide': 327.29 };
const molarMass = (s: string | null) => (s === null ? null : (MASSES[s] ?? null));

describe('excretion: the fraction excreted', () => {
  it('divides grams by grams for the dosed substance: 300 mg of a 1 g dose is 0.3', () => {
    expect(fractionExcreted({ value: 300, unit: 'milligram', substance: 'paracetamol' }, { value: 1, unit: 'gram', substance: 'paracetamol' }, molarMass)).toBeCloseTo(0.3, 12);
  });

  it('divides moles by moles for a metabolite: 0.5 g of the glucuronide (327.29 g/mol) of 1 g of paracetamol (151.16 g/mol) is 0.231', () => {
    // (0.5 / 327.29) / (1 / 151.16) = 0.001528 / 0.006616 = 0.2309.
    expect(fractionExcreted({ value: 0.5, unit: 'gram', substance: 'paracetamol glucuronide' }, { value: 1, unit: 'gram', substance: 'paracetamol' }, molarMass)).toBeCloseTo(0.230929, 5);
    // A molar amount of the dosed substance: 2 mmol of 1 g = 2 × 151.16 mg / 1000 mg = 0.302.
    expect(fractionExcreted({ value: 2, unit: 'millimole', substance: 'paracetamol' }, { value: 1, unit: 'gram', substance: 'paracetamol' }, molarMass)).toBeCloseTo(0.30232, 5);
    // Without a molar mass a metabolite cannot be compared.
    expect(fractionExcreted({ value: 1, unit: 'gram', substance: 'paracetamol sulfate' }, { value: 1, unit: 'gram', substance: 'paracetamol' }, molarMass)).toBeNull();
  });

  it('compares a metabolite named after its dose only, and one single dose', () => {
    const dose = { ...oralDose(study), substance: 'paracetamol' };
    expect(balancingDose({ substance: 'paracetamol glucuronide' }, [dose])).toBe(dose);
    expect(balancingDose({ substance: 'creatinine' }, [dose])).toBeNull();
    expect(balancingDose({ substance: 'paracetamol' }, [dose, { ...dose, pk: 2 }])).toBeNull();
    expect(balancingDose({ substance: 'paracetamol' }, [{ ...dose, application: 'multiple dose' }])).toBeNull();
  });
});

describe('excretion: the amounts of a dataset and the largest fraction per dose', () => {
  const dose: InterventionRecord = { ...oralDose(study), pk: 7, substance: 'paracetamol', value: 50, unit: 'gram' };
  const amount = (pk: number, substance: string, mean: number, fields: Partial<OutputRecord> = {}) =>
    reportedOutput(study, { pk, measurement_type: 'cumulative amount', tissue: 'urine', substance, mean, unit: 'gram', intervention_pks: [7], ...fields });
  const ctx = (outputs: OutputRecord[]) => ({
    tables: { outputs } as never,
    dataset: { intervention: (pk: number) => (pk === 7 ? dose : undefined) } as never,
    molarMass,
  });

  it('pairs each amount with its dose: 10 g of the glucuronide of a 50 g paracetamol overdose is 0.0924 of it in moles, 5 g unchanged 0.1', () => {
    // (10 / 327.29) / (50 / 151.16) = 0.030554 / 0.330775 = 0.09237.
    const amounts = excretedAmounts(ctx([amount(1, 'paracetamol glucuronide', 10), amount(2, 'paracetamol', 5), amount(3, 'paracetamol sulfate', 4), amount(4, 'sodium', 3)]));
    expect(amounts.map((a) => a.fraction)).toEqual([expect.closeTo(0.09237, 4), expect.closeTo(0.1, 12), null, null]);
    expect(amounts.map((a) => a.reason)).toEqual([null, null, REASONS.unit, REASONS.endogenous]);
    // The largest: 0.1. A dose slip ×70 upward would have the subject excrete 7 times its true dose unchanged.
    expect(largestFractionsExcreted(amounts)).toEqual(new Map([[7, 0.1]]));
  });

  it('compares a sum of substances (PK-DB\'s apap+apapsul+…) with the one dose of its set, in moles only', () => {
    // 0.0225 mol of paracetamol and its metabolites after 50 g (0.33078 mol at 151.16 g/mol): 0.068.
    const [molar, grams] = excretedAmounts(ctx([amount(1, 'apap+apapsul+apapglu', 0.0225, { unit: 'mole' }), amount(2, 'apap+apapsul+apapglu', 3)]));
    expect(molar.fraction).toBeCloseTo(0.0225 / (50 / 151.16), 9);
    expect(grams.fraction).toBeNull(); // grams of a sum: no one molar mass to count its molecules
    expect(grams.reason).toBe(REASONS.unit);
    expect(isSubstanceSum('apap+apapsul')).toBe(true);
    expect(isSubstanceSum('cod/(mor+m3g)')).toBe(false); // a ratio
    expect(isSubstanceSum('paracetamol')).toBe(false);
    // Beside two dosings a sum belongs to neither.
    expect(balancingDose({ substance: 'apap+apapsul' }, [dose, { ...dose, pk: 8, substance: 'caffeine' }])).toBeNull();
  });

  it('leaves out a plasma value, a calculated or zero amount and an amount without a dose', () => {
    const amounts = excretedAmounts(ctx([amount(1, 'paracetamol', 5, { tissue: 'plasma' }), amount(2, 'paracetamol', 5, { calculated: true }), amount(3, 'paracetamol', 0), amount(4, 'paracetamol', 5, { intervention_pks: [] })]));
    expect(amounts.map((a) => [a.output.pk, a.reason])).toEqual([[4, REASONS.dose]]);
    expect(largestFractionsExcreted(amounts).size).toBe(0);
  });
});
