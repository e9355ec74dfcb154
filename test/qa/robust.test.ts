import { describe, expect, it } from 'vitest';
import { interpolateLog, levelAt, logLinearAt, MAD_SCALE, median, medianOfSorted, scaledMad, scaledMadOfSorted, withoutSorted } from '../../src/qa/robust.js';

describe('median', () => {
  it('takes the middle of an odd count and the mean of the two middles of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('ignores non-finite values and is NaN for none', () => {
    expect(median([NaN, 5, Infinity, 1, -Infinity, 3])).toBe(3);
    expect(median([])).toBeNaN();
    expect(median([NaN])).toBeNaN();
  });
  it('does not modify its input', () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });
  it('handles more values than its scratch space at first holds', () => {
    const values = Array.from({ length: 1001 }, (_, k) => 1000 - k);
    expect(median(values)).toBe(500);
    expect(median([7, 9, 8])).toBe(8);
  });
});

describe('medianOfSorted', () => {
  it('reads the middle of ascending values', () => {
    expect(medianOfSorted([1, 2, 10])).toBe(2);
    expect(medianOfSorted(new Float64Array([1, 2, 3, 10]))).toBe(2.5);
    expect(medianOfSorted([])).toBeNaN();
  });
  it('reads only the first n when given', () => {
    expect(medianOfSorted(new Float64Array([1, 2, 3, 10, 99]), 4)).toBe(2.5);
    expect(medianOfSorted([5, 6], 0)).toBeNaN();
  });
});

describe('scaledMad', () => {
  it('is MAD_SCALE times the median absolute deviation from the centre, one outlier ignored', () => {
    // |x − 2| = 1, 0, 1, 98 → median 1
    expect(scaledMad([1, 2, 3, 100])).toBeCloseTo(MAD_SCALE * 1, 12);
    expect(scaledMad([1, 2, 3, 100], 2)).toBeCloseTo(MAD_SCALE * 1, 12);
  });
  it('ignores non-finite values and is NaN for none', () => {
    expect(scaledMad([0, 1, 2, NaN], 1)).toBeCloseTo(MAD_SCALE * 1, 12);
    expect(scaledMad([])).toBeNaN();
  });
});

describe('scaledMadOfSorted', () => {
  it('equals scaledMad on the same ascending values, odd and even counts', () => {
    // |x − 2| = 1, 0, 1, 98 → median 1; |x − 3| of 1, 2, 3, 10, 11 = 2, 1, 0, 7, 8 → median 2
    expect(scaledMadOfSorted([1, 2, 3, 100], 4, 2)).toBe(MAD_SCALE * 1);
    expect(scaledMadOfSorted([1, 2, 3, 10, 11], 5, 3)).toBe(MAD_SCALE * 2);
    expect(scaledMadOfSorted([1, 2, 3, 10, 11], 5, 3)).toBe(scaledMad([11, 3, 1, 10, 2], 3));
  });
  it('reads only the first n, and is NaN for none', () => {
    // 1, 2, 4 around 2: deviations 1, 0, 2 → median 1
    expect(scaledMadOfSorted(new Float64Array([1, 2, 4, 1000]), 3, 2)).toBe(MAD_SCALE * 1);
    expect(scaledMadOfSorted([], 0, 0)).toBeNaN();
  });
});

describe('withoutSorted', () => {
  it('drops one occurrence of each removed value and keeps the order', () => {
    const into = new Float64Array(8);
    const n = withoutSorted([1, 2, 2, 3, 5], [2, 5], 2, into);
    expect([...into.subarray(0, n)]).toEqual([1, 2, 3]);
  });
  it('uses only the first removedCount removed values', () => {
    const into = new Float64Array(8);
    const n = withoutSorted([1, 2, 3], [3, 1], 1, into);
    expect([...into.subarray(0, n)]).toEqual([1, 2]);
  });
});

describe('interpolateLog', () => {
  it('interpolates linearly on the log scale between the two samples around t', () => {
    // 100 at 1 h, 25 at 3 h: at 2 h the geometric mean, 50
    expect(interpolateLog([1, 3], [100, 25], 2)).toBeCloseTo(50, 12);
    expect(interpolateLog([1, 3], [100, 25], 3)).toBe(25);
  });
  it('is null outside the range and across a non-positive sample', () => {
    expect(interpolateLog([1, 3], [100, 25], 0.5)).toBeNull();
    expect(interpolateLog([1, 3], [100, 0], 2)).toBeNull();
    expect(interpolateLog([], [], 2)).toBeNull();
  });
  it('equals logLinearAt given the first index whose time is not below t', () => {
    const times = [0.5, 1, 2, 4, 8];
    const conc = [10, 40, 30, 15, 4];
    for (const t of [0.5, 0.75, 2, 3, 7.9, 8]) {
      const hi = times.findIndex((x) => x >= t);
      expect(logLinearAt(times, conc, t, hi)).toBe(interpolateLog(times, conc, t));
    }
  });
});

describe('levelAt', () => {
  // An oral curve sampled at 0, 0.5, 1, 2, 4, 8, 12 h (levels 0, 6, 10, 8, 4, 1.5, 0.5)
  const times = [0, 0.5, 1, 2, 4, 8, 12];
  const levels = [0, 6, 10, 8, 4, 1.5, 0.5];
  it('interpolates between the samples around a time, null outside them', () => {
    expect(levelAt(times, levels, 6)).toBeCloseTo(2.75, 12); // halfway from 4 (4 h) to 1.5 (8 h)
    expect(levelAt(times, levels, 1)).toBe(10);
    expect(levelAt(times, levels, 13)).toBeNull();
  });
});
