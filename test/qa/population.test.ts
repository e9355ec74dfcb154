import { describe, expect, it } from 'vitest';
import type { CharacteristicaRecord, InterventionRecord } from '../../src/data/model.js';
import { characteristicaMarks, coMedication, groupNameMarks, HEALTHY, mayBeAdultHuman, mayBeHuman, populationLabel, subjectMarks } from '../../src/qa/population.js';

const STATS = { value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null };
const c = (measurement_type: string, choice: string | null): CharacteristicaRecord => ({
  ...STATS, pk: 1, count: 10, measurement_type, calculation_type: null, choice, substance: null, group_count: 10, unit: null,
});
const dose = (substance: string, measurement_type = 'dosing') => ({ measurement_type, substance }) as InterventionRecord;

describe('population', () => {
  it('marks diseases, not-healthy without a disease, pregnancy and genotypes; ignores NR and healthy', () => {
    expect(characteristicaMarks([c('disease', 'Liver cirrhosis'), c('healthy', 'N'), c('sex', 'M')])).toEqual(['disease:liver cirrhosis']);
    expect(characteristicaMarks([c('healthy', 'N')])).toEqual(['not healthy']);
    expect(characteristicaMarks([c('healthy', 'Y'), c('disease', 'NR'), c('pregnant', 'Y')])).toEqual(['pregnant']);
    expect(characteristicaMarks([c('SLCO1B1 genotype', '521CC'), c('cyp2d6 phenotype', 'NR')])).toEqual(['SLCO1B1 genotype:521cc']);
  });

  it('names co-dosed substances other than the measured one and its dose', () => {
    const set = [dose('caffeine'), dose('fluvoxamine', 'qualitative dosing'), dose('caffeine')];
    expect(coMedication(set, ['paraxanthine', 'caffeine'])).toEqual(['fluvoxamine']);
    expect(populationLabel([], [])).toBe(HEALTHY);
    expect(populationLabel(['disease:t2dm'], ['fluvoxamine'])).toBe('disease:t2dm + with:fluvoxamine');
  });

  it('marks a subject: an individual by its own marks, else by its group’s', () => {
    const groups = new Map([[1, { characteristica: [c('disease', 'cirrhosis'), c('age', null)] }]]);
    const individuals = new Map([
      [10, { group_pk: 1, characteristica: [c('sex', 'F')] }],
      [11, { group_pk: 1, characteristica: [c('cyp2d6 phenotype', 'PM')] }],
    ]);
    const dataset = { group: (pk: number) => groups.get(pk), individual: (pk: number) => individuals.get(pk) } as unknown as Parameters<typeof subjectMarks>[0];
    expect(subjectMarks(dataset, { group_pk: 1, individual_pk: null })).toEqual(['disease:cirrhosis']);
    expect(subjectMarks(dataset, { group_pk: null, individual_pk: 10 })).toEqual(['disease:cirrhosis']);
    expect(subjectMarks(dataset, { group_pk: null, individual_pk: 11 })).toEqual(['cyp2d6 phenotype:pm', 'disease:cirrhosis']);
    expect(subjectMarks(dataset, { group_pk: null, individual_pk: null })).toEqual([]);
  });

  it('takes a subject for an adult human unless it or its group names another species or an age under 18', () => {
    const age = (value: number, unit: string): CharacteristicaRecord => ({ ...c('age', null), mean: value, unit });
    const groups = new Map([
      [1, { characteristica: [c('species', 'homo sapiens'), age(35, 'year')] }],
      [2, { characteristica: [c('species', 'rattus norvegicus')] }],
      [3, { characteristica: [age(96, 'month')] }], // 8 years
      [4, { characteristica: [{ ...age(25, 'year'), min: 6 }] }], // 6–40 years: the youngest is a child
    ]);
    const individuals = new Map([[10, { group_pk: 3, characteristica: [] }]]);
    const dataset = { group: (pk: number) => groups.get(pk), individual: (pk: number) => individuals.get(pk) } as unknown as Parameters<typeof mayBeAdultHuman>[0];
    const of = (group_pk: number | null, individual_pk: number | null = null) => mayBeAdultHuman(dataset, { group_pk, individual_pk });
    expect([of(1), of(2), of(3), of(4), of(null, 10), of(null)]).toEqual([true, false, false, false, false, true]);
    // a child is human all the same; only another species is not
    const human = (group_pk: number | null, individual_pk: number | null = null) => mayBeHuman(dataset, { group_pk, individual_pk });
    expect([human(1), human(2), human(3), human(4), human(null, 10), human(null)]).toEqual([true, false, true, true, true, true]);
  });
});

describe('population: a phenotype in a group’s name', () => {
  it('marks PM, IM and UM as written, the words in any case, and nothing for extensive metabolisers or other names', () => {
    expect(groupNameMarks('PM')).toEqual(['phenotype:poor metaboliser']);
    expect(groupNameMarks('CYP2D6 PMs')).toEqual(['phenotype:poor metaboliser']);
    expect(groupNameMarks('Poor metabolizers')).toEqual(['phenotype:poor metaboliser']);
    expect(groupNameMarks('UM')).toEqual(['phenotype:ultrarapid metaboliser']);
    expect(groupNameMarks('ultra-rapid metabolisers')).toEqual(['phenotype:ultrarapid metaboliser']);
    expect(groupNameMarks('IM')).toEqual(['phenotype:intermediate metaboliser']);
    expect(groupNameMarks('slow acetylators')).toEqual(['phenotype:slow acetylator']);
    expect(groupNameMarks('EM')).toEqual([]);
    expect(groupNameMarks('em')).toEqual([]); // Greenblatt1980: elderly men
    expect(groupNameMarks('pm')).toEqual([]);
    expect(groupNameMarks('healthy volunteers')).toEqual([]);
    expect(groupNameMarks('IMPAIRED renal function')).toEqual([]);
  });

  it('gives a group named PM its mark when no characteristic curates a phenotype, and keeps a curated one alone', () => {
    const group = (name: string, characteristica: CharacteristicaRecord[] = []) => ({ pk: 1, name, count: 9, parent_pk: null, study_sid: 'S', study_name: 'S', characteristica });
    const dataset = (g: ReturnType<typeof group>) => ({ group: () => g, individual: () => undefined }) as never;
    const record = { group_pk: 1, individual_pk: null };
    expect(subjectMarks(dataset(group('PM')), record)).toEqual(['phenotype:poor metaboliser']);
    expect(subjectMarks(dataset(group('EM')), record)).toEqual([]);
    const curated = { pk: 2, count: 9, measurement_type: 'cyp2d6 phenotype', calculation_type: null, choice: 'PM', substance: null, group_count: 9, value: null, mean: null, median: null, min: null, max: null, sd: null, se: null, cv: null, unit: null };
    expect(subjectMarks(dataset(group('PM', [curated])), record)).toEqual(['cyp2d6 phenotype:pm']);
  });
});
