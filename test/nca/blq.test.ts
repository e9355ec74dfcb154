/** BLQ rules by position (PKNCA clean.conc.blq), BLQ cells in tables, and `pkdb nca --blq`. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { applyBlq, BLQ_PRESETS, blqRules } from '../../src/nca/blq.js';
import { concentrationCell, ncaByGroup } from '../../src/nca/group.js';
import { nca } from '../../src/nca/nca.js';

const time = [0, 1, 2, 4, 6, 8, 12];
const conc = [null, 5, null, 4, 2, null, null];
const blq = [true, false, true, false, false, true, true];

describe('applyBlq: positions and rules', () => {
  it('PKNCA default: first keep (as 0), middle drop, last keep (as 0)', () => {
    const r = applyBlq({ time, conc, blq }, BLQ_PRESETS.pknca);
    expect(r.conc).toEqual([0, 5, null, 4, 2, 0, 0]);
    expect(r.blq).toEqual([0, 2, 5, 6]);
    expect(r.dropped).toEqual([2]);
  });

  it('positions follow time, not row order; a value below the LLOQ is BLQ and `keep` keeps its number', () => {
    const r = applyBlq({ time: [12, 0, 1, 4], conc: [0.3, 0.2, 5, 4], lloq: 0.5 }, { first: 'keep', middle: 'drop', last: 'lloq/2' });
    expect(r.conc).toEqual([0.25, 0.2, 5, 4]);
  });

  it('a profile with no measurable value is all `first`; lloq rules need an LLOQ', () => {
    expect(applyBlq({ time: [0, 1], conc: [null, null], blq: [true, true] }, BLQ_PRESETS.pknca).conc).toEqual([0, 0]);
    expect(() => applyBlq({ time, conc, blq }, { first: 'lloq', middle: 'drop', last: 'drop' })).toThrow(/row 1 is BLQ and the rule "lloq" needs an LLOQ/);
    expect(() => blqRules('winnonlin' as never)).toThrow(/pknca, missing, zero/);
  });
});

describe('nca with BLQ input', () => {
  it('PKNCA default: AUClast 22 (0→1: 2.5, 1→4: 13.5, 4→6: 6), AUCall 24 (to the trailing zero at 8); the middle BLQ row dropped and reported', () => {
    const r = nca({ time, conc, blq, dose: 100 }, {});
    expect(r.parameters.AUCLST?.value).toBeCloseTo(22, 12);
    expect(r.parameters.AUCALL?.value).toBeCloseTo(24, 12);
    expect(r.parameters.TLST?.value).toBe(6);
    expect(r.excluded).toEqual({ missing: [], predose: [], blq: [2] });
  });

  it('`missing` drops every BLQ row: AUCall = AUClast = 22; LLOQ/2 everywhere makes Tlast 12', () => {
    const m = nca({ time, conc, blq }, { blq: 'missing' });
    expect(m.parameters.AUCALL?.value).toBeCloseTo(22, 12);
    expect(m.excluded.blq).toEqual([0, 2, 5, 6]);
    const h = nca({ time, conc, blq, lloq: 0.5 }, { blq: { first: 'lloq/2', middle: 'lloq/2', last: 'lloq/2' } });
    expect(h.parameters.TLST?.value).toBe(12);
    expect(h.parameters.CLST?.value).toBe(0.25);
  });

  it('missing values are still dropped and reported as missing, not BLQ', () => {
    const r = nca({ time: [0, 1, 2, 4], conc: [null, 5, null, 2], blq: [true, false, false, false] }, {});
    expect(r.excluded).toEqual({ missing: [2], predose: [], blq: [] });
  });
});

describe('BLQ cells', () => {
  it('"BLQ", "<LLOQ" and "<0.1" are BLQ (the last with its LLOQ); other text is an error', () => {
    expect(concentrationCell('BLQ', 'x')).toEqual({ value: null, blq: true, lloq: null });
    expect(concentrationCell(' <0.1 ', 'x')).toEqual({ value: null, blq: true, lloq: 0.1 });
    expect(concentrationCell('4.5', 'x')).toEqual({ value: 4.5, blq: false, lloq: null });
    expect(() => concentrationCell('<abc', 'row 3')).toThrow(/row 3: "<abc" is not a BLQ cell/);
  });

  it('ncaByGroup reads BLQ cells per subject; a "<0.5" cell gives its row the LLOQ for lloq/2', () => {
    const rows = [['A', 0, '<0.5'], ['A', 1, 5], ['A', 4, 4], ['A', 6, 2], ['A', 8, 'BLQ']].map(([s, t, c]) => ({ s, t, c }));
    const [a] = ncaByGroup(rows, { subject: 's', time: 't', conc: 'c' }, {}, { blq: { first: 'lloq/2', middle: 'drop', last: 'zero' } });
    expect(a.result?.parameters.AUCLST?.value).toBeCloseTo(0.5 * 1 * (0.25 + 5) + 13.5 + 6, 12);
  });

  it('pkdb nca --blq missing / default on a CSV with BLQ cells', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pkdb-blq-'));
    const input = join(dir, 'p.csv');
    writeFileSync(input, ['subject,time,conc', 'A,0,BLQ', 'A,1,5', 'A,2,<0.5', 'A,4,4', 'A,6,2', 'A,8,BLQ', 'A,12,BLQ'].join('\n'));
    const out = join(dir, 'o.json');
    expect(await main(['nca', input, '--format', 'json', '--out', out])).toBe(0);
    const [pknca] = JSON.parse(readFileSync(out, 'utf8'));
    expect(pknca.parameters.AUCALL.value).toBeCloseTo(24, 12);
    expect(pknca.excluded.blq).toEqual([2]);
    expect(await main(['nca', input, '--blq', 'missing', '--format', 'json', '--out', out])).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8'))[0].parameters.AUCALL.value).toBeCloseTo(22, 12);
    expect(await main(['nca', input, '--blq', 'drop,zero,bad'])).toBe(2);
  });
});
