import { describe, expect, it } from 'vitest';
import { dosesItself, namedAfterDose } from '../../src/qa/substance-relations.js';

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
