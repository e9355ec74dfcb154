/** Urinary excretion against a one-compartment model with known fe: Ae, fe, rates, CLR = ke·V. */
import { describe, expect, it } from 'vitest';
import { NcaInputError } from '../../src/nca/clean.js';
import { collectionsFromCumulative, urineNca } from '../../src/nca/urine.js';

const rel = (a: number | null, b: number) => Math.abs((a as number) - b) / Math.abs(b);

// IV bolus D = 100 mg, V = 20 L, k = 0.2/h of which ke = 0.08/h renal: fe = ke/k = 0.4, CLR = ke·V = 1.6 L/h.
const [dose, v, k, ke] = [100, 20, 0.2, 0.08];
const fe = ke / k;
const ae = (t: number) => dose * fe * -Math.expm1(-k * t);
const bounds = [0, 2, 4, 8, 12, 24];
const collections = bounds.slice(1).map((end, i) => ({ start: bounds[i], end, amount: ae(end) - ae(bounds[i]) }));
const ptime = [0, 0.5, 1, 2, 4, 6, 8, 12, 16, 24];
const plasma = { time: ptime, conc: ptime.map((t) => (dose / v) * Math.exp(-k * t)), concUnit: 'mg/L', method: 'lin-up-log-down' as const };

describe('urineNca: one-compartment IV bolus, fe = 0.4', () => {
  const r = urineNca({ collections, dose, doseUnit: 'mg', amountUnit: 'mg', timeUnit: 'h', plasma });

  it('RCAMINT = D·fe·(1 − e^(−k·24)); FREXINT = fe·(1 − e^(−4.8)) = 0.39671; RCPCINT = 100·FREXINT', () => {
    expect(rel(r.parameters.RCAMINT.value, 40 * -Math.expm1(-4.8))).toBeLessThan(1e-12);
    expect(r.parameters.FREXINT.value).toBeCloseTo(0.396708, 6);
    expect(rel(r.parameters.RCPCINT.value, 100 * r.parameters.FREXINT.value!)).toBeLessThan(1e-14);
    expect(r.parameters.RCAMINT.unit).toBe('mg');
    expect(r.parameters.FREXINT.unit).toBe('');
  });

  it('ERMAX is the first collection: 40·(1 − e^(−0.4))/2 = 6.5936 mg/h at the midpoint 1 h; ERLST of [12, 24] at 18 h', () => {
    expect(rel(r.parameters.ERMAX.value, (40 * -Math.expm1(-0.4)) / 2)).toBeLessThan(1e-12);
    expect(r.parameters.ERMAX.value).toBeCloseTo(6.5936, 4);
    expect(r.parameters.ERTMAX.value).toBe(1);
    expect(rel(r.parameters.ERLST.value, (ae(24) - ae(12)) / 12)).toBeLessThan(1e-12);
    expect(r.parameters.ERTLST.value).toBe(18);
    expect(r.parameters.ERMAX.unit).toBe('mg/h');
  });

  it('RENALCL = Ae(0, 24)/AUC(0, 24) = ke·V = 1.6 L/h (log-down exact on the exponential)', () => {
    expect(rel(r.parameters.RENALCL.value, ke * v)).toBeLessThan(1e-12);
    expect(r.parameters.RENALCL.unit).toBe('L/h');
  });

  it('plasma sampled only to 12 h: AUC(0, 24) extrapolated with λz, CLR still 1.6 L/h', () => {
    const short = { ...plasma, time: ptime.slice(0, 8), conc: plasma.conc.slice(0, 8) };
    const s = urineNca({ collections, dose, plasma: short });
    expect(rel(s.parameters.RENALCL.value, ke * v)).toBeLessThan(1e-10);
  });

  it('cumulative amounts give the same collections and parameters', () => {
    const c = urineNca({ cumulative: { time: bounds.slice(1), amount: bounds.slice(1).map(ae) }, dose, plasma });
    expect(rel(c.parameters.RCAMINT.value, r.parameters.RCAMINT.value!)).toBeLessThan(1e-12);
    expect(rel(c.parameters.ERMAX.value, r.parameters.ERMAX.value!)).toBeLessThan(1e-12);
    expect(c.collections.map((x) => x.midpoint)).toEqual([1, 3, 6, 10, 18]);
    expect(rel(c.collections[4].cumulative, ae(24))).toBeLessThan(1e-12);
  });

  it('volume × concentration in mL and µg/mL gives mg; VOLPK sums the volumes', () => {
    const vols = [400, 300, 500, 450, 900];
    const byConc = collections.map((c, i) => ({ start: c.start, end: c.end, volume: vols[i], conc: (1000 * c.amount) / vols[i] }));
    const u = urineNca({ collections: byConc, dose, urineVolumeUnit: 'mL', urineConcUnit: 'ug/mL', amountUnit: 'mg' });
    expect(rel(u.parameters.RCAMINT.value, ae(24))).toBeLessThan(1e-12);
    expect(u.parameters.VOLPK).toEqual({ value: 2550, unit: 'mL' });
  });

  it('molar amounts against a mass dose use the molar mass: 100 mg of 250 g/mol is 400 µmol', () => {
    const molar = collections.map((c) => ({ ...c, amount: (c.amount * 1000) / 250 }));
    const u = urineNca({ collections: molar, dose: 100, doseUnit: 'mg', amountUnit: 'umol', molarMass: 250 });
    expect(rel(u.parameters.FREXINT.value, fe * -Math.expm1(-4.8))).toBeLessThan(1e-12);
    expect(() => urineNca({ collections: molar, dose: 100, doseUnit: 'mg', amountUnit: 'umol' })).toThrow(/molar mass/);
  });
});

describe('urineNca: missing and bad input', () => {
  it('a collection without an amount leaves Ae, fe and CLR missing with a note; the rates of the others stay', () => {
    const gap = collections.map((c, i) => (i === 2 ? { start: c.start, end: c.end } : c));
    const r = urineNca({ collections: gap, dose, plasma });
    expect(r.parameters.RCAMINT.value).toBeNull();
    expect(r.notes.RCAMINT).toBe('collection [4, 8] has no amount');
    expect(r.notes.FREXINT).toBe(r.notes.RCAMINT);
    expect(r.parameters.RENALCL.value).toBeNull();
    expect(r.parameters.ERMAX.value).toBeCloseTo(6.5936, 4);
  });

  it('overlapping collections, a reversed one, decreasing cumulative times are errors naming them', () => {
    expect(() => urineNca({ collections: [{ start: 0, end: 4, amount: 1 }, { start: 2, end: 6, amount: 1 }] })).toThrow(/\[0, 4\] and \[2, 6\] overlap/);
    expect(() => urineNca({ collections: [{ start: 4, end: 2, amount: 1 }] })).toThrow(NcaInputError);
    expect(() => collectionsFromCumulative([4, 2], [1, 2])).toThrow(/increase strictly/);
    expect(() => urineNca({ collections: [] })).toThrow(/at least one collection/);
  });

  it('no dose, no plasma: FREXINT and RENALCL missing with the reason', () => {
    const r = urineNca({ collections });
    expect(r.notes.FREXINT).toBe('no dose given');
    expect(r.notes.RENALCL).toBe('no plasma profile given');
  });
});
