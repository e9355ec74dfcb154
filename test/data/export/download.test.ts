import { readFile } from 'node:fs/promises';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { afterEach, describe, expect, it } from 'vitest';
import { PkdbClient } from '../../../src/api/index.js';
import { INTERVENTIONS } from '../../../src/data/export/columns.js';
import { downloadExport } from '../../../src/data/export/download.js';
import { ExportError, readExport } from '../../../src/data/export/read.js';
import { writeExport } from '../../../src/data/export/write.js';
import { startServer, type TestServer } from '../../api/test-server.js';
import { describeShared, SHARED_EXPORT } from '../../helpers/shared.js';

const EMPTY_TABLES = { studies: [], groups: [], individuals: [], interventions: [], outputs: [], timecourses: [], scatters: [], terms: [] };

describe('client.filterDownload returns the bytes; downloadExport reads them', () => {
  let server: TestServer | undefined;
  afterEach(async () => server?.close());

  it('the client hands back the zip untouched, with the request (without credentials) as its source', async () => {
    const zip = writeExport(EMPTY_TABLES);
    server = await startServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/zip' });
      response.end(zip);
    });
    const client = new PkdbClient({ baseUrl: server.baseUrl, retries: 0, username: 'u', password: 'secret' });
    try {
      const { bytes, source } = await client.filterDownload({ studies: { sid__in: ['PKDB00198'] } });
      expect(Buffer.from(bytes).equals(Buffer.from(zip))).toBe(true);
      expect(source).toBe(`GET ${server.baseUrl}filter/?studies__sid__in=PKDB00198&download=true`);
      expect(source).not.toContain('secret');
      const read = await downloadExport(client);
      expect(read.tables.outputs).toEqual([]);
      expect(read.problemCount).toBe(0);
      expect(server.requests.map((r) => r.query.get('download'))).toEqual(['true', 'true']);
    } finally {
      await client.close();
    }
  });

  it('errors about the zip name the request it came from', async () => {
    const client = { filterDownload: async () => ({ bytes: new Uint8Array([1, 2, 3]), source: 'GET http://pkdb.test/filter/?download=true' }) };
    const error = await downloadExport(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExportError);
    expect((error as Error).message).toMatch(/^GET http:\/\/pkdb\.test\/filter\/\?download=true: not a readable zip archive/);
  });

  it('passes the reader options on (problem cap, strict)', async () => {
    // Two interventions.csv rows that are not numbers where a pk must be.
    const members = unzipSync(writeExport(EMPTY_TABLES));
    const columns = Object.keys(INTERVENTIONS.columns);
    const header = columns.join(',');
    const row = (pk: string) => columns.map((name) => (name === 'intervention_pk' ? pk : name === 'normed' ? 'True' : 'x')).join(',');
    members['interventions.csv'] = strToU8(`${header}\n${row('one')}\n${row('two')}\n`);
    const client = { filterDownload: async () => ({ bytes: zipSync(members), source: 'GET x' }) };
    const capped = await downloadExport(client, {}, { maxProblems: 1 });
    expect(capped.problemCount).toBe(2);
    expect(capped.problems).toEqual([expect.objectContaining({ file: 'interventions.csv', line: 2, column: 'intervention_pk' })]);
    await expect(downloadExport(client, {}, { strict: true })).rejects.toThrow(/^GET x: interventions\.csv line 2, column intervention_pk/);
  });
});

describeShared('downloadExport reads a real filter download as the export reader reads the zip', SHARED_EXPORT, () => {
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
      const downloaded = await downloadExport(client, { studies: { sid__in: ['PKDB00198', 'PKDB00002'] }, concise: false });
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
