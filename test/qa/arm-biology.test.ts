import { describe, expect, it } from 'vitest';
import { identityExplains, lateAbsorber, poorMetaboliser, POOR_METABOLISER_MAX } from '../../src/qa/arm-biology.js';

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
