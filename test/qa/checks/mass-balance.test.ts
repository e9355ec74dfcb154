import { describe, expect, it } from 'vitest';
import { Dataset } from '../../../src/data/dataset.js';
import type { InterventionRecord, OutputRecord } from '../../../src/data/model.js';
import { balancingCauses, massBalanceCheck } from '../../../src/qa/checks/mass-balance.js';
import { REASONS } from '../../../src/qa/excretion.js';
import { slipFactors } from '../../../src/qa/causes.js';
import { prepareContext } from '../../../src/qa/context.js';
import { oralDose, reportedOutput } from '../../helpers/records.js';

const study = { study_sid: 'S1', study_name: 'Study 1' };
const MASSES: Record<string, number> = { paracetamol: 151.16, 'paracetamol glucuronide': 327.29 };

function excreted(substance: string, mean: number, unit = 'gram', fields: Partial<OutputRecord> = {}): OutputRecord {
  return reportedOutput(study, { measurement_type: 'cumulative amount', tissue: 'urine', substance, mean, unit, ...fields });
}

function context(outputs: OutputRecord[], interventions: InterventionRecord[] = [{ ...oralDose(study), substance: 'paracetamol', value: 1 }]) {
  const tables = {
    studies: [], groups: [], individuals: [], interventions, scatters: [], terms: [], outputs, timecourses: [],
    info_nodes: Object.entries(MASSES).map(([name, mass]) => ({ sid: name, name, label: name, ntype: 'substance', dtype: null, deprecated: false, description: null, synonyms: [], mass })),
  };
  return prepareContext(Dataset.fromTables(tables, { kind: 'export', location: 'test' }));
}

describe('mass-balance: the slips named', () => {
  it('names the slips that bring the fraction to at most 1, unit factors first, nearest a typical 0.3 first: 300 → ×1000; 2.7 → ×10', () => {
    expect(balancingCauses(slipFactors('dose'), 300)[0].factor).toBe(1000);
    expect(balancingCauses(slipFactors('dose'), 2.7)[0].factor).toBe(10);
    // 35.6 (mg as g of paracetamol, fe 0.036): ×151.2 (µmol as µg) would land at 0.24, nearer 0.3; the prefix slip comes first.
    const causes = balancingCauses(slipFactors('dose', { molarMass: 151.16 }), 35.6);
    expect(causes.map((c) => c.kind).slice(0, 2)).toEqual(['unit-factor', 'unit-factor']);
    expect(causes[0].factor).toBe(1000);
    expect(causes.some((c) => c.kind === 'molar-mass')).toBe(true);
    expect(balancingCauses(slipFactors('dose'), 300).every((c) => c.factor > 1 && 300 / c.factor <= 1)).toBe(true);
  });
});

describe('mass-balance: the check on a dataset', () => {
  it('flags 300 g of paracetamol in the urine after 1 g as major ×1000, and leaves 0.3 g and 1.2 g (assay error) alone', () => {
    const slipped = excreted('paracetamol', 300);
    const fine = excreted('paracetamol', 0.3);
    const near = excreted('paracetamol', 1.2);
    const ctx = context([slipped, fine, near]);
    const findings = massBalanceCheck.run(ctx);
    // No other study's dose vouches for the 1 g: the amount or its dose.
    expect(findings).toMatchObject([{ kind: 'mass-balance', severity: 'major', output_pk: slipped.pk, culprit: null, ratio: 300, intervention_pk: 1 }]);
    expect(findings[0].suspected_cause).toMatch(/^×1000 .* — in the amount or in its dose/);
    expect(findings[0].message).toMatch(/^paracetamol cumulative amount in urine: 300 gram is 300× the dose \(1 gram\)/);
    expect(ctx.coverage.checksOf('output', fine.pk)).toEqual(['mass-balance']);
  });

  it('names the amount the record to fix when its dose is a typical one of the other studies', () => {
    const slipped = excreted('paracetamol', 300, 'gram', { intervention_pks: [100] });
    const doses = [1, 0.5, 1, 1.5, 0.65, 1].map((g, i) => ({ ...oralDose({ study_sid: `S${i + 1}`, study_name: `Study ${i + 1}` }), pk: 100 + i, substance: 'paracetamol', value: g }));
    const findings = massBalanceCheck.run(context([slipped], doses));
    expect(findings).toMatchObject([{ severity: 'major', output_pk: slipped.pk, culprit: 'output', intervention_pk: 100 }]);
    expect(findings[0].suspected_cause).not.toMatch(/in its dose/);
  });

  it('does not compare what the body makes itself (sodium after a diuretic), nor a per-kg dose', () => {
    const sodium = excreted('sodium', 4);
    const ctx = context([sodium], [{ ...oralDose(study), substance: 'torasemide', value: 0.01 }]);
    expect(massBalanceCheck.run(ctx)).toEqual([]);
    expect(ctx.coverage.reasonsOf('output', sodium.pk).get('mass-balance')).toBe(REASONS.endogenous);
    // Nor a substance not named after the dose (a metabolite of another name cannot be told from the body's own).
    const other = excreted('uric acid', 0.5);
    const ctx4 = context([other], [{ ...oralDose(study), substance: 'torasemide', value: 0.01 }]);
    expect(massBalanceCheck.run(ctx4)).toEqual([]);
    expect(ctx4.coverage.reasonsOf('output', other.pk).get('mass-balance')).toBe(REASONS.dose);
    // Glucose given (75 g) and excreted: the body's own glucose is in the urine too.
    const glucose = excreted('glucose', 120);
    const ctx3 = context([glucose], [{ ...oralDose(study), substance: 'glucose', value: 75 }]);
    expect(massBalanceCheck.run(ctx3)).toEqual([]);
    expect(ctx3.coverage.reasonsOf('output', glucose.pk).get('mass-balance')).toBe(REASONS.endogenous);
    const perKg = excreted('paracetamol', 3);
    const ctx2 = context([perKg], [{ ...oralDose(study), substance: 'paracetamol', value: 0.015, unit: 'gram / kilogram' }]);
    expect(massBalanceCheck.run(ctx2)).toEqual([]);
    expect(ctx2.coverage.reasonsOf('output', perKg.pk).get('mass-balance')).toBe(REASONS.unit);
  });
});
