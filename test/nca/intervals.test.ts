/**
 * Multiple dosing: analytic one-compartment truth by superposition, and
 * worked numbers for the conventions (pre-dose samples, troughs, intervals
 * over two doses, missing dose-time samples).
 */
import { describe, expect, it } from 'vitest';
import { ncaIntervals } from '../../src/nca/intervals.js';

const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);
const grid = (end: number, step: number) => Array.from({ length: Math.round(end / step) + 1 }, (_, i) => i * step);
type R = ReturnType<typeof ncaIntervals>['intervals'][number];
const val = (r: R, code: string) => r.parameters[code as 'CMAX']!.value!;

describe('IV bolus every τ, one compartment: C = Σ D/V·e^(−k(t − t_i)) (pre-dose value at each dose time)', () => {
  const [dose, v, k, tau, n] = [100, 10, 0.3, 12, 10];
  const doses = Array.from({ length: n }, (_, i) => ({ time: i * tau, amount: dose }));
  const c = (t: number) => doses.filter((d) => d.time < t).reduce((s, d) => s + (dose / v) * Math.exp(-k * (t - d.time)), 0);
  const time = grid(n * tau, 0.25);
  const conc = time.map(c);
  const r = Math.exp(-k * tau);
  const { intervals } = ncaIntervals({ time, conc, route: 'iv-bolus' }, { doses, aucMethod: 'lin-up-log-down' });
  const first = intervals[0];
  const last = intervals[n - 1];

  it('makes one interval per dose, the last over the previous spacing', () => {
    expect(intervals.map((i) => [i.start, i.end])).toEqual(doses.map((d) => [d.time, d.time + tau]));
    expect(val(last, 'TAU')).toBe(tau);
  });

  it('AUCτ = D/(Vk)·(1 − r^n) exactly under log-down, so CLss = Dose/AUCτ → V·k', () => {
    expect(rel(val(first, 'AUCTAU'), (dose / (v * k)) * (1 - r))).toBeLessThan(1e-10);
    expect(rel(val(last, 'AUCTAU'), (dose / (v * k)) * (1 - r ** n))).toBeLessThan(1e-10);
    expect(rel(val(last, 'CLTAU'), (v * k) / (1 - r ** n))).toBeLessThan(1e-10);
    expect(rel(val(last, 'CAVG'), (dose / (v * k * tau)) * (1 - r ** n))).toBeLessThan(1e-10);
  });

  it('C0 is back-extrapolated past the pre-dose trough: Cmax,ss = (D/V)/(1 − r); Ctrough = Cmin = Cmax,ss·r', () => {
    const cmaxSs = ((dose / v) * (1 - r ** n)) / (1 - r);
    expect(rel(val(last, 'C0'), cmaxSs)).toBeLessThan(1e-10);
    expect(rel(val(last, 'CTROUGH'), cmaxSs * r)).toBeLessThan(1e-10);
    // Cmin is the pre-dose sample at the start (one dose less accumulated than the end, by r^(n−1)); times after the dose.
    expect(val(last, 'CMIN')).toBe(c(108));
    expect(val(last, 'TMIN')).toBe(0);
    expect(val(last, 'TMAX')).toBe(0.25); // the first post-dose sample: C0 is extrapolated, not observed
  });

  it('λz = k; AILAMZ = 1/(1 − e^(−kτ)) = the observed AUCτ ratio at steady state; VZTAU = V; steady-state MRT = 1/k', () => {
    expect(rel(val(last, 'LAMZ'), k)).toBeLessThan(1e-10);
    expect(rel(val(last, 'AILAMZ'), 1 / (1 - r))).toBeLessThan(1e-10);
    expect(rel(val(last, 'ARAUC'), (1 - r ** n) / (1 - r))).toBeLessThan(1e-10);
    expect(val(first, 'ARAUC')).toBe(1);
    expect(rel(val(last, 'VZTAU'), v / (1 - r ** n))).toBeLessThan(1e-10);
    expect(rel(val(last, 'MRTIVIFO'), 1 / k)).toBeLessThan(1e-8);
  });

  it('PTR, swing and fluctuation from the observed Cmax, Cmin and Cav', () => {
    const [cmax, cmin, cav] = [val(last, 'CMAX'), val(last, 'CMIN'), val(last, 'CAVG')];
    expect(val(last, 'PTROUGHR')).toBeCloseTo(cmax / val(last, 'CTROUGH'), 12);
    expect(val(last, 'SWING')).toBeCloseTo((cmax - cmin) / cmin, 12);
    expect(val(last, 'FLUCP')).toBeCloseTo((100 * (cmax - cmin)) / cav, 10);
    expect(last.parameters.FLUCP!.unit).toBe('%');
  });
});

describe('oral every τ, one compartment (Bateman sum), linear trapezoid', () => {
  const [dose, v, k, ka, tau, n] = [100, 10, 0.2, 1.5, 12, 8];
  const a = (dose * ka) / (v * (ka - k));
  const doses = Array.from({ length: n }, (_, i) => ({ time: i * tau }));
  const c = (t: number) => doses.filter((d) => d.time <= t).reduce((s, d) => s + a * (Math.exp(-k * (t - d.time)) - Math.exp(-ka * (t - d.time))), 0);
  const time = grid(n * tau, 0.02);
  const conc = time.map(c);
  const { intervals } = ncaIntervals({ time, conc, dose }, { doses });
  const last = intervals[n - 1];
  const rk = Math.exp(-k * tau);
  const rka = Math.exp(-ka * tau);

  it('AUCτ of the n-th interval = ∫0^(nτ) C1 (→ Dose/CL at steady state) within 2e-5; CLss/F = Dose/AUCτ', () => {
    // AUCτ of the n-th interval = ∫ over the τ after dose n−1 of Σ_i C1(t − t_i) = Σ_{j<n} ∫_{jτ}^{(j+1)τ} C1 = ∫_0^{nτ} C1
    const c1Integral = (T: number) => a * ((1 - Math.exp(-k * T)) / k - (1 - Math.exp(-ka * T)) / ka);
    expect(rel(val(last, 'AUCTAU'), c1Integral(n * tau))).toBeLessThan(2e-5);
    expect(rel(val(last, 'CLFTAU'), dose / c1Integral(n * tau))).toBeLessThan(2e-5);
    expect(last.parameters.CLTAU).toBeUndefined();
  });

  it('Cmin,ss = the pre-dose trough; accumulation of Cmax near the analytic steady state', () => {
    const trough = a * (rk / (1 - rk) - rka / (1 - rka)); // Css(τ) of the infinite regimen
    expect(rel(val(last, 'CMIN'), trough)).toBeLessThan(1e-3);
    expect(val(last, 'TMIN')).toBe(0);
    const css = (t: number) => a * (Math.exp(-k * t) / (1 - rk) - Math.exp(-ka * t) / (1 - rka));
    const tmax = Math.log((ka * (1 - rk)) / (k * (1 - rka))) / (ka - k);
    expect(rel(val(last, 'CMAX'), css(tmax))).toBeLessThan(1e-3);
    expect(Math.abs(val(last, 'TMAX') - tmax)).toBeLessThanOrEqual(0.02);
  });
});

describe('conventions', () => {
  // Oral q12h: samples at 0 (pre-dose), 1, 2, 4, 8, 12 (trough and pre-dose of dose 2), 13, 14, 16, 20, 24.
  const time = [0, 1, 2, 4, 8, 12, 13, 14, 16, 20, 24];
  const conc = [0, 4, 6, 5, 3, 2, 6, 8, 6, 4, 3];
  const doses = [{ time: 0, amount: 50 }, { time: 12, amount: 50 }];

  it('Ctrough at the interval end (PKNCA) or at its start; Cmin over the interval, pre-dose included', () => {
    const [i1, i2] = ncaIntervals({ time, conc }, { doses, tau: 12 }).intervals;
    expect(val(i1, 'CTROUGH')).toBe(2);
    expect(val(i2, 'CTROUGH')).toBe(3);
    expect(val(i2, 'CMIN')).toBe(2); // the pre-dose sample at 12 belongs to the second interval too
    expect(val(i2, 'TMIN')).toBe(0);
    expect(val(i2, 'TMAX')).toBe(2); // 14 h is 2 h after the second dose
    const [, s2] = ncaIntervals({ time, conc }, { doses, tau: 12, trough: 'start' }).intervals;
    expect(val(s2, 'CTROUGH')).toBe(2);
  });

  it('worked AUCτ (linear): first 2 + 5 + 11 + 16 + 10 = 44; second 4 + 7 + 14 + 20 + 14 = 59; AUC0–24 is their sum', () => {
    const { intervals } = ncaIntervals({ time, conc }, { doses, intervals: [{ start: 0, end: 12 }, { start: 12, end: 24 }, { start: 0, end: 24 }] });
    expect(val(intervals[0], 'AUCTAU')).toBe(44);
    expect(val(intervals[1], 'AUCTAU')).toBe(59);
    expect(val(intervals[2], 'AUCINT')).toBe(103);
    expect(val(intervals[1], 'CAVG')).toBeCloseTo(59 / 12, 14);
    expect(val(intervals[1], 'CLFTAU')).toBeCloseTo(50 / 59, 14);
    expect(val(intervals[1], 'ARAUC')).toBeCloseTo(59 / 44, 14);
    expect(val(intervals[1], 'ARCMAX')).toBeCloseTo(8 / 6, 14);
  });

  it('a partial interval not starting at a dose: AUCINT interpolated, τ-parameters missing with the reason', () => {
    const [p] = ncaIntervals({ time, conc }, { doses, intervals: [{ start: 3, end: 10 }] }).intervals;
    // C(3) = 5.5, C(10) = 2.5: 1·(5.5+5)/2 + 4·(5+3)/2 + 2·(3+2.5)/2
    expect(val(p, 'AUCINT')).toBeCloseTo(5.25 + 16 + 5.5, 13);
    expect(p.parameters.AUCTAU!.value).toBeNull();
    expect(p.notes.AUCTAU).toBe('the interval does not start at a dose');
  });

  it('without a sample at a later dose time the areas are missing with a note; the first dose starts from 0', () => {
    const t2 = [1, 2, 4, 8, 11, 13, 14, 16, 20, 24];
    const c2 = [4, 6, 5, 3, 2.2, 6, 8, 6, 4, 3];
    const [i1, i2] = ncaIntervals({ time: t2, conc: c2 }, { doses, intervals: [{ start: 0, end: 11 }, { start: 12, end: 24 }] }).intervals;
    expect(val(i1, 'AUCINT')).toBe(2 + 5 + 11 + 16 + 7.8);
    expect(i2.parameters.AUCTAU!.value).toBeNull();
    expect(i2.notes.AUCTAU).toBe('no sample at the dose time 12 (add the pre-dose sample)');
    expect(val(i2, 'CMAX')).toBe(8);
  });

  it('extrapolates AUCτ past the last sample with λz, or says why it cannot', () => {
    const t3 = [0, 1, 2, 4, 6, 8];
    const c3 = [0, 8, 6, 4, 2, 1];
    const [x] = ncaIntervals({ time: t3, conc: c3 }, { doses: [{ time: 0, amount: 10 }], tau: 12 }).intervals;
    const lz = val(x, 'LAMZ');
    expect(val(x, 'AUCTAU')).toBeCloseTo(4 + 7 + 10 + 6 + 3 + (1 - Math.exp(-lz * 4)) / lz, 12);
    const [y] = ncaIntervals({ time: t3, conc: c3 }, { doses: [{ time: 0, amount: 10 }], intervals: [{ start: 0, end: 12, lambdaZ: { indices: [0, 1] } }] }).intervals;
    expect(y.notes.AUCTAU).toBe('no sample at 12 and no λz to extrapolate to it');
  });

  it('reports only the requested parameters; rejects bad intervals and doses by name', () => {
    const [r] = ncaIntervals({ time, conc }, { doses, intervals: [{ start: 0, end: 12, parameters: ['AUCTAU', 'CMAX'] }] }).intervals;
    expect(Object.keys(r.parameters)).toEqual(['CMAX', 'AUCTAU']);
    expect(() => ncaIntervals({ time, conc }, { doses, intervals: [{ start: 0, end: 12, parameters: ['CLTAU'] }] })).toThrow('intervals[0].parameters: "CLTAU"');
    expect(() => ncaIntervals({ time, conc }, { doses, intervals: [{ start: 5, end: 5 }] })).toThrow('intervals[0]');
    expect(() => ncaIntervals({ time, conc }, { doses: [{ time: 0, amount: -1 }], tau: 12 })).toThrow('doses[0].amount');
    expect(() => ncaIntervals({ time, conc }, { doses: [{ time: 0 }] })).toThrow('give `intervals` or `tau`');
  });
});
