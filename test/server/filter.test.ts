/** /filter/ parameter parsing (NOTES.md §2) and the stored form of a filter result. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeSelection, encodeSelection, parseFilterRequest, type Selection } from '../../src/server/filter.js';

describe('filter parameters', () => {
  it('concise is false only for "false", download true only for "true", the last value wins', () => {
    const parse = (q: string) => parseFilterRequest(new URLSearchParams(q));
    expect(parse('').concise).toBe(true);
    expect(parse('concise=False').concise).toBe(true);
    expect(parse('concise=false').concise).toBe(false);
    expect(parse('concise=false&concise=1').concise).toBe(true);
    expect(parse('download=True').download).toBe(false);
    expect(parse('download=true').download).toBe(true);
  });

  it('strips the table prefix, keeps the last of repeated keys and ignores subsets__ and unknown prefixes', () => {
    const request = parseFilterRequest(
      new URLSearchParams('studies__sid=A&studies__sid=B&outputs__measurement_type_sid__in=auc_inf__cmax&subsets__name=x&other=1'),
    );
    expect([...request.prefixed.keys()]).toEqual(['studies', 'outputs']);
    expect(request.prefixed.get('studies')?.get('sid')).toBe('B');
    expect(request.prefixed.get('outputs')?.get('measurement_type_sid__in')).toBe('auc_inf__cmax');
  });
});

describe('stored filter results', () => {
  it('encode/decode is the identity on any selection', () => {
    const pks = fc.uniqueArray(fc.integer({ min: 0, max: 2 ** 31 }), { maxLength: 200 });
    fc.assert(
      fc.property(fc.uniqueArray(fc.string(), { maxLength: 20 }), pks, pks, pks, pks, pks, pks, (sids, g, i, iv, o, t, s) => {
        const selection: Selection = {
          studies: new Set(sids),
          groups: new Set(g),
          individuals: new Set(i),
          interventions: new Set(iv),
          outputs: new Set(o),
          timecourses: new Set(t),
          scatters: new Set(s),
        };
        const back = decodeSelection(encodeSelection(selection));
        for (const table of Object.keys(selection) as (keyof Selection)[]) {
          expect([...back[table]].sort()).toEqual([...selection[table]].sort());
        }
      }),
    );
  });

  it('a dense result of 60 000 pks stays small', () => {
    const outputs = new Set(Array.from({ length: 60_000 }, (_, k) => 1000 + k * 2));
    const bytes = encodeSelection({ studies: new Set(['S1']), groups: new Set(), individuals: new Set(), interventions: new Set(), outputs, timecourses: new Set(), scatters: new Set() });
    expect(bytes.byteLength).toBeLessThan(5_000);
    expect(decodeSelection(bytes).outputs.size).toBe(60_000);
  });
});
