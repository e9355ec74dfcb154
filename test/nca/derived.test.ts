/** Derived quantities: worked numbers for each formula, and null for what cannot be computed. */
import { describe, expect, it } from 'vitest';
import * as d from '../../src/nca/derived.js';

describe('derived quantities', () => {
  it('AUC∞, AUMC∞ and the extrapolated share', () => {
    // AUClast 10, Clast 2, Tlast 4, λz 0.5: AUC∞ = 10 + 4 = 14; AUMC∞ = 30 + 2·4/0.5 + 2/0.25 = 54
    expect(d.aucInfinity(10, 2, 0.5)).toBe(14);
    expect(d.aumcInfinity(30, 2, 4, 0.5)).toBe(54);
    expect(d.percentExtrapolated(14, 10)).toBeCloseTo((100 * 4) / 14, 14);
    expect(d.aucInfinity(10, 2, null)).toBeNull();
    expect(d.aucInfinity(10, 2, 0)).toBeNull();
  });

  it('MRT, CL, Vz, Vss', () => {
    expect(d.meanResidenceTime(54, 14)).toBeCloseTo(54 / 14, 14);
    expect(d.meanResidenceTime(54, 14, 1)).toBeCloseTo(54 / 14 - 0.5, 14);
    expect(d.meanResidenceTime(5, 0)).toBeNull();
    expect(d.clearance(100, 14)).toBeCloseTo(100 / 14, 14);
    expect(d.clearance(100, 14, 1000)).toBeCloseTo(100_000 / 14, 10);
    expect(d.clearance(null, 14)).toBeNull();
    expect(d.terminalVolume(10, 0.5)).toBe(20);
    expect(d.steadyStateVolume(4, 10)).toBe(40);
    expect(d.halfLife(Math.LN2)).toBe(1);
    expect(d.predictedClast(Math.log(8), Math.LN2, 3)).toBeCloseTo(1, 14);
    expect(d.percentBackExtrapolated(1, 20)).toBe(5);
  });

  it('steady-state MRT of a one-compartment bolus is 1/k', () => {
    const [dv, k, tau] = [10, 0.2, 6];
    const r = Math.exp(-k * tau);
    const aucTau = dv / k; // D/(V k)
    const aucInf = dv / (k * (1 - r));
    const aumcTau = (dv / (1 - r)) * (1 / k ** 2 - r * (tau / k + 1 / k ** 2));
    expect(d.steadyStateMrt(aumcTau, aucTau, aucInf, tau)).toBeCloseTo(1 / k, 12);
  });

  it('interval parameters: Cav, PTR, swing, fluctuation', () => {
    // Cmax 10, Cmin 2, Ctrough 2.5, AUCτ 60 over τ 12: Cav 5
    expect(d.averageConcentration(60, 12)).toBe(5);
    expect(d.peakTroughRatio(10, 2.5)).toBe(4);
    expect(d.swing(10, 2)).toBe(4);
    expect(d.fluctuation(10, 2, 5)).toBe(160);
    expect(d.swing(10, 0)).toBeNull();
    expect(d.averageConcentration(60, 0)).toBeNull();
  });

  it('accumulation index and time to steady state', () => {
    // t½ = τ: R = 1/(1 − 1/2) = 2
    expect(d.accumulationIndex(Math.LN2 / 12, 12)).toBeCloseTo(2, 14);
    expect(d.accumulationIndex(0.1, 0)).toBeNull();
    // 90 % of steady state after log2(10) = 3.32 half-lives, 97 % after ~5
    expect(d.timeToSteadyState(Math.LN2, 0.9)).toBeCloseTo(Math.log2(10), 14);
    expect(d.timeToSteadyState(Math.LN2, 0.97)).toBeCloseTo(5.06, 2);
  });
});
