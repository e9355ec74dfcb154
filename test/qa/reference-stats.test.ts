import { describe, expect, it } from 'vitest';
import { armValues, leaveOneStudyOut, MIN_STUDIES, robustReference, SPREAD_FLOOR } from '../../src/qa/reference-stats.js';

describe('reference-stats', () => {
  it('counts an arm once: the median of its values', () => {
    const arms = armValues([
      { study: 'A', arm: 'A|1', log: 1 }, { study: 'A', arm: 'A|1', log: 3 }, { study: 'A', arm: 'A|1', log: 2 }, { study: 'B', arm: 'B|2', log: 5 },
    ]);
    expect(arms).toEqual([{ study: 'A', log: 2 }, { study: 'B', log: 5 }]);
  });

  it('keeps arms of the same name in different studies apart: the empty intervention set of undosed levels', () => {
    const arms = armValues([{ study: 'A', arm: '', log: 1 }, { study: 'B', arm: '', log: 5 }, { study: 'B', arm: '', log: 7 }]);
    expect(arms).toEqual([{ study: 'A', log: 1 }, { study: 'B', log: 6 }]);
  });

  it('gives median, MAD × 1.4826 and the second extremes from other studies', () => {
    // logs 0, 1, 2, 3, 10 (five studies): median 2, deviations 2, 1, 0, 1, 8 → MAD 1 → 1.4826.
    const ref = robustReference([0, 1, 2, 3, 10].map((log, i) => ({ study: `S${i}`, log })));
    expect(ref).toMatchObject({ median: 2, studies: 5, arms: 5, min: 0, max: 10, secondMin: 1, secondMax: 3 });
    expect(ref?.spread).toBeCloseTo(1.4826, 12);
    // Tight data: the spread is floored.
    expect(robustReference([1, 1, 1, 1, 1].map((log, i) => ({ study: `S${i}`, log })))?.spread).toBe(SPREAD_FLOOR);
  });

  it('needs MIN_STUDIES distinct studies, and leaves each study out of its own reference', () => {
    const arms = [0, 1, 2, 3].map((log, i) => ({ study: `S${i}`, log }));
    expect(robustReference(arms)).toBeNull();
    const six = [...arms, { study: 'S4', log: 4 }, { study: 'S5', log: 50 }, { study: 'S5', log: 60 }];
    const loso = leaveOneStudyOut(six);
    expect(MIN_STUDIES).toBe(5);
    // S5's reference is S0..S4 alone: median 2; S0's is S1..S5 with S5's two arms: median of 1, 2, 3, 4, 50, 60 = 3.5.
    expect(loso.get('S5')?.median).toBe(2);
    expect(loso.get('S0')?.median).toBe(3.5);
    expect(leaveOneStudyOut(arms).get('S0')).toBeNull();
  });
});
