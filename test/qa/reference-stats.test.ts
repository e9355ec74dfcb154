import { describe, expect, it } from 'vitest';
import { armValues, leaveOneStudyOut, MIN_STUDIES, robustReference, SPREAD_FLOOR, weightedMedian } from '../../src/qa/reference-stats.js';
import { judge } from '../../src/qa/range-verdict.js';

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

  it('weighs each study one in the study median: 1 / arms for each of its arms; equal weights give the plain median', () => {
    expect(weightedMedian([1, 2, 3, 4], [1, 1, 1, 1])).toBe(2.5);
    expect(weightedMedian([1, 2, 3], [1, 1, 1])).toBe(2);
    // Seven arms of weight 1/7 at 0 (one study) and four studies at 1, 2, 3, 4: total 5, half 2.5 reached at 2.
    expect(weightedMedian([0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4], [...Array(7).fill(1 / 7), 1, 1, 1, 1])).toBe(2);
  });

  it('does not let one study’s many arms make a value outside: Somogyi1991’s seven paracetamol arms at 0.03 g', () => {
    // Doses of five studies: 0.5, 0.65, 1 and 1 g, and one study of seven arms at 0.03 g. The arm median is 0.03 g; the
    // study median 0.65 g (weights 1/7: half of 5 is reached at 0.65).
    const ln = Math.log;
    const arms = [0.5, 0.65, 1, 1].map((g, k) => ({ study: `S${k}`, log: ln(g) })).concat(Array.from({ length: 7 }, () => ({ study: 'Somogyi', log: ln(0.03) })));
    const ref = robustReference(arms)!;
    expect(Math.exp(ref.median)).toBeCloseTo(0.03, 12);
    expect(Math.exp(ref.studyMedian!)).toBeCloseTo(0.65, 12);
    expect(ref.spread).toBe(SPREAD_FLOOR); // seven equal arms: MAD 0
    // Forrest1979's 1.5 g: z 17.5 against the arms' median, 3.7 against the studies': inside, no ×70 named.
    const dose = { value: 1.5, family: 'dose' as const, molarMass: null, bodyWeightKg: null, dose: null };
    expect(judge(dose, ref)).toMatchObject({ classification: 'inside', cause: null });
    expect(judge(dose, { ...ref, studyMedian: undefined }).classification).toBe('slip'); // the arm median alone: ×70
    // With one arm per study the two medians are one.
    expect(robustReference([1, 2, 3, 4, 5].map((x, k) => ({ study: `T${k}`, log: x })))!.studyMedian).toBe(3);
  });
});
