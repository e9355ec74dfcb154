import { describe, expect, it } from 'vitest';
import { COUNTER_ION_MASS, dosesItself, namedAfterDose, SALT_WORDS, saltBase } from '../../src/qa/substance-relations.js';

describe('dosesItself', () => {
  it('is the substance itself or a salt of it', () => {
    expect(dosesItself('codeine', 'codeine')).toBe(true);
    expect(dosesItself('codeine phosphate', 'codeine')).toBe(true);
    expect(dosesItself('morphine sulfate', 'morphine')).toBe(true);
    expect(dosesItself('codeine phosphate', 'morphine')).toBe(false);
    expect(dosesItself('caffeine extract', 'caffeine')).toBe(false); // not a counter-ion
    expect(dosesItself(null, 'caffeine')).toBe(false);
  });
});

describe('namedAfterDose', () => {
  it('takes a metabolite named after the dose (without its counter-ion), not one named otherwise', () => {
    expect(namedAfterDose('codeine phosphate', 'norcodeine')).toBe(true);
    expect(namedAfterDose('codeine phosphate', 'codeine-6-glucuronide')).toBe(true);
    expect(namedAfterDose('paracetamol', 'paracetamol sulfate')).toBe(true);
    expect(namedAfterDose('codeine phosphate', 'morphine')).toBe(false);
    expect(namedAfterDose('caffeine', 'paraxanthine')).toBe(false);
    expect(namedAfterDose('torasemide', 'sodium')).toBe(false);
  });
});

describe('saltBase', () => {
  const masses: Record<string, number> = { codeine: 299.36, morphine: 285.34, diclofenac: 296.15 };
  const molarMass = (name: string) => masses[name] ?? null;

  it("gives the base and its share of the salt's mass, M / (M + counter-ion per base)", () => {
    // codeine phosphate (1:1 with H3PO4, 97.99): 299.36 / 397.35 = 0.7534
    expect(saltBase('codeine phosphate', molarMass)).toEqual({ base: 'codeine', fraction: 299.36 / (299.36 + 97.99) });
    expect(saltBase('codeine phosphate', molarMass)!.fraction).toBeCloseTo(0.7534, 4);
    // morphine sulfate (2:1 with H2SO4, 98.08 / 2 per morphine): 285.34 / 334.38 = 0.8533
    expect(saltBase('morphine sulfate', molarMass)!.fraction).toBeCloseTo(0.8533, 4);
    // diclofenac sodium (Na for H: +21.98): 296.15 / 318.13 = 0.9309
    expect(saltBase('diclofenac sodium', molarMass)!.fraction).toBeCloseTo(0.9309, 4);
  });

  it('is null for a name without a counter-ion, or a base of unknown molar mass', () => {
    expect(saltBase('codeine', molarMass)).toBeNull();
    expect(saltBase('caffeine extract', molarMass)).toBeNull();
    expect(saltBase('quinine sulfate', molarMass)).toBeNull();
    expect(saltBase(null, molarMass)).toBeNull();
  });

  it('knows a mass for every counter-ion word dosesItself accepts', () => {
    expect([...SALT_WORDS].sort()).toEqual(Object.keys(COUNTER_ION_MASS).sort());
  });
});
