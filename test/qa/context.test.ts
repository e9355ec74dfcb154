import { describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import { prepareContext } from '../../src/qa/context.js';

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
});
