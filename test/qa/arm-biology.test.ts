import { describe, expect, it } from 'vitest';
import { identityExplains, intravascularRoute, lateAbsorber, lessThanAnyPhenotype, poorMetaboliser, POOR_METABOLISER_MAX } from '../../src/qa/arm-biology.js';

type Dev = Parameters<typeof identityExplains>[0];

describe('identityExplains', () => {
  const dev = (record: string, measure: string, ratio: number) =>
    ({ item: { record, measure, source: 'reported', type: measure, rawLog: null }, d: Math.log(ratio), s: 0.3 }) as unknown as Dev;

  it('explains a V by the same arm’s CL and kel (V = CL/kel), or CL·t½; not when they are in line', () => {
    // V ×0.129 beside CL ×0.536 and kel ×3.02: CL/kel ×0.177, within ×2 of 0.129
    const v = dev('output:1', 'vd', 0.129);
    expect(identityExplains(v, [v, dev('output:2', 'clearance', 0.536), dev('output:3', 'kel', 3.02)])).toBe(
      'reported clearance ×0.536 and reported kel ×3.02 of the same arm give ×0.177',
    );
    expect(identityExplains(v, [v, dev('output:2', 'clearance', 0.536), dev('output:4', 'thalf', 0.33)])).toMatch(/give ×0\.177$/);
    expect(identityExplains(v, [v, dev('output:2', 'clearance', 0.95), dev('output:3', 'kel', 1.1)])).toBeNull(); // CL/kel ×0.86: a slip of V alone
    expect(identityExplains(v, [v, dev('output:2', 'clearance', 0.536)])).toBeNull(); // one side of the identity missing
    // AUC per dose ×0.1 beside CL ×9: dose/CL ×0.111
    const auc = dev('output:5', 'auc_inf', 0.1);
    expect(identityExplains(auc, [auc, dev('output:6', 'clearance', 9)])).toMatch(/give ×0\.111$/);
  });

});

describe('poorMetaboliser', () => {
  const dev = (record: string, measure: string, ratio: number, kind = 'individual') =>
    ({ item: { record, measure, source: 'reported', type: measure, kind, rawLog: 0 }, d: Math.log(ratio), s: 0.3 }) as unknown as Dev;
  const metabolite = () => true;

  it("takes an individual's metabolite AUC ×1/58 below its fellows', with nothing else of it in line, for a poor metaboliser", () => {
    expect(poorMetaboliser(dev('output:1', 'auc_end', 1 / 58), [], metabolite)).toBe(true);
    expect(poorMetaboliser(dev('output:1', 'curve', 1 / 22), [dev('output:2', 'thalf', 1.4)], metabolite)).toBe(true);
  });

  it('not above its fellows, beyond ×1/150, for a group, for the drug given, or with its Cmax in line', () => {
    expect(poorMetaboliser(dev('output:1', 'auc_end', 58), [], metabolite)).toBe(false);
    expect(poorMetaboliser(dev('output:1', 'auc_end', 1 / (POOR_METABOLISER_MAX * 1.1)), [], metabolite)).toBe(false);
    expect(poorMetaboliser(dev('output:1', 'auc_end', 1 / 58, 'group'), [], metabolite)).toBe(false);
    expect(poorMetaboliser(dev('output:1', 'auc_end', 1 / 58), [], () => false)).toBe(false);
    expect(poorMetaboliser(dev('output:1', 'auc_end', 1 / 58), [dev('output:2', 'cmax', 0.9)], metabolite)).toBe(false);
    expect(poorMetaboliser(dev('output:1', 'clearance', 1 / 58), [], metabolite)).toBe(false); // no exposure
  });
});

describe('lateAbsorber', () => {
  const level = (ratio: number, measure = 'other', type = 'concentration') =>
    ({ item: { record: 'output:1', measure, source: 'reported', type, kind: 'individual', rawLog: null }, d: Math.log(ratio), s: 0.3 }) as unknown as Dev;

  it('takes a single concentration below its fellows within 2 h of an oral dose for a late absorber', () => {
    expect(lateAbsorber(level(1 / 390), () => 1)).toBe(true);
    expect(lateAbsorber(level(1 / 390), () => 2)).toBe(true);
  });

  it('not later, not after an IV dose (no hours), not above its fellows, not another type', () => {
    expect(lateAbsorber(level(1 / 390), () => 6)).toBe(false);
    expect(lateAbsorber(level(1 / 390), () => null)).toBe(false);
    expect(lateAbsorber(level(390), () => 1)).toBe(false);
    expect(lateAbsorber(level(1 / 390, 'other', 'heart rate'), () => 1)).toBe(false);
    expect(lateAbsorber(level(1 / 390, 'cmax', 'cmax'), () => 1)).toBe(false);
  });
});

describe('lessThanAnyPhenotype', () => {
  const dev = (ratio: number, { measure = 'clearance', kind = 'group', arms = 3, s = 0.3, minFactor = 1, doseRatio = null as number | null } = {}) =>
    ({ item: { record: 'output:1', measure, source: 'reported', type: measure, kind, rawLog: null }, d: Math.log(ratio), s, arms, minFactor, doseRatio }) as unknown as Dev;

  it("takes a group's clearance ×24 (direction −1: less exposure) off three siblings of its strict pool for a slip", () => {
    expect(lessThanAnyPhenotype(dev(24), 24, -1, false)).toBe(true);
    // a Cmax ×1/12 (direction −1 too) named ×1/10: |ln 1/12| = 2.48 ≥ ln 8 and ≥ 5 × 0.3
    expect(lessThanAnyPhenotype(dev(1 / 12, { measure: 'cmax' }), 1 / 10, -1, false)).toBe(true);
  });

  it('not towards more exposure, below ×8 or ×10, within 5 spreads, among two siblings, in a wider pool, at another dose, for no PK parameter', () => {
    expect(lessThanAnyPhenotype(dev(1 / 24), 1 / 24, 1, false)).toBe(false); // a lower CL: more exposure
    expect(lessThanAnyPhenotype(dev(7), 10, -1, false)).toBe(false); // ×7 from the centre (< ×8)
    expect(lessThanAnyPhenotype(dev(9), 1000 / 60 / 2, -1, false)).toBe(false); // a factor below ×10
    expect(lessThanAnyPhenotype(dev(24, { s: 0.7 }), 24, -1, false)).toBe(false); // ln 24 = 3.18 < 5 × 0.7
    expect(lessThanAnyPhenotype(dev(24, { arms: 2 }), 24, -1, false)).toBe(false);
    expect(lessThanAnyPhenotype(dev(24, { minFactor: 30 }), 24, -1, false)).toBe(false); // a pool without the co-interventions
    expect(lessThanAnyPhenotype(dev(24, { doseRatio: 3 }), 24, -1, false)).toBe(false);
    expect(lessThanAnyPhenotype(dev(24, { measure: 'other' }), 24, -1, false)).toBe(false);
  });

  it("one individual's exposure only after an intravascular dose: an oral one may not have been absorbed", () => {
    expect(lessThanAnyPhenotype(dev(24, { kind: 'individual' }), 24, -1, false)).toBe(false);
    expect(lessThanAnyPhenotype(dev(24, { kind: 'individual' }), 24, -1, true)).toBe(true);
    // Its reported elimination, which an unabsorbed dose leaves alone: a kel ×24 (direction −1) after an oral dose.
    expect(lessThanAnyPhenotype(dev(24, { kind: 'individual', measure: 'kel' }), 24, -1, false)).toBe(true);
    expect(lessThanAnyPhenotype(dev(1 / 24, { kind: 'individual', measure: 'thalf' }), 1 / 24, -1, false)).toBe(true);
    expect(intravascularRoute('iv')).toBe(true);
    expect(intravascularRoute('oral')).toBe(false);
    expect(intravascularRoute(null)).toBe(false);
  });
});
