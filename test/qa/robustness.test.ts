import { describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import { runQa } from '../../src/qa/run.js';

describe('runQa on broken input', () => {
  it('turns broken timecourses into findings and checks the rest', async () => {
    const fixtures = await loadFixtures();
    const [first, second, third, ...rest] = fixtures.tables.timecourses.filter((tc) => tc.measurement_type === 'concentration');
    const others = fixtures.tables.timecourses.filter((tc) => ![first, second, third].includes(tc));
    const broken = [
      { ...first, time: first.time.slice(1) },
      { ...second, time_unit: 'fortnights per parsec', unit: 'bogus' },
      { ...third, mean: third.mean && third.mean.map(() => null), value: third.value && third.value.map(() => null), median: null },
    ];
    const dataset = Dataset.fromTables({ ...fixtures.tables, timecourses: [...broken, ...others] }, fixtures.source);
    const result = runQa(dataset);
    const about = (pk: number) => result.findings.filter((f) => f.subset_pk === pk && f.kind === 'input').map((f) => f.message);
    expect(about(first.subset_pk).join('\n')).toMatch(/misaligned lists/);
    expect(about(third.subset_pk).join('\n')).toMatch(/all concentrations are missing/);
    expect(result.timecourses.length).toBe(3 + rest.length);
    // The healthy timecourses are still compared with their reported values.
    expect(result.comparisons.some((c) => rest.some((tc) => tc.subset_pk === c.timecourse.tc.subset_pk))).toBe(true);
  });
});
