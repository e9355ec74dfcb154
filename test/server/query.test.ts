/** Field filters, lookups, search and ordering over API items (NOTES.md §1, §2). */
import { describe, expect, it } from 'vitest';
import { fieldFilters, fieldValues, orderItems, parseFilterKey, searchPredicate, wildcardMatcher } from '../../src/server/query.js';

const items = [
  { pk: 1, normed: true, value: 2.5, study: { sid: 'S1', name: 'Alpha2001' }, substance: { sid: 'caf', name: 'caffeine', label: 'Caffeine' }, group: null, interventions: [{ pk: 7, name: 'a' }] },
  { pk: 2, normed: false, value: null, study: { sid: 'S2', name: 'Beta2002' }, substance: null, group: { pk: 3, name: 'g', count: 4 }, interventions: [] },
  { pk: 3, normed: true, value: 10, study: { sid: 'S1', name: 'Alpha2001' }, substance: { sid: 'mdz', name: 'midazolam', label: 'Midazolam' }, group: null, interventions: [{ pk: 7, name: 'a' }, { pk: 8, name: 'b' }] },
];

function select(query: string) {
  const filters = fieldFilters([...new URLSearchParams(query).entries()]);
  return items.filter((item) => filters.every((f) => f.test(item))).map((i) => i.pk);
}

describe('field resolution', () => {
  it('reads item keys, nested `<key>_<sub>` fields, and term objects by sid and name', () => {
    expect(fieldValues(items[0], 'study_sid')).toEqual(['S1']);
    expect(fieldValues(items[0], 'substance')).toEqual(['caf', 'caffeine']);
    expect(fieldValues(items[2], 'interventions_pk')).toEqual([7, 8]);
    expect(fieldValues(items[1], 'group_pk')).toEqual([3]);
    expect(fieldValues(items[0], 'group_pk')).toEqual([]);
    expect(fieldValues(items[0], 'nothing')).toBeUndefined();
  });
});

describe('lookups', () => {
  it('equality, in, exclude, numeric comparisons, range, isnull', () => {
    expect(select('normed=true')).toEqual([1, 3]);
    expect(select('study_name=Alpha2001')).toEqual([1, 3]);
    expect(select('substance=midazolam')).toEqual([3]);
    expect(select('substance_sid__in=caf__mdz')).toEqual([1, 3]);
    expect(select('substance__exclude=caffeine')).toEqual([2, 3]);
    expect(select('value__gt=2.5')).toEqual([3]);
    expect(select('value__gte=2.5')).toEqual([1, 3]);
    expect(select('value__lt=5')).toEqual([1]);
    expect(select('value__range=1__3')).toEqual([1]);
    expect(select('value__isnull=true')).toEqual([2]);
    expect(select('interventions_pk=8')).toEqual([3]);
    expect(select('study_name__startswith=Be')).toEqual([2]);
    expect(select('study_name__wildcard=*pha*')).toEqual([1, 3]);
  });

  it('repeated plain fields are ORed; unknown fields and lookups are ignored', () => {
    expect(select('pk=1&pk=2')).toEqual([1, 2]);
    expect(select('colour=red')).toEqual([1, 2, 3]);
    expect(select('value__regexp=.*')).toEqual([1, 2, 3]);
    expect(select('page=2&format=api&ordering=pk')).toEqual([1, 2, 3]);
  });
});

describe('search and ordering', () => {
  it('search: every word a case-insensitive substring, optionally of named fields', () => {
    const hits = (q: string) => items.filter(searchPredicate(q)).map((i) => i.pk);
    expect(hits('ALPHA caff')).toEqual([1]);
    expect(hits('midaz')).toEqual([3]);
    expect(hits('study_name:beta')).toEqual([2]);
    expect(hits('substance:alpha')).toEqual([]);
    expect(hits('   ')).toEqual([1, 2, 3]);
  });

  it('ordering: repeatable keys, descending with -, missing values last, ties in default order', () => {
    const order = (...keys: string[]) => orderItems(items, keys).map((i) => i.pk);
    expect(order('-value')).toEqual([3, 1, 2]);
    expect(order('value')).toEqual([1, 3, 2]);
    expect(order('study_sid', '-pk')).toEqual([3, 1, 2]);
    expect(order('unknown')).toEqual([1, 2, 3]);
  });
});

describe('hostile names and patterns', () => {
  it('names of Object.prototype members are unknown fields, not prototype lookups', () => {
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(fieldValues(items[0], name)).toBeUndefined();
      expect(fieldValues(items[0], `study_${name}`) ?? []).toEqual([]);
      expect(select(`${name}=x`)).toEqual([1, 2, 3]);
      expect(orderItems(items, [name, `-${name}`]).map((i) => i.pk)).toEqual([1, 2, 3]);
    }
    const extra = { substance: () => ['x'] };
    expect(fieldValues(items[0], 'constructor', extra)).toBeUndefined();
  });

  it('a key splits into field and one lookup; more segments or long names are ignored', () => {
    expect(parseFilterKey('study_name__in')).toEqual({ field: 'study_name', lookup: 'in' });
    expect(parseFilterKey('study_name')).toEqual({ field: 'study_name', lookup: null });
    expect(parseFilterKey('a__b__in')).toBeNull();
    expect(parseFilterKey('name__regexp')).toBeNull();
    expect(select(`${'a__'.repeat(200)}in=1`)).toEqual([1, 2, 3]);
    expect(select(`${'a_'.repeat(300)}a=1`)).toEqual([1, 2, 3]);
    expect(fieldValues(items[0], 'a_b_c_d_e_f')).toBeUndefined();
  });

  it('wildcard: * and ? anchored, linear in the value even for many stars', () => {
    const m = (p: string, t: string) => wildcardMatcher(p)(t);
    expect(m('*pha*', 'Alpha2001')).toBe(true);
    expect(m('A?pha*1', 'Alpha2001')).toBe(true);
    expect(m('Alpha', 'Alpha2001')).toBe(false);
    expect(m('*', '')).toBe(true);
    expect(m('a*b*c', 'abxbc')).toBe(true);
    expect(m('a*b*c', 'acb')).toBe(false);
    expect(m('*ab', 'aab')).toBe(true);
    const started = performance.now();
    expect(m(`${'*a'.repeat(120)}*b`, 'a'.repeat(5000))).toBe(false);
    expect(performance.now() - started).toBeLessThan(200);
  });

  it('search: more than 16 different words is a 400, repeats count once', () => {
    expect(() => searchPredicate(Array.from({ length: 17 }, (_, i) => `w${i}`).join(' '))).toThrow(/at most 16/);
    expect(items.filter(searchPredicate(Array(50).fill('alpha').join(' '))).map((i) => i.pk)).toEqual([1, 3]);
  });
});
