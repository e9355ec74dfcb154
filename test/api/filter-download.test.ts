import { readFile } from 'node:fs/promises';
import { afterEach, expect, it } from 'vitest';
import { PkdbClient } from '../../src/api/index.js';
import { readExport } from '../../src/data/export/read.js';
import { describeShared, SHARED_EXPORT } from '../helpers/shared.js';
import { startServer, type TestServer } from './test-server.js';

describeShared('filterDownload reads the zip with the export reader', SHARED_EXPORT, () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it('returns the same tables as reading the zip directly; download=true and the filter are sent', async () => {
    const zip = await readFile(SHARED_EXPORT);
    server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/x-zip-compressed', 'content-disposition': 'attachment; filename=pkdata.zip' });
      response.end(zip);
    });
    const client = new PkdbClient({ baseUrl: server.baseUrl, retries: 0 });
    try {
      const downloaded = await client.filterDownload({ studies: { sid__in: ['PKDB00198', 'PKDB00002'] }, concise: false });
      const direct = await readExport(SHARED_EXPORT);
      expect(downloaded.tables.studies.length).toBe(direct.tables.studies.length);
      expect(downloaded.tables.outputs.length).toBe(direct.tables.outputs.length);
      expect(downloaded.tables.timecourses.map((tc) => tc.subset_pk)).toEqual(direct.tables.timecourses.map((tc) => tc.subset_pk));
      expect(downloaded.problems.length).toBe(direct.problems.length);
      const query = server.requests[0].query;
      expect(query.get('download')).toBe('true');
      expect(query.get('concise')).toBe('false');
      expect(query.get('studies__sid__in')).toBe('PKDB00198__PKDB00002');
    } finally {
      await client.close();
    }
  });
});
