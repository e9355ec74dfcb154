import { describe, expect, it } from 'vitest';
import { MAD_SCALE, median, medianOfSorted, scaledMad } from '../../src/qa/robust.js';

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
