import { describe, expect, it } from 'vitest';
import { MIN_PERIODS, ownLevel, ownPeriodsConvict, periodIndex, repeatsElsewhere, twinConvicts } from '../../src/qa/subject-periods.js';
import type { Deviation } from '../../src/qa/study-pools.js';

/** A deviation of `subject` in pool `pool` (one condition) of base 7, at ×ratio its pool's centre, spread s = 0.3. */
const dev = (subject: string | null, pool: number, ratio: number, record = `output:${subject}-${pool}`): Deviation =>
  ({ item: { subject, pool, base: 7, record }, d: Math.log(ratio), s: 0.3 }) as unknown as Deviation;

const OUTLIER = Math.log(5);
const BACK = Math.log(1.6);

describe('subject-periods: a subject at its own level in its other periods', () => {
  it('takes the mean of the other periods when they agree within ×2', () => {
    const lead = dev('individual:1', 1, 9);
    const index = periodIndex([[lead], [dev('individual:1', 2, 1.2)], [dev('individual:1', 3, 0.8)], [dev('individual:2', 2, 3)]]);
    const own = ownLevel(lead, index)!;
    expect(own.periods).toBe(2);
    expect(Math.exp(own.level)).toBeCloseTo(Math.sqrt(1.2 * 0.8), 12); // geometric mean 0.980
  });

  it(`needs ${MIN_PERIODS} other periods that agree, and a subject`, () => {
    const lead = dev('individual:1', 1, 9);
    expect(ownLevel(lead, periodIndex([[lead], [dev('individual:1', 2, 1.2)]]))).toBeNull(); // one other period
    expect(ownLevel(lead, periodIndex([[lead], [dev('individual:1', 2, 1.2)], [dev('individual:1', 3, 3)]]))).toBeNull(); // ×2.5 apart
    // a second record of the lead's own pool is no other period
    expect(ownLevel(lead, periodIndex([[lead], [dev('individual:1', 1, 1, 'output:x')], [dev('individual:1', 2, 1)]]))).toBeNull();
    const anonymous = dev(null, 1, 9);
    expect(ownLevel(anonymous, periodIndex([[anonymous], [dev(null, 2, 1)], [dev(null, 3, 1)]]))).toBeNull();
  });

  it('convicts a record ×10 off its own level, not one its subject shares nor one the factor does not bring back', () => {
    const others = [[dev('group:5', 2, 1.1)], [dev('group:5', 3, 0.9)]];
    // ×9.5 its pool's centre, the subject's level ×0.995: residual ×9.55, ×10 leaves ×0.955 (within ×1.6)
    const slipped = dev('group:5', 1, 9.5);
    expect(ownPeriodsConvict(slipped, 10, periodIndex([[slipped], ...others]), OUTLIER, BACK)).toBe(
      'the same group:5 lies at ×0.995 the centre in its 2 other periods of this measure, and this record ×9.55 that level',
    );
    // a poor metaboliser: ×8 here and ×6–7 in its other periods (residual ×1.2)
    const high = dev('group:5', 1, 8);
    expect(ownPeriodsConvict(high, 10, periodIndex([[high], [dev('group:5', 2, 6)], [dev('group:5', 3, 7)]]), OUTLIER, BACK)).toBeNull();
    // ×4 off its level: below the outlier bound of ×5
    const near = dev('group:5', 1, 4);
    expect(ownPeriodsConvict(near, 10, periodIndex([[near], ...others]), OUTLIER, BACK)).toBeNull();
    // ×24 off its level named ×10: the factor does not bring it back within ×1.6
    const far = dev('group:5', 1, 24);
    expect(ownPeriodsConvict(far, 10, periodIndex([[far], ...others]), OUTLIER, BACK)).toBeNull();
    expect(ownPeriodsConvict(far, 24, periodIndex([[far], ...others]), OUTLIER, BACK)).toMatch(/×24\.1 that level$/);
  });
});

describe('subject-periods: a deviation the subject repeats in another period', () => {
  it('is its biology when one other period lies within ×2 of it: ×8 here, ×6 there; not ×8 here and ×1 there', () => {
    const high = dev('group:5', 1, 8);
    expect(repeatsElsewhere(high, periodIndex([[high], [dev('group:5', 2, 6)]]))).toBe(true);
    expect(repeatsElsewhere(high, periodIndex([[high], [dev('group:5', 2, 1)]]))).toBe(false);
    // another subject, or another record of the same pool, is no other period
    expect(repeatsElsewhere(high, periodIndex([[high], [dev('group:6', 2, 8)], [dev('group:5', 1, 8, 'output:y')]]))).toBe(false);
  });
});

describe("subject-periods: the same subject's other record of the measure in the same arm", () => {
  const twinOf = (subject: string | null, ratio: number, record: string, source = 'reported') =>
    ({ item: { subject, pool: 1, base: 7, record, source, type: 'auc_inf' }, d: Math.log(ratio), s: 0.3 }) as unknown as Deviation;
  it('convicts a record ×22.3 off its centre whose twin lies in line (×0.917): residual ×24.3, ×24 brings it back', () => {
    const lead = twinOf('individual:3742', 22.3, 'output:81380');
    const twin = twinOf('individual:3742', 0.917, 'output:81185');
    expect(twinConvicts(lead, 24, [twin], OUTLIER, BACK)).toBe(
      "the same individual:3742's other auc_inf of this arm (output:81185) lies in line, at ×0.917 the centre, and this record ×24.3 that value",
    );
  });
  it('not when the twin is off too (×6: the subject), is another subject\'s, another source, or the factor does not bring it back', () => {
    const lead = twinOf('individual:1', 22.3, 'output:1');
    expect(twinConvicts(lead, 24, [twinOf('individual:1', 6, 'output:2')], OUTLIER, BACK)).toBeNull();
    expect(twinConvicts(lead, 24, [twinOf('individual:2', 1, 'output:2')], OUTLIER, BACK)).toBeNull();
    expect(twinConvicts(lead, 24, [twinOf('individual:1', 1, 'output:2', 'calculated')], OUTLIER, BACK)).toBeNull();
    expect(twinConvicts(lead, 10, [twinOf('individual:1', 1, 'output:2')], OUTLIER, BACK)).toBeNull();
    expect(twinConvicts(twinOf(null, 22.3, 'output:1'), 24, [twinOf(null, 1, 'output:2')], OUTLIER, BACK)).toBeNull();
  });
});
