/** The parameter table: one row per code, well ordered, every route's set as documented. */
import { describe, expect, it } from 'vitest';
import { codesForRoute, PARAMETER, PARAMETERS, parameterRows, PPTESTCD } from '../../src/nca/parameters.js';
import { parameterUnits } from '../../src/nca/units.js';

describe('parameter table', () => {
  it('has one row per code, CDISC-shaped (≤ 8 upper-case characters)', () => {
    expect(new Set(PPTESTCD).size).toBe(PARAMETERS.length);
    for (const code of PPTESTCD) expect(code).toMatch(/^[A-Z][A-Z0-9]{1,7}$/);
    expect(PARAMETER.AUCIFO.test).toBe('AUC Infinity Obs');
  });

  it('each row reads only rows above it (v.CODE in its function)', () => {
    PARAMETERS.forEach((row, i) => {
      for (const [, code] of row.compute.toString().matchAll(/\bv\.([A-Z0-9]+)/g)) {
        const at = PPTESTCD.indexOf(code as never);
        expect(at, `${row.code} reads ${code}`).toBeGreaterThanOrEqual(0);
        expect(at, `${row.code} reads ${code}, which comes later`).toBeLessThan(i);
      }
    });
  });

  it('keeps the single-dose sets and their order (the CSV columns of pkdb nca)', () => {
    const common = [
      'CMAX', 'TMAX', 'CLST', 'TLST', 'CLSTP', 'AUCLST', 'AUCALL', 'AUCIFO', 'AUCIFP', 'AUCPEO', 'AUCPEP',
      'LAMZ', 'LAMZHL', 'LAMZNPT', 'LAMZLL', 'LAMZUL', 'LAMZSPN', 'R2', 'R2ADJ', 'CORRXY',
      'AUMCLST', 'AUMCIFO', 'AUMCIFP', 'AUMCPEO', 'AUMCPEP', 'CMAXD', 'AUCIFOD', 'AUCIFPD',
    ];
    const iv = ['MRTIVLST', 'MRTIVIFO', 'MRTIVIFP', 'CLO', 'CLP', 'VZO', 'VZP', 'VSSO', 'VSSP'];
    expect(codesForRoute('extravascular')).toEqual([...common, 'TLAG', 'MRTEVLST', 'MRTEVIFO', 'MRTEVIFP', 'CLFO', 'CLFP', 'VZFO', 'VZFP']);
    expect(codesForRoute('iv-infusion')).toEqual([...common, ...iv]);
    expect(codesForRoute('iv-bolus')).toEqual([...common, ...iv, 'C0', 'AUCPBEO', 'AUCPBEP']);
  });

  it('interval sets: steady-state CL is CLFTAU after an oral dose and CLTAU after an IV one', () => {
    const ev = codesForRoute('extravascular', 'interval');
    const bolus = codesForRoute('iv-bolus', 'interval');
    expect(ev).toEqual(expect.arrayContaining(['AUCTAU', 'CMIN', 'CTROUGH', 'CAVG', 'PTROUGHR', 'SWING', 'FLUCP', 'AILAMZ', 'ARAUC', 'CLFTAU', 'VZFTAU', 'MRTEVIFO']));
    expect(ev).not.toContain('CLTAU');
    expect(ev).not.toContain('CLFO'); // Dose/AUC∞ is a single-dose clearance
    expect(bolus).toEqual(expect.arrayContaining(['CLTAU', 'VZTAU', 'C0', 'MRTIVIFO']));
    expect(parameterRows('iv-infusion', 'interval').every((r) => r.scopes.includes('interval'))).toBe(true);
  });

  it('gives every code a unit from its rule', () => {
    const { units } = parameterUnits({ time: 'h', conc: 'ng/mL', dose: 'ug', volume: 'L' });
    expect(units.AUCTAU).toBe('h*ng/mL');
    expect(units.AUMCTAU).toBe('h^2*ng/mL');
    expect(units.CAVG).toBe('ng/mL');
    expect(units.CLFTAU).toBe('L/h');
    expect(units.VZTAU).toBe('L');
    expect(units.FLUCP).toBe('%');
    expect(units.SWING).toBe('');
    expect(units.TAU).toBe('h');
    expect(units.LAMZ).toBe('1/h');
    expect(units.AUCIFOD).toBe('h*ng/mL/ug');
  });
});
