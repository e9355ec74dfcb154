import { describe, expect, it } from 'vitest';
import { boundCauses, candidateCauses, HARD_BOUND_BREAK, referenceNamed } from '../../src/qa/identity-causes.js';

describe('candidateCauses: the slips that reconcile the odd one out', () => {
  it('names from a bound only a prefix slip of an amount, and only when one fits', () => {
    const node = (slot: 'thalf' | 'cmax') => ({ index: 0, slot, value: 1, kgPower: 0 as const, anchored: false });
    // t½ ×60 makes AUC∞/Cmax ≈ t½/ln 2 off by ~60: the interval [4, 1700] holds ×60, ×24 and ×1000 alike.
    expect(candidateCauses({ node: node('thalf'), factor: null, interval: [4, 1700] }, null, null)).toEqual([]);
    expect(candidateCauses({ node: node('cmax'), factor: null, interval: [5e-5, 0.02] }, null, null).map((c) => c.factor)).toEqual([1e-3]);
    expect(candidateCauses({ node: node('cmax'), factor: null, interval: [4, 1700] }, null, null).map((c) => c.factor)).toEqual([1000]);
    expect(candidateCauses({ node: node('cmax'), factor: null, interval: [4, 2e6] }, null, null)).toEqual([]);
    // With a factor: ×1/(1000/60) is mL/min vs L/h for a clearance, and must lie in the interval.
    const cl = { index: 0, slot: 'clearance' as const, value: 1, kgPower: 0 as const, anchored: false };
    expect(candidateCauses({ node: cl, factor: 1 / 16.2, interval: [1 / 24, 1 / 11] }, null, null)[0].text).toMatch(/^×1\/1000\/60 \(mL\/min vs L\/h\)/);
    expect(candidateCauses({ node: cl, factor: 1 / 16.2, interval: [1 / 12, 1 / 11] }, null, null)).toEqual([]);
    // No curated weight: a clearance ×1/95 is per-kg by an adult weight (40–120 kg; ×60 is 1.58 off, beyond ×1.25);
    // with a curated weight of 70 kg it is not (×1.36 off, beyond ×1.25).
    expect(candidateCauses({ node: cl, factor: 1 / 95, interval: [1 / 110, 1 / 80] }, null, null)).toMatchObject([{ kind: 'per-kg', factor: 1 / 95 }]);
    expect(candidateCauses({ node: cl, factor: 1 / 95, interval: [1 / 110, 1 / 80] }, 70, null)).toEqual([]);
    expect(candidateCauses({ node: cl, factor: 1 / 35, interval: [1 / 40, 1 / 30] }, null, null)).toEqual([]); // a child, or no slip
    expect(candidateCauses({ node: { ...cl, slot: 'thalf' }, factor: 1 / 95, interval: [1 / 110, 1 / 80] }, null, null)).toEqual([]);
    // An AUC∞ ×2.38 by CL = dose/AUC∞ (simvastatin, M = 418.6: µmol/L ↔ mg/L is ×2.389, 0.4 % off): molar ↔ mass;
    // ×2.2 (8 % off) is not
    const auc = { ...cl, slot: 'auc_inf' as const };
    expect(candidateCauses({ node: auc, factor: 2.38, interval: [2.38 / 1.5, 2.38 * 1.5] }, null, 418.6)).toMatchObject([{ kind: 'molar-mass' }]);
    expect(candidateCauses({ node: auc, factor: 2.2, interval: [2.2 / 1.5, 2.2 * 1.5] }, null, 418.6)).toEqual([]);
  });
});

describe('boundCauses: the slips that undo a hard bound broken far', () => {
  const clr = { index: 0, slot: 'clearance_renal' as const, value: 180, kgPower: 0 as const, anchored: false };

  it('lists every clearance slip from the break up to ×1000 beyond it, nearest first, for CLr ≤ CL broken ×12 and more', () => {
    // CLr 180 L/h against CL 10 L/h, band ×1.5: divided by 12 or more it holds.
    const causes = boundCauses({ node: clr, factor: null, interval: [12, Infinity] }, ['identity/clr-cl'], null, null);
    const factors = causes.map((c) => c.factor);
    expect(factors[0]).toBeCloseTo(1000 / 60, 6); // mL/min read as L/h
    expect(factors).toEqual(expect.arrayContaining([24, 60, 1000]));
    expect(factors.every((f) => f >= 12 && f <= 12_000)).toBe(true);
    expect([...factors].sort((a, b) => a - b)).toEqual(factors);
    // A curated weight names per-kg by it.
    expect(boundCauses({ node: clr, factor: null, interval: [12, Infinity] }, ['identity/clr-cl'], 80, null).some((c) => c.kind === 'per-kg' && c.factor === 80)).toBe(true);
  });

  it('lists nothing for a break under ×10, a point estimate, another identity or a value that is no clearance', () => {
    expect(HARD_BOUND_BREAK).toBe(10);
    expect(boundCauses({ node: clr, factor: null, interval: [9, Infinity] }, ['identity/clr-cl'], null, null)).toEqual([]);
    expect(boundCauses({ node: clr, factor: 16, interval: [12, Infinity] }, ['identity/clr-cl'], null, null)).toEqual([]);
    expect(boundCauses({ node: clr, factor: null, interval: [12, Infinity] }, ['identity/mrt-thalf'], null, null)).toEqual([]);
    expect(boundCauses({ node: clr, factor: null, interval: [12, Infinity] }, ['identity/clr-cl', 'identity/mrt-thalf'], null, null)).toEqual([]);
    expect(boundCauses({ node: { ...clr, slot: 'thalf' }, factor: null, interval: [12, Infinity] }, ['identity/clr-cl'], null, null)).toEqual([]);
  });

  it('lists the inverse slips for a value far below its bound', () => {
    const causes = boundCauses({ node: clr, factor: null, interval: [0, 1 / 12] }, ['identity/clr-cl'], null, null);
    expect(causes.map((c) => c.factor)).toEqual(expect.arrayContaining([1 / 60, 1 / 1000]));
    expect(causes.every((c) => c.factor <= 1 / 12 && c.factor >= 1 / 12_000)).toBe(true);
  });
});

describe('referenceNamed: which value the other studies name', () => {
  // An AUC∞ and the dose of one key, either ×10 off (CL = dose / AUC∞ cannot tell): the other studies put the AUC∞ per
  // dose at z −10, back near 0 with ×10 undone.
  const auc = { c: { node: { index: 0, slot: 'auc_inf' as const, value: 1, kgPower: 0 as const, anchored: false, parameter: { output: { pk: 7 } } }, factor: 0.1, interval: [0.05, 0.2] as const }, causes: [{ kind: 'unit-factor' as const, factor: 0.1, text: '×1/10' }] };
  const dose = { c: { node: { index: 1, slot: 'dose' as const, value: 1, kgPower: 0 as const, anchored: false, dosing: { pk: 9 } }, factor: 10, interval: [5, 20] as const }, causes: [{ kind: 'unit-factor' as const, factor: 10, text: '×10' }] };
  const backs = (record: string) => (record === 'output:7' ? '8 other studies put it at robust z -10' : null);

  it('names a Cmax or AUC per dose only where the other studies\' doses vouch for the dose', () => {
    const ranked = [auc, dose] as unknown as Parameters<typeof referenceNamed>[0];
    expect(referenceNamed(ranked, backs, () => false)).toBeNull();
    expect(referenceNamed(ranked, backs, (pk, factor) => pk === 9 && factor === 0.1)?.words).toMatch(/robust z -10/);
    // Without the dose among the candidates, as before.
    expect(referenceNamed([auc] as unknown as Parameters<typeof referenceNamed>[0], backs, () => false)?.c).toBe(auc.c);
  });
});
