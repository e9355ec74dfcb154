import { describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import { prepareContext } from '../../src/qa/context.js';
import { marksPopulation, subjectMarks } from '../../src/qa/population.js';

describe('prepareContext', () => {
  it('reports a dose time whose unit does not convert to the timecourse time unit as a unit finding on the dose', async () => {
    const fixtures = await loadFixtures();
    const clean = prepareContext(fixtures);
    const rt = clean.timecourses.find((t) => t.dose !== null && t.dosingPks.length === 1);
    expect(rt).toBeDefined();
    expect(clean.findings.filter((f) => f.kind === 'unit')).toEqual([]);
    const pk = rt!.dosingPks[0];
    const tables = {
      ...fixtures.tables,
      interventions: fixtures.tables.interventions.map((i) => (i.pk === pk ? { ...i, time: '1', time_unit: 'gram' } : i)),
    };
    const ctx = prepareContext(Dataset.fromTables(tables, fixtures.source));
    const found = ctx.findings.filter((f) => f.kind === 'unit' && f.intervention_pk === pk);
    expect(found.length).toBeGreaterThan(0);
    expect(found.map((f) => f.subset_pk)).toContain(rt!.tc.subset_pk);
    expect(found[0]).toMatchObject({ severity: 'minor', culprit: 'dose' });
    expect(found[0].message).toContain("dose time 1 'gram' does not convert");
  });

  it('names a timecourse’s substance as its outputs and dosings do, where the export writes the sid (the fixtures’ caf, glc)', async () => {
    const ctx = prepareContext(await loadFixtures());
    const byName = new Map(ctx.timecourses.map((rt) => [rt.tc.substance, rt.substance]));
    expect(byName.get('caf')).toBe('caffeine');
    expect(byName.get('glc')).toBe('glucose');
    // every one is its first member output's substance, so a dosing of it is found by name
    for (const rt of ctx.timecourses) expect(rt.substance).toBe(ctx.dataset.memberOutputs(rt.tc)[0]?.substance ?? rt.tc.substance);
  });

  it('keeps one list of population marks per subject: an individual without marks of its own has its group’s', async () => {
    const loaded = await loadFixtures();
    // One individual of a group stripped of the characteristica that mark a population (its age and sex stay).
    const first = loaded.tables.individuals.find((i) => i.group_pk !== null)!;
    const individuals = loaded.tables.individuals.map((i) => (i === first ? { ...i, characteristica: i.characteristica.filter((c) => !marksPopulation(c)) } : i));
    const fixtures = Dataset.fromTables({ ...loaded.tables, individuals }, loaded.source);
    const ctx = prepareContext(fixtures);
    const plain = fixtures.tables.individuals.find((i) => i.group_pk !== null && !i.characteristica.some(marksPopulation));
    expect(plain?.pk).toBe(first.pk);
    const record = { group_pk: null, individual_pk: plain!.pk };
    const group = { group_pk: plain!.group_pk, individual_pk: null };
    expect(ctx.subjectMarks(record)).toEqual(subjectMarks(fixtures, record));
    expect(ctx.subjectMarks(record)).toBe(ctx.subjectMarks(group));
    expect(ctx.subjectMarks(group)).toBe(ctx.subjectMarks(group));
    for (const i of fixtures.tables.individuals) {
      const r = { group_pk: null, individual_pk: i.pk };
      expect(ctx.subjectMarks(r)).toEqual(subjectMarks(fixtures, r));
    }
  });

  it('looks a body weight up per subject: a group’s own, an individual’s or else its group’s, a group and an individual of one pk apart', async () => {
    const loaded = await loadFixtures();
    const ctx = prepareContext(loaded);
    const scoped = loaded;
    const individual = loaded.tables.individuals.find((i) => i.group_pk !== null)!;
    const asIndividual = { group_pk: null, individual_pk: individual.pk };
    const asGroup = { group_pk: individual.pk, individual_pk: null };
    const ownOrGroup = scoped.bodyWeightKg({ kind: 'individual', pk: individual.pk }) ?? scoped.bodyWeightKg({ kind: 'group', pk: individual.group_pk! });
    // Asked twice (the second from the cache), and the group of the same pk after the individual: not its weight.
    expect(ctx.bodyWeightKg(asIndividual)).toBe(ownOrGroup);
    expect(ctx.bodyWeightKg(asIndividual)).toBe(ownOrGroup);
    expect(ctx.bodyWeightKg(asGroup)).toBe(scoped.group(individual.pk) ? scoped.bodyWeightKg({ kind: 'group', pk: individual.pk }) : null);
    expect(ctx.bodyWeightKg({ group_pk: null, individual_pk: null })).toBeNull();
  });

  it('takes a weight no human (no adult) has for none: 710 kg, or 7.1 kg at 30 years; 7.1 kg of an unknown age stands', async () => {
    const loaded = await loadFixtures();
    const group = loaded.tables.groups.find((g) => g.characteristica.some((c) => c.measurement_type === 'weight') && g.characteristica.some((c) => c.measurement_type === 'age'))!;
    const withWeight = (kg: number, age: boolean) => ({
      ...loaded.tables,
      groups: loaded.tables.groups.map((g) =>
        g.pk !== group.pk ? g : { ...g, characteristica: g.characteristica.filter((c) => age || c.measurement_type !== 'age').map((c) => (c.measurement_type === 'weight' ? { ...c, mean: kg, value: null, median: null } : c)) },
      ),
    });
    const weightOf = (kg: number, age = true) => prepareContext(Dataset.fromTables(withWeight(kg, age), loaded.source)).bodyWeightKg({ group_pk: group.pk, individual_pk: null });
    expect(weightOf(71)).toBe(71);
    expect(weightOf(710)).toBeNull();
    expect(weightOf(7.1)).toBeNull();
    expect(weightOf(7.1, false)).toBe(7.1);
    // another species keeps its weight: a mouse of 25 g is no slip
    const mouse = {
      ...withWeight(0.025, true),
      groups: withWeight(0.025, true).groups.map((g) =>
        g.pk !== group.pk ? g : { ...g, characteristica: g.characteristica.map((c) => (c.measurement_type === 'species' ? { ...c, choice: 'mus musculus' } : c)) },
      ),
    };
    expect(group.characteristica.some((c) => c.measurement_type === 'species')).toBe(true);
    expect(prepareContext(Dataset.fromTables(mouse, loaded.source)).bodyWeightKg({ group_pk: group.pk, individual_pk: null })).toBe(0.025);
  });
});
