import { describe, expect, it } from 'vitest';
import type { SuspectedCause } from '../../src/qa/causes.js';
import { factorBringingInside, statsContradictions, type RecordStats } from '../../src/qa/record-stats.js';

const stats = (fields: Partial<RecordStats>): RecordStats => ({ value: null, mean: null, median: null, min: null, max: null, ...fields });
const decimal: SuspectedCause[] = [10, 0.1, 1000, 0.001].map((factor) => ({ kind: 'unit-factor', factor, text: `×${factor}` }));

describe('statsContradictions', () => {
  it('holds a mean, median and value to their own range, and the range to its order', () => {
    expect(statsContradictions(stats({ mean: 3, min: 2, max: 4 }))).toEqual([]);
    expect(statsContradictions(stats({ mean: 3 }))).toEqual([]); // no range: nothing to hold
    // a mean of 38 beside 2.1–4.4: above its maximum by ×8.64
    const [above] = statsContradictions(stats({ mean: 38, min: 2.1, max: 4.4 }));
    expect(above).toMatchObject({ kind: 'outside', field: 'mean', side: 'above', value: 38 });
    expect(above.by).toBeCloseTo(38 / 4.4, 12);
    // a median of 11 beside a minimum of 23.3 (and a maximum of 22.8 below it): both broken
    expect(statsContradictions(stats({ median: 11, min: 23.3, max: 22.8 }))).toMatchObject([
      { kind: 'inverted', min: 23.3, max: 22.8 },
      { kind: 'outside', field: 'median', side: 'below' },
    ]);
    // one bound alone is held too: a value below its minimum
    expect(statsContradictions(stats({ value: 1, min: 2 }))).toMatchObject([{ kind: 'outside', field: 'value', side: 'below', by: 2 }]);
  });

  it('takes written values anywhere within half their last digit: 7.0 beside a minimum of 7.04 holds, 7 beside 7.2 does not', () => {
    // 7.0 is written 7 (two digits: ±0.05) and 7.04 ±0.005: 6.95 ≤ 7.045
    expect(statsContradictions(stats({ median: 7.0, min: 7.04, max: 9 }))).toEqual([]);
    // 7 (±0.05) against 7.2 (±0.05): 7.05 < 7.15
    expect(statsContradictions(stats({ median: 7, min: 7.2, max: 9 }))).toMatchObject([{ kind: 'outside', side: 'below' }]);
    // binary noise of a unit conversion is no digit: 0.0028800000000000003 as 0.00288
    expect(statsContradictions(stats({ mean: 0.0028800000000000003, min: 0.00288, max: 0.003 }))).toEqual([]);
  });
});

describe('factorBringingInside', () => {
  it('names the one decimal slip that undone puts the value back inside a range narrower than it', () => {
    // 38 / 10 = 3.8 within 2.1–4.4 (a range of ×2.1, narrower than ×10)
    const [c] = statsContradictions(stats({ mean: 38, min: 2.1, max: 4.4 }));
    expect(factorBringingInside(c, decimal)?.factor).toBe(10);
    // 0.3 against 2.1–4.4: ×1/10 undone gives 3
    const [low] = statsContradictions(stats({ mean: 0.3, min: 2.1, max: 4.4 }));
    expect(factorBringingInside(low, decimal)?.factor).toBe(0.1);
  });

  it('names none when no factor fits (38 beside 20–28), the range is as wide as the factor, has one end, or is inverted', () => {
    expect(factorBringingInside(statsContradictions(stats({ mean: 38, min: 20, max: 28 }))[0], decimal)).toBeNull();
    // 5–100 (×20) is wider than ×10: 380 / 10 = 38 lies in it, but so would many a value
    expect(factorBringingInside(statsContradictions(stats({ mean: 380, min: 5, max: 100 }))[0], decimal)).toBeNull();
    expect(factorBringingInside(statsContradictions(stats({ mean: 38, max: 4.4 }))[0], decimal)).toBeNull();
    const inverted = statsContradictions(stats({ mean: 38, min: 4.4, max: 2.1 }));
    expect(factorBringingInside(inverted[1], decimal)).toBeNull();
  });
});
