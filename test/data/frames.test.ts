import * as aq from 'arquero';
import { beforeAll, expect, it } from 'vitest';
import { readExport } from '../../src/data/export/read.js';
import { frames, type DatasetFrames } from '../../src/data/frames.js';
import type { DatasetTables } from '../../src/data/model.js';
import { SHARED_EXPORT, describeShared } from '../helpers/shared.js';

describeShared('frames of the shared export', SHARED_EXPORT, () => {
  let tables: DatasetTables;
  let f: DatasetFrames;
  beforeAll(async () => {
    tables = (await readExport(SHARED_EXPORT)).tables;
    f = frames(tables);
  });

  it('has one row per record, per subject × characteristica and per timecourse point', () => {
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    expect(f.studies.numRows()).toBe(tables.studies.length);
    expect(f.outputs.numRows()).toBe(tables.outputs.length);
    expect(f.interventions.numRows()).toBe(tables.interventions.length);
    expect(f.groups.numRows()).toBe(sum(tables.groups.map((g) => Math.max(1, g.characteristica.length))));
    expect(f.individuals.numRows()).toBe(sum(tables.individuals.map((i) => Math.max(1, i.characteristica.length))));
    expect(f.characteristica.numRows()).toBe(sum([...tables.groups, ...tables.individuals].map((s) => s.characteristica.length)));
    // Every point is one member output.
    expect(f.timecourses.numRows()).toBe(tables.outputs.filter((o) => o.subset_pk !== null).length);
  });

  it('puts each point next to the value its output carries, so the long timecourses join the outputs', () => {
    const joined = f.timecourses
      .select('output_pk', 'value', 'mean', 'median', 'substance', 'tissue')
      .join(f.outputs.select('pk', 'value', 'mean', 'median', 'substance', 'tissue', 'subset_pk'), ['output_pk', 'pk'])
      .objects() as Record<string, unknown>[];
    expect(joined).toHaveLength(f.timecourses.numRows());
    const differing = joined.filter(
      (r) => r.value_1 !== r.value_2 || r.mean_1 !== r.mean_2 || r.median_1 !== r.median_2 || r.substance_1 !== r.substance_2 || r.tissue_1 !== r.tissue_2,
    );
    expect(differing).toEqual([]);
  });

  it('supports notebook-style grouping', () => {
    const perStudy = f.timecourses
      .filter((d: Record<string, unknown>) => d.study_sid === 'PKDB00198')
      .groupby('subset_pk')
      .count()
      .orderby('subset_pk')
      .objects() as { subset_pk: number; count: number }[];
    const expected = tables.timecourses
      .filter((t) => t.study_sid === 'PKDB00198')
      .map((t) => ({ subset_pk: t.subset_pk, count: t.output_pk.length }))
      .sort((a, b) => a.subset_pk - b.subset_pk);
    expect(perStudy).toEqual(expected);
    expect(aq.agg(f.groups, aq.op.distinct('group_pk'))).toBe(tables.groups.length);
  });
});
