/** Sparse AUC: Bailer's SE and Satterthwaite df worked by hand; Holder's covariance for a batch design. */
import { describe, expect, it } from 'vitest';
import { sparseAuc, trapezoidWeights } from '../../src/nca/sparse.js';

// Serial sampling, 3 subjects per time: means 0, 5, 5, 2; variances 0, 1, 7, 1.
const serial = [
  [0, [0, 0, 0]], [1, [4, 5, 6]], [2, [3, 4, 8]], [4, [1, 2, 3]],
].flatMap(([t, cs], i) => (cs as number[]).map((c, k) => ({ subject: `s${i}-${k}`, time: t as number, conc: c })));

describe('sparseAuc', () => {
  it('weights (0.5, 1, 1.5, 1); AUC = 14.5 (the trapezoid of the means)', () => {
    expect(trapezoidWeights([0, 1, 2, 4])).toEqual([0.5, 1, 1.5, 1]);
    expect(sparseAuc(serial).auc).toBeCloseTo(14.5, 12);
  });

  it("Bailer: Var = 1²·1/3 + 1.5²·7/3 + 1²·1/3 = 5.91667, SE 2.43242; Satterthwaite df = 5.91667²/(2·(1/3)²/2 + 5.25²/2) = 2.5199", () => {
    const r = sparseAuc(serial);
    expect(r.se).toBeCloseTo(Math.sqrt(1 / 3 + 5.25 + 1 / 3), 12);
    expect(r.se).toBeCloseTo(2.43242, 5);
    expect(r.df).toBeCloseTo((1 / 3 + 5.25 + 1 / 3) ** 2 / ((1 / 9) / 2 + 5.25 ** 2 / 2 + (1 / 9) / 2), 10);
    expect(r.df).toBeCloseTo(2.5199, 4);
  });

  it('batch design: the same 3 subjects at t = 1 and 2 add 2·w₁w₂·r·σ₁₂/(n₁n₂) with σ₁₂ = 3/2 (r = n: the usual covariance)', () => {
    const batch = serial.map((s) => (s.time === 2 ? { ...s, subject: s.subject.replace('s2', 's1') } : s));
    const r = sparseAuc(batch);
    // Cov(t1, t2) over subjects (4,3), (5,4), (6,8): Σ(c1 − 5)(c2 − 5) = (−1)(−2) + 0 + (1)(3) = 5; /(3 − 1) = 2.5.
    expect(r.se).toBeCloseTo(Math.sqrt(1 / 3 + 5.25 + 1 / 3 + (2 * 1 * 1.5 * 3 * 2.5) / 9), 12);
    expect(r.df).toBeNull();
    expect(r.notes[0]).toMatch(/batch design/);
  });

  it('a time with one subject has no variance: SE null with a note; duplicates are errors', () => {
    const one = [...serial.filter((s) => s.time !== 4), { subject: 'z', time: 4, conc: 2 }];
    expect(sparseAuc(one).se).toBeNull();
    expect(() => sparseAuc([{ subject: 'a', time: 0, conc: 1 }, { subject: 'a', time: 0, conc: 2 }])).toThrow(/sampled twice/);
  });
});
