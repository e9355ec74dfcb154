/**
 * `pkdb serve` on its default dataset, the bundled fixtures (raw and normed
 * records): every list parses with its schema, and the lists the fixtures
 * commit as API pages come back exactly as committed (pages -> dataset ->
 * server is the identity).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PkdbClient } from '../../src/api/client.js';
import { RESOURCE_NAMES } from '../../src/api/schemas/index.js';
import { FIXTURES_API_DIR, loadFixtures, readFixturePage } from '../../src/data/fixtures.js';
import { startServer, type RunningServer } from '../../src/server/app.js';

let server: RunningServer;
let client: PkdbClient;

beforeAll(async () => {
  server = await startServer({ dataset: await loadFixtures(), port: 0 });
  client = new PkdbClient({ baseUrl: server.url, concurrency: 4, retries: 0 });
});
afterAll(async () => {
  await client.close();
  await server.close();
});

describe('pkdb serve on the bundled fixtures', () => {
  it('serves raw and normed records, and every list parses page by page', async () => {
    const interventions = await client.list('interventions', { pageSize: 7 });
    expect(interventions.some((i) => i.normed)).toBe(true);
    expect(interventions.some((i) => !i.normed)).toBe(true);
    for (const resource of RESOURCE_NAMES) {
      const items = await client.list(resource, { pageSize: 7 });
      expect(items.length, resource).toBe((await client.page(resource)).data.count);
    }
  });

  it('lists equal the committed fixture pages', async () => {
    const committed = RESOURCE_NAMES.filter((r) => existsSync(join(FIXTURES_API_DIR, `${r}.json`)));
    expect(committed.length).toBeGreaterThan(5);
    for (const resource of committed) {
      expect(await client.list(resource, { pageSize: 1000 }), resource).toEqual(await readFixturePage(resource));
    }
  });
});
