import { describe, expect, it } from 'vitest';
import { matchKey } from '../../src/qa/context.js';
import { interventionSet, InterventionSets, MatchKeys } from '../../src/qa/match-keys.js';

const fields = (over: Partial<Parameters<typeof matchKey>[0]> = {}) => ({
  study_sid: 'S1', group_pk: 3, individual_pk: null, intervention_pks: [12, 7], substance: 'caffeine', tissue: 'plasma', method: null, ...over,
});

describe('interventionSet', () => {
  it('sorts the pks and joins them with commas', () => {
    expect(interventionSet([])).toBe('');
    expect(interventionSet([5])).toBe('5');
    expect(interventionSet([12, 7])).toBe('7,12');
    expect(interventionSet([9, 2, 30])).toBe('2,9,30');
  });
});

describe('MatchKeys', () => {
  it('gives the text matchKey gives, the same string for every ask of one key', () => {
    const keys = new MatchKeys(matchKey);
    const first = keys.of(fields());
    expect(first).toBe(matchKey(fields()));
    expect(first).toBe('S1|g3|7,12|caffeine|plasma|');
    expect(keys.of(fields({ intervention_pks: [7, 12] }))).toBe(first);
    expect(keys.of(fields(), '7,12')).toBe(first);
  });
  it('keeps a group apart from an individual of the same pk, and each field apart', () => {
    const keys = new MatchKeys(matchKey);
    expect(keys.of(fields({ group_pk: null, individual_pk: 3 }))).toBe('S1|i3|7,12|caffeine|plasma|');
    expect(keys.of(fields({ group_pk: null, individual_pk: null }))).toBe('S1|i|7,12|caffeine|plasma|');
    expect(keys.of(fields({ tissue: 'urine' }))).toBe('S1|g3|7,12|caffeine|urine|');
    expect(keys.of(fields({ substance: null }))).toBe('S1|g3|7,12||plasma|');
    expect(keys.of(fields({ study_sid: 'S2' }))).toBe('S2|g3|7,12|caffeine|plasma|');
  });
});

describe('InterventionSets', () => {
  it('gives interventionSet of every list, the same string for the same set of one or two pks', () => {
    const sets = new InterventionSets();
    for (const pks of [[], [7], [12, 3], [3, 12], [5, 5], [9, 2, 4]]) expect(sets.of(pks)).toBe(interventionSet(pks));
    expect(sets.of([12, 3])).toBe('3,12');
    expect(sets.of([9, 2, 4])).toBe('2,4,9');
  });
});
