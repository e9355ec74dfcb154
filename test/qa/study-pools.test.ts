import { describe, expect, it } from 'vitest';
import { curveLevels, poolDeviations } from '../../src/qa/study-pools.js';
import type { StudyItem } from '../../src/qa/study-items.js';

/** A curve item of arm `arm`, its concentrations `scale` × 10, 8, 5, 2 at 1, 2, 4, 8 h, dose 100 mg (fields in the order of study-items.ts). */
function curve(arm: string, subset: number, scale: number): StudyItem {
  return {
    arm, record: `timecourse:${subset}`, measure: 'curve', source: 'curve', type: 'concentration', family: 'cmax',
    pool: 0, base: 0, kind: 'group', wider: [0, 0], slot: subset,
    study_sid: 'S1', study_name: 'Study1', subject: arm, log: 0, rawLog: 0,
    value: NaN, unit: 'gram / liter', dose: { pk: 1, value: 0.1, unit: 'gram' }, bodyWeightKg: null, output: null,
    timecourse: { tc: { subset_pk: subset } } as StudyItem['timecourse'],
    profile: { time: [1, 2, 4, 8], conc: [10, 8, 5, 2].map((c) => c * scale) },
  };
}

describe('curveLevels', () => {
  it('levels each curve at the median log ratio to the others: ×1, ×2, ×4 give ln(1/√8), ln 1, ln √8', () => {
    const [a, b, c] = curveLevels([curve('A', 3, 1), curve('B', 1, 2), curve('C', 2, 4)]);
    // Ordered by subset pk: B (1), C (2), A (3). B against A (×2) and C (×1/2): median of ln 2 and −ln 2 = 0.
    expect(a.arm).toBe('B');
    expect(a.log).toBeCloseTo(0, 12);
    expect(b.log).toBeCloseTo(Math.log(Math.sqrt(8)), 12); // C: ln 4 and ln 2
    expect(c.log).toBeCloseTo(-Math.log(Math.sqrt(8)), 12); // A: −ln 2 and −ln 4
    // Same doses: the raw level is the same.
    expect(c.rawLog).toBeCloseTo(-Math.log(Math.sqrt(8)), 12);
  });
  it('returns copies with every other field kept, in the item field order (one hidden class for every item)', () => {
    const item = curve('A', 3, 1);
    const [, , copy] = curveLevels([item, curve('B', 1, 2), curve('C', 2, 4)]);
    expect(copy).not.toBe(item);
    expect(Object.keys(copy)).toEqual(Object.keys(item));
    expect({ ...copy, log: 0, rawLog: 0 }).toEqual(item);
    expect(item.log).toBe(0);
  });
});

describe('poolDeviations of levelled curves (relative)', () => {
  const deviationOf = (pool: StudyItem[], arm: string, minArms?: number) =>
    poolDeviations(curveLevels(pool), 1, undefined, minArms, true).find((d) => d.item.arm === arm)!;
  it('a pair ×10 apart: each deviates by ln 10 from the other, not ln 100', () => {
    const pair = [curve('A', 1, 1), curve('B', 2, 10)];
    expect(deviationOf(pair, 'B', 2).d).toBeCloseTo(Math.log(10), 12);
    expect(deviationOf(pair, 'A', 2).d).toBeCloseTo(-Math.log(10), 12);
  });
  it('one curve ×10 its two fellows (×1, ×1.2) deviates by the geometric mean ratio, ln(10/√1.2), not ×31.6', () => {
    const d = deviationOf([curve('A', 1, 1), curve('B', 2, 1.2), curve('C', 3, 10)], 'C');
    expect(d.d).toBeCloseTo(Math.log(10 / Math.sqrt(1.2)), 12);
    // Same doses: the raw deviation is the same.
    expect(d.dRaw).toBeCloseTo(d.d, 12);
  });
  it('among many curves, the level against the others (×1 … ×1.5, one ×10): ln 10 less the median fellow', () => {
    const scales = [1, 1.1, 1.2, 1.3, 1.4, 1.5];
    const pool = [...scales.map((k, i) => curve(`A${i}`, i + 1, k)), curve('X', 99, 10)];
    const d = deviationOf(pool, 'X');
    expect(d.d).toBeCloseTo(Math.log(10 / Math.sqrt(1.2 * 1.3)), 12);
  });
});
