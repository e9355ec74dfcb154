import { describe, expect, it } from 'vitest';
import { linearRegression, rSquared } from 'simple-statistics';
import { bestFitStart, fitLogLinear, positivePoints } from '../../src/nca/lambda-z.js';
import { nca } from '../../src/nca/nca.js';

describe('fitLogLinear (worked numbers)', () => {
  it('ln C = 0, −1, −2.5 at t = 0, 1, 2', () => {
    // x̄ = 1, ȳ = −7/6, Sxx = 2, Sxy = −2.5, Syy = 19/6
    const fit = fitLogLinear([0, 1, 2], [1, Math.exp(-1), Math.exp(-2.5)], [0, 1, 2]);
    expect(fit.slope).toBeCloseTo(-1.25, 14);
    expect(fit.intercept).toBeCloseTo(-7 / 6 + 1.25, 14);
    expect(fit.r2).toBeCloseTo(37.5 / 38, 14);
    expect(fit.adjR2).toBeCloseTo(37 / 38, 14);
    expect(fit.corr).toBeCloseTo(-2.5 / Math.sqrt(19 / 3), 14);
  });
});

describe('best-fit λz selection', () => {
  it('takes every point when all fit exactly (ties within 1e-4: most points)', () => {
    const time = [0, 1, 2, 3, 4, 5];
    const conc = time.map((t) => 8 * Math.exp(-0.3 * t));
    expect(bestFitStart(time, conc, 1, 5)).toBe(1);
  });

  it('drops a deviating early point when that costs more than 1e-4 in adjusted R²', () => {
    const time = [1, 2, 3, 4, 5];
    const conc = [9, 4, 2, 1, 0.5]; // 9 breaks the halving line
    expect(bestFitStart(time, conc, 0, 4)).toBe(1);
  });

  it('keeps the longer window when its adjusted R² is within 1e-4 of the best', () => {
    const time = [1, 2, 3, 4];
    const conc = [8 * 1.006, 4, 2, 1]; // last 3 exact (adj R² 1), the 4-point fit slightly off
    const four = fitLogLinear(time, conc, [0, 1, 2, 3]);
    expect(four.adjR2).toBeGreaterThan(1 - 1e-4);
    expect(four.adjR2).toBeLessThan(1);
    expect(bestFitStart(time, conc, 0, 3)).toBe(0);
    const conc2 = [8 * 1.05, 4, 2, 1]; // now clearly off: 3 points win
    expect(fitLogLinear(time, conc2, [0, 1, 2, 3]).adjR2).toBeLessThan(1 - 1e-4);
    expect(bestFitStart(time, conc2, 0, 3)).toBe(1);
  });

  it('skips zeros inside the window and refuses rising tails', () => {
    const time = [0, 1, 2, 3, 4, 5];
    expect(positivePoints([0, 6, 0, 3, 2, 1], 1, 5)).toEqual([1, 3, 4, 5]);
    expect(bestFitStart(time, [0, 1, 2, 3, 4, 5], 1, 5)).toBe(-1);
    expect(bestFitStart(time, [0, 5, 4, 3, 2, 1], 4, 5)).toBe(-1);
  });

  it('reports the same slope and R² as an independent OLS (simple-statistics)', () => {
    const time = [0, 0.5, 1, 2, 4, 6, 8, 12, 24];
    const conc = [0, 4.1, 6.2, 5.9, 4.4, 3.3, 2.6, 1.4, 0.31];
    const result = nca({ time, conc });
    const lz = result.lambdaZ!;
    const pairs = lz.times.map((t, k) => [t, Math.log(lz.concentrations[k])]);
    const line = linearRegression(pairs);
    expect(lz.slope).toBeCloseTo(line.m, 12);
    expect(lz.intercept).toBeCloseTo(line.b, 12);
    const r2 = rSquared(pairs, (x) => line.m * x + line.b);
    expect(result.parameters.R2!.value).toBeCloseTo(r2, 12);
    // Every longer candidate window (points after Cmax) is worse by more than 1e-4.
    const first = time.indexOf(lz.times[0]);
    for (let start = 3; start < first; start++) {
      const fit = fitLogLinear(time, conc, positivePoints(conc, start, time.length - 1));
      expect(fit.adjR2).toBeLessThan(result.parameters.R2ADJ!.value! - 1e-4);
    }
  });
});

describe('manual λz', () => {
  const time = [0, 1, 2, 4, 6, 8];
  const conc = [0, 10, 8, 4, 2, 1];
  it('by input rows (caller order, even when unsorted)', () => {
    const r = nca({ time: [...time].reverse(), conc: [...conc].reverse() }, { lambdaZ: { indices: [0, 1, 2] } });
    expect(r.lambdaZ!.times).toEqual([4, 6, 8]);
    expect(r.lambdaZ!.indices).toEqual([2, 1, 0]);
    expect(r.parameters.LAMZ!.value).toBeCloseTo(Math.LN2 / 2, 14);
  });
  it('by time range', () => {
    const r = nca({ time, conc }, { lambdaZ: { start: 2, end: 8 } });
    expect(r.parameters.LAMZNPT!.value).toBe(4);
  });
  it('explains a selection that cannot be fitted', () => {
    const r = nca({ time, conc }, { lambdaZ: { start: 6, end: 8 } });
    expect(r.lambdaZ).toBeNull();
    expect(r.notes.LAMZ).toContain('needs 3');
    expect(r.notes.AUCIFO).toContain('needs 3');
  });
});
