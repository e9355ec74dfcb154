/**
 * `pkdb serve` over the real 2020-10-16 export (../shared): every list parses
 * and pages through each item once, counts agree with the zip, filter counts
 * follow NOTES.md §2, and a full filter download reads back to equal tables.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PkdbClient } from '../../src/api/client.js';
import { RESOURCE_NAMES } from '../../src/api/schemas/index.js';
import { Dataset } from '../../src/data/dataset.js';
import { readExport } from '../../src/data/export/read.js';
import { downloadExport } from '../../src/data/export/download.js';
import type { DatasetTables } from '../../src/data/model.js';
import { startServer, type RunningServer } from '../../src/server/app.js';
import { DATASET_VIEWS } from '../../src/server/resources.js';
import { describeShared, SHARED_EXPORT } from '../helpers/shared.js';
import { sortedTables } from './compare.js';

describeShared('pkdb serve over the shared export', SHARED_EXPORT, () => {
  let tables: DatasetTables;
  let server: RunningServer;
  let client: PkdbClient;

  beforeAll(async () => {
    tables = (await readExport(SHARED_EXPORT)).tables;
    server = await startServer({ dataset: Dataset.fromTables(tables, { kind: 'export', location: SHARED_EXPORT }), port: 0 });
    client = new PkdbClient({ baseUrl: server.url, concurrency: 4, retries: 0 });
  });
  afterAll(async () => {
    await client?.close();
    await server?.close();
  });

  it('/pkdata/studies/ and /statistics/ count what the zip holds', async () => {
    expect((await client.page('pkdata/studies')).data.count).toBe(tables.studies.length);
    const stats = await client.statistics();
    expect(stats).toMatchObject({
      study_count: tables.studies.length,
      group_count: tables.groups.length,
      individual_count: tables.individuals.length,
      intervention_count: tables.interventions.length,
      output_count: tables.outputs.length,
      timecourse_count: tables.timecourses.length,
      scatter_count: tables.scatters.length,
    });
    const rows = tables.outputs.reduce((n, o) => n + o.intervention_pks.length, 0);
    expect((await client.page('pkdata/outputs')).data.count).toBe(rows);
  });

  it('every list parses with its schema through all pages, each item once', async () => {
    for (const resource of RESOURCE_NAMES) {
      const first = await client.page(resource, { pageSize: 1000 });
      const key = DATASET_VIEWS[resource].key as (item: Record<string, unknown>) => unknown;
      const seen = new Set<string>();
      let n = 0;
      for await (const item of client.all(resource, { pageSize: 1000 })) {
        n += 1;
        seen.add(JSON.stringify([key(item as Record<string, unknown>), item]));
      }
      expect(n, resource).toBe(first.data.count);
      expect(seen.size, resource).toBe(n);
    }
  });

  it('filter counts follow the concise rules (hand-computed from the tables)', async () => {
    const thalf = tables.outputs.filter((o) => o.measurement_type === 'thalf');
    const concise = await client.filter({ outputs: { measurement_type_sid: 'thalf' } });
    expect(concise).toMatchObject({
      studies: new Set(thalf.map((o) => o.study_sid)).size,
      groups: new Set(thalf.map((o) => o.group_pk).filter((pk) => pk !== null)).size,
      individuals: new Set(thalf.filter((o) => o.group_pk === null).map((o) => o.individual_pk)).size,
      interventions: new Set(thalf.flatMap((o) => o.intervention_pks)).size,
      outputs: thalf.length,
      timecourses: 0,
    });
    const studies = new Set(thalf.map((o) => o.study_sid));
    const whole = await client.filter({ outputs: { measurement_type_sid: 'thalf' }, concise: false });
    expect(whole).toMatchObject({
      studies: studies.size,
      groups: tables.groups.filter((g) => studies.has(g.study_sid)).length,
      individuals: tables.individuals.filter((i) => studies.has(i.study_sid)).length,
      outputs: tables.outputs.filter((o) => studies.has(o.study_sid)).length,
      timecourses: tables.timecourses.filter((t) => studies.has(t.study_sid)).length,
    });
    expect(whole.outputs).toBeGreaterThan(concise.outputs);
    const page = await client.page('outputs', { uuid: concise.uuid, pageSize: 1 });
    expect(page.data.count).toBe(concise.outputs);

    const caffeine = await client.filter({ interventions: { substance: 'caffeine' }, studies: { licence: 'open' } });
    const openSids = new Set(tables.studies.filter((s) => s.licence === 'open').map((s) => s.sid));
    const dosed = new Set(tables.interventions.filter((i) => i.substance === 'caffeine').map((i) => i.pk));
    const kept = tables.outputs.filter((o) => openSids.has(o.study_sid) && o.intervention_pks.some((pk) => dosed.has(pk)));
    expect(caffeine.outputs).toBe(kept.length);
    expect(caffeine.studies).toBe(new Set(kept.map((o) => o.study_sid)).size);
  });

  it('a full filter download reads back to tables equal to the served ones', async () => {
    const back = await downloadExport(client, { concise: false });
    expect(sortedTables(back.tables)).toEqual(sortedTables(tables));
  });
});
