import { describe, expect, it } from 'vitest';
import { integrate, isLogSegment, linearAuc, linearAumc, logAuc, logAumc, uMinusLog1p } from '../../src/nca/trapezoid.js';

const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe('trapezoid segments (worked numbers)', () => {
  it('linear AUC and AUMC', () => {
    // dt·(C1+C2)/2 = 2·6/2; dt·(t1C1 + t2C2)/2 = 2·(0·4 + 2·2)/2
    expect(linearAuc(0, 4, 2, 2)).toBe(6);
    expect(linearAumc(0, 4, 2, 2)).toBe(4);
  });

  it('log AUC = (C1 − C2)/k with k = ln(C1/C2)/dt', () => {
    // C halves over 2 h: k = ln2/2, AUC = 2/(ln2/2) = 4/ln2
    expect(rel(logAuc(0, 4, 2, 2), 4 / Math.LN2)).toBeLessThan(1e-15);
  });

  it('log AUMC = (t1C1 − t2C2)/k + (C1 − C2)/k²', () => {
    const k = Math.LN2 / 2;
    const textbook = (1 * 4 - 3 * 2) / k + (4 - 2) / (k * k); // = −4/ln2 + 8/ln2²
    expect(rel(logAumc(1, 4, 3, 2), textbook)).toBeLessThan(1e-14);
  });

  it('stays exact when C2 = C1·(1 − 1e-12), where the textbook formula cancels', () => {
    const c1 = 3.7;
    const c2 = c1 * (1 - 1e-12);
    const [t1, t2, dt] = [5, 7, 2];
    // For nearly equal values the exponential and the straight line enclose the same area to O(u²) ≈ 1e-24.
    expect(rel(logAuc(t1, c1, t2, c2), linearAuc(t1, c1, t2, c2))).toBeLessThan(1e-15);
    // Exact first moment of C1·e^(−x·s/dt) on [0, dt], x = ln(C1/C2): C1·dt²·(1 − e^(−x)(1 + x))/x²,
    // whose series is C1·dt²·(1/2 − x/3 + x²/8 − …); plus t1 times the AUC.
    const x = Math.log1p((c1 - c2) / c2);
    const reference = t1 * linearAuc(t1, c1, t2, c2) + c1 * dt * dt * (1 / 2 - x / 3 + (x * x) / 8);
    expect(rel(logAumc(t1, c1, t2, c2), reference)).toBeLessThan(1e-15);
    const k = Math.log(c1 / c2) / dt;
    const naive = (t1 * c1 - t2 * c2) / k + (c1 - c2) / (k * k);
    // The naive form loses about 4 digits here: the reason for the stable one.
    expect(rel(naive, reference)).toBeGreaterThan(1e-9);
  });

  it('u − log1p(u): series and direct form agree across the switch at 1e-3', () => {
    expect(rel(uMinusLog1p(0.5), 0.5 - Math.log(1.5))).toBeLessThan(1e-15);
    const u = 0.999e-3; // just inside the series branch; the direct form still has ~12 good digits here
    expect(rel(uMinusLog1p(u), u - Math.log1p(u))).toBeLessThan(1e-11);
    expect(rel(uMinusLog1p(1e-8), 0.5e-16 - 1e-24 / 3)).toBeLessThan(1e-15);
  });

  it('log only on strictly falling positive segments', () => {
    expect(isLogSegment('lin-up-log-down', 4, 2)).toBe(true);
    expect(isLogSegment('lin-up-log-down', 2, 4)).toBe(false);
    expect(isLogSegment('lin-up-log-down', 3, 3)).toBe(false);
    expect(isLogSegment('lin-up-log-down', 3, 0)).toBe(false);
    expect(isLogSegment('linear', 4, 2)).toBe(false);
  });
});

describe('integrate', () => {
  const time = [0, 1, 2, 4];
  const conc = [0, 4, 2, 1];
  it('linear: 2 + 3 + 3 for AUC, 2 + 4 + 8 for AUMC', () => {
    expect(integrate(time, conc, 0, 3, 'linear')).toEqual({ auc: 8, aumc: 14 });
  });
  it('lin-up/log-down: linear rise 2, then two halvings of 2/ln2 each', () => {
    const { auc } = integrate(time, conc, 0, 3, 'lin-up-log-down');
    expect(rel(auc, 2 + 4 / Math.LN2)).toBeLessThan(1e-15);
  });
  it('partial ranges add up', () => {
    const a = integrate(time, conc, 0, 1, 'linear').auc + integrate(time, conc, 1, 3, 'linear').auc;
    expect(a).toBe(8);
  });
});
