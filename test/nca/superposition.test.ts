/** Superposition: steady state predicted from single-dose data against one-compartment truth. */
import { describe, expect, it } from 'vitest';
import { steadyState, superpose } from '../../src/nca/superposition.js';
import { ncaIntervals } from '../../src/nca/intervals.js';

const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
const grid = (end: number, step: number) => Array.from({ length: Math.round(end / step) + 1 }, (_, i) => i * step);

describe('IV bolus, C1 = D/V·e^(−kt), τ = 12', () => {
  const [dv, k, tau] = [10, 0.2, 12];
  const time = [0.5, 1, 2, 4, 8, 12, 24];
  const conc = time.map((t) => dv * Math.exp(-k * t));
  const r = Math.exp(-k * tau);
  const ss = steadyState(time, conc, { tau, lambdaZ: k, route: 'iv-bolus', method: 'lin-up-log-down' });

  it('Cmax,ss = (D/V)/(1 − e^(−kτ)), Cmin,ss = Cmax,ss·e^(−kτ) (C0 back-extrapolated, tail summed exactly)', () => {
    expect(rel(ss.cmax, dv / (1 - r))).toBeLessThan(1e-12);
    expect(ss.tmax).toBe(0);
    expect(rel(ss.cmin, (dv * r) / (1 - r))).toBeLessThan(1e-12);
  });

  it('AUCτ,ss = Dose/CL = D/(Vk) (log-down exact on an exponential); R = 1/(1 − e^(−kτ))', () => {
    expect(rel(ss.auctau, dv / k)).toBeLessThan(1e-12);
    expect(rel(ss.accumulationIndex, 1 / (1 - r))).toBeLessThan(1e-14);
  });

  it('time to steady state: 90 % after log2(10) = 3.32 half-lives, 97 % after about 5', () => {
    expect(ss.timeTo90 / ss.halfLife).toBeCloseTo(Math.log2(10), 12);
    expect(ss.timeTo97 / ss.halfLife).toBeCloseTo(5.06, 2);
  });

  it('superpose() adds shifted copies: C(13) after doses at 0 and 12 = C1(13) + C1(1); a half dose halves its share', () => {
    const [c13] = superpose(time, conc, [{ time: 0 }, { time: 12, ratio: 0.5 }], [13], { lambdaZ: k, route: 'iv-bolus', method: 'lin-up-log-down' });
    expect(rel(c13, dv * Math.exp(-k * 13) + 0.5 * dv * Math.exp(-k))).toBeLessThan(1e-12);
  });
});

describe('oral (Bateman), τ = 12', () => {
  const [dose, v, k, ka, tau] = [100, 10, 0.2, 1.5, 12];
  const a = (dose * ka) / (v * (ka - k));
  const time = grid(72, 0.02);
  const conc = time.map((t) => a * (Math.exp(-k * t) - Math.exp(-ka * t)));
  const rk = Math.exp(-k * tau);
  const rka = Math.exp(-ka * tau);
  const css = (t: number) => a * (Math.exp(-k * t) / (1 - rk) - Math.exp(-ka * t) / (1 - rka));

  it('predicts Css(t) = a·(e^(−kt)/(1 − e^(−kτ)) − e^(−ka·t)/(1 − e^(−ka·τ))) within the interpolation error', () => {
    const at = [0, 0.5, 1.3, 2, 6, 11.99, 12];
    const ss = steadyState(time, conc, { tau, lambdaZ: k, times: at });
    at.forEach((t, i) => expect(rel(ss.conc[i], css(t)), `t = ${t}`).toBeLessThan(1e-4));
    expect(rel(ss.cmin, css(0))).toBeLessThan(1e-4);
  });

  it('AUCτ,ss = Dose/CL and checks a reported steady-state profile (ncaIntervals of the simulated steady state)', () => {
    const ss = steadyState(time, conc, { tau, lambdaZ: k });
    expect(rel(ss.auctau, dose / (v * k))).toBeLessThan(1e-4);
    const doses = Array.from({ length: 10 }, (_, i) => ({ time: i * tau, amount: dose }));
    const t10 = grid(10 * tau, 0.02);
    const observed = superpose(time, conc, doses, t10, { lambdaZ: k });
    const last = ncaIntervals({ time: t10, conc: observed }, { doses }).intervals[9];
    expect(rel(last.parameters.CMAX!.value!, ss.cmax)).toBeLessThan(1e-3);
    expect(rel(last.parameters.AUCTAU!.value!, ss.auctau)).toBeLessThan(1e-4);
  });

  it('rejects what it cannot use', () => {
    expect(() => steadyState(time, conc, { tau: 0, lambdaZ: k })).toThrow('tau');
    expect(() => steadyState(time, conc, { tau, lambdaZ: 0 })).toThrow('λz');
    expect(() => steadyState(time, conc, { tau, lambdaZ: k, times: [13] })).toThrow('[0, τ]');
  });
});
