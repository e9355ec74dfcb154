import { describe, expect, it } from 'vitest';
import { loadFixtures } from '../../src/data/fixtures.js';
import { filterStudies, resolveStudies } from '../../src/data/select.js';

const studies = [
  { sid: 'PKDB00198', name: 'Volak2013' },
  { sid: 'PKDB00199', name: 'Lee2010' },
  { sid: 'PKDB00200', name: 'Lee2010' },
  { sid: 'Lee2010', name: 'Odd' },
];

describe('resolveStudies', () => {
  it('takes sids and names, a sid first, then the exact name, then the name in any case', () => {
    expect(resolveStudies(studies, ['Volak2013'])).toEqual({ sids: ['PKDB00198'], unknown: [] });
    expect(resolveStudies(studies, ['volak2013', 'PKDB00198'])).toEqual({ sids: ['PKDB00198'], unknown: [] });
    // A value that is a sid is that study, even when another study has it as its name.
    expect(resolveStudies(studies, ['Lee2010']).sids).toEqual(['Lee2010']);
    expect(resolveStudies(studies, ['LEE2010']).sids).toEqual(['PKDB00199', 'PKDB00200']);
  });

  it('lists the values that match no study', () => {
    expect(resolveStudies(studies, ['Nobody1999', 'PKDB00198'])).toEqual({ sids: ['PKDB00198'], unknown: ['Nobody1999'] });
  });

  it('feeds filterStudies on the fixtures', async () => {
    const { tables } = await loadFixtures();
    const { sids } = resolveStudies(tables.studies, ['Synthetic2020b']);
    expect(sids).toEqual(['SYN0002']);
    const selected = filterStudies(tables, sids);
    expect(selected.studies.map((s) => s.sid)).toEqual(['SYN0002']);
    expect(selected.outputs.length).toBeGreaterThan(0);
    expect(selected.outputs.every((o) => o.study_sid === 'SYN0002')).toBe(true);
  });
});
