/** Hand-checked IV bolus, IV infusion and no-dose profiles (numbers worked out in the comments). */
import { describe, expect, it } from 'vitest';
import { nca } from '../../src/nca/nca.js';
import { codesForRoute } from '../../src/nca/parameters.js';

const value = (r: ReturnType<typeof nca>, code: string) => r.parameters[code as 'CMAX']!.value;

describe('IV bolus: 8, 4, 2, 1 at 1, 2, 3, 4 h, dose 100 mg, linear AUC', () => {
  const r = nca({ time: [1, 2, 3, 4], conc: [8, 4, 2, 1], dose: 100, route: 'iv-bolus' });
  const lz = Math.LN2;
  // C0 = 8·(8/4)^(1/1) = 16; back-extrapolated area (16 + 8)/2 = 12; then 6 + 3 + 1.5.
  const auclst = 12 + 10.5;
  const aucifo = auclst + 1 / lz;
  // AUMC: 1·(0·16 + 1·8)/2 = 4, (8 + 8)/2 = 8, (8 + 6)/2 = 7, (6 + 4)/2 = 5.
  const aumclst = 24;
  const aumcifo = aumclst + (1 * 4) / lz + 1 / (lz * lz);

  it('C0, λz over all four points (Cmax included for a bolus)', () => {
    expect(value(r, 'C0')).toBeCloseTo(16, 13);
    expect(value(r, 'LAMZNPT')).toBe(4);
    expect(value(r, 'LAMZ')).toBeCloseTo(lz, 14);
    expect(value(r, 'LAMZLL')).toBe(1);
  });
  it('AUC, AUMC and the back-extrapolated share', () => {
    expect(value(r, 'AUCLST')).toBeCloseTo(auclst, 13);
    expect(value(r, 'AUCIFO')).toBeCloseTo(aucifo, 13);
    expect(value(r, 'AUMCLST')).toBeCloseTo(aumclst, 13);
    expect(value(r, 'AUMCIFO')).toBeCloseTo(aumcifo, 12);
    expect(value(r, 'AUCPBEO')).toBeCloseTo((100 * 12) / aucifo, 12);
  });
  it('CL, Vz, MRT and Vss = MRT·CL', () => {
    const cl = 100 / aucifo;
    expect(value(r, 'CLO')).toBeCloseTo(cl, 13);
    expect(value(r, 'VZO')).toBeCloseTo(cl / lz, 12);
    expect(value(r, 'MRTIVIFO')).toBeCloseTo(aumcifo / aucifo, 13);
    expect(value(r, 'VSSO')).toBeCloseTo((aumcifo / aucifo) * cl, 12);
    expect(r.parameters.VSSO!.unit).toBe('L');
    expect(r.parameters.CLO!.unit).toBe('L/h');
  });
  it('uses an observed positive value at time 0 as C0 (nothing back-extrapolated)', () => {
    const observed = nca({ time: [0, 1, 2, 3], conc: [20, 8, 4, 2], dose: 100, route: 'iv-bolus' });
    expect(value(observed, 'C0')).toBe(20);
    expect(value(observed, 'AUCPBEO')).toBe(0);
  });
});

describe('IV infusion over 1.5 h: 0, 9, 8, 4, 2, 1 at 0, 0.5, 1, 2, 3, 4 h', () => {
  const time = [0, 0.5, 1, 2, 3, 4];
  const conc = [0, 9, 8, 4, 2, 1];
  const r = nca({ time, conc, dose: 50, route: 'iv-infusion', duration: 1.5 });

  it('λz never starts before the end of the infusion (t = 1 h would fit exactly too)', () => {
    expect(value(r, 'LAMZLL')).toBe(2);
    expect(value(r, 'LAMZNPT')).toBe(3);
    const asBolus = nca({ time: time.slice(1), conc: conc.slice(1), route: 'iv-bolus' });
    expect(asBolus.lambdaZ!.times[0]).toBe(1);
  });
  it('MRT subtracts half the infusion duration', () => {
    // AUC linear: 2.25 + 4.25 + 6 + 3 + 1.5 = 17; AUMC: 1.125 + 3.125 + 8 + 7 + 5 = 24.25
    expect(value(r, 'AUCLST')).toBeCloseTo(17, 13);
    expect(value(r, 'AUMCLST')).toBeCloseTo(24.25, 13);
    expect(value(r, 'MRTIVLST')).toBeCloseTo(24.25 / 17 - 0.75, 13);
    const aucifo = 17 + 1 / Math.LN2;
    const aumcifo = 24.25 + 4 / Math.LN2 + 1 / Math.LN2 ** 2;
    expect(value(r, 'MRTIVIFO')).toBeCloseTo(aumcifo / aucifo - 0.75, 12);
    expect(value(r, 'VSSO')).toBeCloseTo((aumcifo / aucifo - 0.75) * (50 / aucifo), 12);
  });
  it('has no bolus parameters', () => {
    expect(r.parameters.C0).toBeUndefined();
    expect(Object.keys(r.parameters).sort()).toEqual([...codesForRoute('iv-infusion')].sort());
  });
  it('needs a duration', () => {
    expect(() => nca({ time, conc, route: 'iv-infusion' })).toThrow('needs a duration');
  });
});

describe('extravascular without dose; first sample after time 0; trailing zeros', () => {
  const r = nca({ time: [1, 2, 4, 6, 8, 10], conc: [4, 6, 3, 1.5, 0.75, 0] });

  it('dose-based parameters are missing with the reason', () => {
    for (const code of ['CMAXD', 'AUCIFOD', 'CLFO', 'VZFO', 'CLFP']) {
      expect(value(r, code)).toBeNull();
      expect(r.notes[code as 'CMAXD']).toBe('no dose given');
    }
  });
  it('integrates from C(0) = 0; AUCLST stops at Tlast, AUCALL runs to the trailing zero', () => {
    // (0 + 4)/2 + 5 + 9 + 4.5 + 2.25 = 22.75; AUCALL adds (0.75 + 0)·2/2 = 0.75
    expect(value(r, 'AUCLST')).toBe(22.75);
    expect(value(r, 'AUCALL')).toBe(23.5);
    expect(value(r, 'TLST')).toBe(8);
    expect(value(r, 'TLAG')).toBe(0);
    expect(value(r, 'LAMZ')).toBeCloseTo(Math.LN2 / 2, 14);
    expect(value(r, 'CMAX')).toBe(6);
  });
  it('needs 3 positive points after Cmax for λz', () => {
    const short = nca({ time: [1, 2, 4, 6, 8], conc: [4, 6, 3, 1.5, 0] });
    expect(value(short, 'LAMZ')).toBeNull();
    expect(short.notes.AUCIFO).toContain('no window of ≥ 3 positive points');
  });
  it('reports excluded rows', () => {
    const e = nca({ time: [-0.5, 0, 1, 2, 3], conc: [0.1, 0, null, 5, 2] });
    expect(e.excluded).toEqual({ missing: [2], predose: [0] });
  });
});

describe('parameter sets', () => {
  it('every route reports exactly its codes, in codesForRoute order', () => {
    const base = { time: [0, 1, 2, 3, 4], conc: [5, 4, 2, 1, 0.5], dose: 1 };
    for (const route of ['extravascular', 'iv-bolus', 'iv-infusion'] as const) {
      const r = nca({ ...base, route, duration: 0.5 });
      expect(Object.keys(r.parameters)).toEqual([...codesForRoute(route)]);
      const missing = Object.entries(r.parameters).filter(([, p]) => p!.value === null).map(([code]) => code);
      expect(Object.keys(r.notes).sort()).toEqual(missing.sort());
    }
  });
});
