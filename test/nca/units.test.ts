import { describe, expect, it } from 'vitest';
import { nca, NcaInputError, type NcaInput, type NcaResult, type Pptestcd } from '../../src/nca/index.js';
import { volumeScale } from '../../src/nca/units.js';

/** Halving every 2 h after the peak: AUCLST 22.75, λz ln2/2, AUCIFO 22.75 + 0.75/λz (in T*C of the input). */
const ORAL = { time: [0, 1, 2, 4, 6, 8], conc: [0, 4, 6, 3, 1.5, 0.75], dose: 100 };
const LAMZ = Math.LN2 / 2;
const AUCIFO = 22.75 + 0.75 / LAMZ;

const param = (r: NcaResult, code: Pptestcd) => r.parameters[code]!;
const value = (r: NcaResult, code: Pptestcd) => param(r, code).value as number;
const relative = (a: number, b: number) => Math.abs(a / b - 1);

describe('volumeScale: D/C as a volume', () => {
  it('gives the exact factor to the volume unit where D/C converts', () => {
    // 1 ug/(ng/mL) = 1e-6 g / (1e-9 g / 1e-3 L) = 1 L; 1 mg/(ug/mL) = 1e-3 / (1e-6/1e-3) L = 1 L
    expect(volumeScale('ug', 'ng/mL', 'L')).toEqual({ unit: 'L', factor: 1 });
    expect(volumeScale('mg', 'ug/mL', 'L')).toEqual({ unit: 'L', factor: 1 });
    expect(volumeScale('mg', 'mg/L', 'L')).toEqual({ unit: 'L', factor: 1 });
    // 1 g/(mg/L) = 1000 L; 1 mg/(mg/dL) = 1 dL = 0.1 L; 1 ug/(ng/mL) = 1000 mL
    expect(volumeScale('g', 'mg/L', 'L')).toEqual({ unit: 'L', factor: 1000 });
    expect(volumeScale('mg', 'mg/dL', 'L')).toEqual({ unit: 'L', factor: 0.1 });
    expect(volumeScale('ug', 'ng/mL', 'mL')).toEqual({ unit: 'mL', factor: 1000 });
    // molar over molar cancels like mass over mass
    expect(volumeScale('mmol', 'umol/mL', 'L')).toEqual({ unit: 'L', factor: 1 });
  });

  it('keeps the composed unit and factor 1 where D/C is not a volume', () => {
    expect(volumeScale('mg', 'nmol/L', 'L')).toEqual({ unit: 'mg/(nmol/L)', factor: 1 });
    expect(volumeScale('IU', 'ng/mL', 'L')).toEqual({ unit: 'IU/(ng/mL)', factor: 1 });
    expect(volumeScale('mg/kg', 'mg/L', 'L')).toEqual({ unit: 'mg/kg/(mg/L)', factor: 1 });
    expect(volumeScale('mg', 'widgets/L', 'L')).toEqual({ unit: 'mg/(widgets/L)', factor: 1 });
    // an unknown amount that cancels still reads as the conc's denominator, unconverted
    expect(volumeScale('widgets', 'widgets/L', 'mL')).toEqual({ unit: 'L', factor: 1 });
  });

  it('rejects a volume unit that is not a volume', () => {
    expect(() => volumeScale('mg', 'mg/L', 'kg')).toThrow(NcaInputError);
    expect(() => nca({ ...ORAL, volumeUnit: 'hours' })).toThrow(/volume unit must be a volume/);
  });
});

describe('standard profile: volumes in L, clearances in L per time unit', () => {
  const run = (units: Partial<NcaInput>) => nca({ ...ORAL, ...units });
  // mg over nmol/L does not convert without a molar mass: the values as the inputs imply them
  const unscaled = run({ doseUnit: 'mg', concUnit: 'nmol/L' });

  it('leaves dose mg + conc mg/L exactly as computed, in L and L/h', () => {
    const common = run({});
    for (const code of ['CLFO', 'CLFP', 'VZFO', 'VZFP'] as const) expect(value(common, code)).toBe(value(unscaled, code));
    expect(param(common, 'CLFO').unit).toBe('L/h');
    expect(param(common, 'VZFO').unit).toBe('L');
    expect(relative(value(common, 'CLFO'), 100 / AUCIFO)).toBeLessThan(1e-12);
  });

  it('keeps the composed unit for mg + nmol/L without a molar mass', () => {
    expect(param(unscaled, 'CLFO').unit).toBe('mg/(nmol/L)/h');
    expect(param(unscaled, 'VZFP').unit).toBe('mg/(nmol/L)');
  });

  it('reports ug + ng/mL over min in L and L/min (1 ug/(ng/mL) = 1 L)', () => {
    const r = run({ doseUnit: 'ug', concUnit: 'ng/mL', timeUnit: 'min' });
    expect(param(r, 'CLFO')).toEqual({ value: value(unscaled, 'CLFO'), unit: 'L/min' });
    expect(param(r, 'VZFO')).toEqual({ value: value(unscaled, 'VZFO'), unit: 'L' });
    expect(relative(value(r, 'VZFO'), 100 / AUCIFO / LAMZ)).toBeLessThan(1e-12);
    // concentrations and areas are not converted
    expect(param(r, 'AUCLST')).toEqual({ value: 22.75, unit: 'min*ng/mL' });
  });

  it('scales g + mg/L by 1000 L per g/(mg/L)', () => {
    const r = run({ doseUnit: 'g', concUnit: 'mg/L' });
    expect(param(r, 'CLFO').unit).toBe('L/h');
    expect(relative(value(r, 'CLFO'), (1000 * 100) / AUCIFO)).toBeLessThan(1e-12);
    expect(relative(value(r, 'VZFP'), 1000 * value(unscaled, 'VZFP'))).toBeLessThan(1e-15);
  });

  it('reports mg + ug/mL in L, and mL when asked', () => {
    const inLitres = run({ doseUnit: 'mg', concUnit: 'ug/mL' });
    expect(param(inLitres, 'VZFO')).toEqual({ value: value(unscaled, 'VZFO'), unit: 'L' });
    const inMillilitres = run({ doseUnit: 'mg', concUnit: 'ug/mL', volumeUnit: 'mL' });
    expect(param(inMillilitres, 'CLFO').unit).toBe('mL/h');
    expect(param(inMillilitres, 'VZFO').unit).toBe('mL');
    expect(relative(value(inMillilitres, 'CLFO'), 1000 * value(inLitres, 'CLFO'))).toBeLessThan(1e-15);
  });

  it('scales the intravascular CL, VZ and VSS alike', () => {
    const bolus = { time: [1, 2, 3, 4], conc: [8, 4, 2, 1], dose: 100, route: 'iv-bolus' as const };
    const base = nca({ ...bolus, doseUnit: 'mg', concUnit: 'nmol/L' });
    const grams = nca({ ...bolus, doseUnit: 'g', concUnit: 'mg/L' });
    for (const code of ['CLO', 'CLP', 'VZO', 'VZP', 'VSSO', 'VSSP'] as const) {
      expect(relative(value(grams, code), 1000 * value(base, code))).toBeLessThan(1e-15);
    }
    expect(param(grams, 'VSSO').unit).toBe('L');
    expect(param(grams, 'CLP').unit).toBe('L/h');
  });
});
