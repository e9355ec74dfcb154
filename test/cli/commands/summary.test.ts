import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countTables } from '../../../src/data/counts.js';
import { parseCsv } from '../../../src/data/export/csv.js';
import { writeExport } from '../../../src/data/export/write.js';
import { loadFixtures } from '../../../src/data/fixtures.js';
import type { DatasetTables, OutputRecord } from '../../../src/data/model.js';
import { filterStudies } from '../../../src/data/select.js';
import { startServer, type RunningServer } from '../../../src/server/app.js';
import { pkdb as run } from '../../helpers/cli.js';
import { SHARED_EXPORT, describeShared } from '../../helpers/shared.js';

/** Distinct values of a column, from the CSV text. */
function distinctColumn(text: string, column: string, where?: (cells: string[], at: (c: string) => number) => boolean): number {
  const { header, rows } = parseCsv(text);
  const at = (c: string) => header.indexOf(c);
  return new Set(rows.filter((r) => !where || where(r.cells, at)).map((r) => r.cells[at(column)])).size;
}

describeShared('pkdb summary on the shared export', SHARED_EXPORT, () => {
  let raw: Record<string, string>;
  beforeAll(() => {
    raw = Object.fromEntries(Object.entries(unzipSync(readFileSync(SHARED_EXPORT))).map(([k, v]) => [k, strFromU8(v)]));
  });

  it('prints the distinct entities as JSON', async () => {
    const { code, stdout, stderr } = await run(['summary', '--export', SHARED_EXPORT, '--json']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const counts = JSON.parse(stdout);
    const calculated = (cells: string[], at: (c: string) => number) => cells[at('calculated')] === 'True';
    expect(counts).toEqual({
      studies: distinctColumn(raw['studies.csv'], 'sid'),
      groups: distinctColumn(raw['groups.csv'], 'group_pk'),
      individuals: distinctColumn(raw['individuals.csv'], 'individual_pk'),
      interventions: distinctColumn(raw['interventions.csv'], 'intervention_pk'),
      outputs: distinctColumn(raw['outputs.csv'], 'output_pk'),
      calculated_outputs: distinctColumn(raw['outputs.csv'], 'output_pk', calculated),
      timecourses: distinctColumn(raw['timecourses.csv'], 'subset_pk'),
      scatters: distinctColumn(raw['scatters.csv'], 'subset_pk'),
    });
    expect([counts.studies, counts.timecourses, counts.calculated_outputs]).toEqual([360, 2473, 9800]);
  });

  it('prints an aligned table and narrows to --study', async () => {
    const { code, stdout } = await run(['summary', '--export', SHARED_EXPORT, '--study', 'PKDB00198']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`export ${SHARED_EXPORT}`);
    expect(new Set(lines.slice(1).map((l) => l.length)).size).toBe(1);
    const value = (label: string) => Number(lines.find((l) => l.trimStart().startsWith(label))!.split(/\s+/).pop());
    expect(value('studies')).toBe(1);
    const ofStudy = (cells: string[], at: (c: string) => number) => cells[at('study_sid')] === 'PKDB00198';
    expect(value('outputs')).toBe(distinctColumn(raw['outputs.csv'], 'output_pk', ofStudy));
    expect(value('timecourses')).toBe(distinctColumn(raw['timecourses.csv'], 'subset_pk', ofStudy));
  });
});

describe('pkdb summary sources', () => {
  let server: RunningServer;
  let fixtures: DatasetTables;
  beforeAll(async () => {
    const dataset = await loadFixtures();
    fixtures = dataset.tables;
    server = await startServer({ dataset, port: 0 });
  });
  afterAll(async () => server?.close());

  it('counts the bundled fixtures by default, and the same through the API', async () => {
    const local = await run(['summary', '--json']);
    expect(local.code).toBe(0);
    expect(JSON.parse(local.stdout)).toEqual(countTables(fixtures));
    expect(JSON.parse(local.stdout).studies).toBe(new Set(fixtures.studies.map((s) => s.sid)).size);
    const remote = await run(['summary', '--base-url', server.url, '--json']);
    expect(remote.stderr).toBe('');
    expect(JSON.parse(remote.stdout)).toEqual(JSON.parse(local.stdout));
  });

  it('warns on stderr about skipped rows and still counts the rest', async () => {
    const files = Object.fromEntries(Object.entries(unzipSync(writeExport(fixtures))).map(([k, v]) => [k, strFromU8(v)]));
    const lines = files['timecourses.csv'].split('\n');
    // normed is the first boolean of a timecourse row; damage a normed timecourse, the kind summary counts.
    const normedCell = (line: string) => line.replace(/"[^"]*"/g, '').match(/,(True|False),/)?.[1];
    const damaged = lines.findIndex((line, k) => k > 0 && normedCell(line) === 'True');
    lines[damaged] = lines[damaged].replace(/,True,/, ',maybe,');
    files['timecourses.csv'] = lines.join('\n');
    const dir = mkdtempSync(join(tmpdir(), 'pkdb-summary-'));
    try {
      const path = join(dir, 'damaged.zip');
      writeFileSync(path, zipSync(Object.fromEntries(Object.entries(files).map(([k, v]) => [k, strToU8(v)]))));
      const { code, stdout, stderr } = await run(['summary', '--export', path, '--json']);
      expect(code).toBe(0);
      expect(stderr).toBe(
        `pkdb: warning: ${path}: skipped 1 malformed row, first timecourses.csv line ${damaged + 1}, column normed: expected True or False, found "maybe"\n`,
      );
      const normedTimecourses = fixtures.timecourses.filter((t) => t.normed).length;
      expect(JSON.parse(stdout).timecourses).toBe(normedTimecourses - 1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 with one line for an unreadable source', async () => {
    for (const args of [
      ['summary', '--export', '/nonexistent/export.zip'],
      ['summary', '--export', 'x.zip', '--base-url', 'http://127.0.0.1:9/'],
      ['summary', '--study', 'NO_SUCH_STUDY'],
      ['summary', '--base-url', 'http://127.0.0.1:9/api/v1/'],
    ]) {
      const { code, stdout, stderr } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(stdout).toBe('');
      expect(stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect((await run(['summary', '--export', '/nonexistent/export.zip'])).stderr).toBe(
      'pkdb: /nonexistent/export.zip: cannot read (no such file)\n',
    );
  });
});

describe('countTables and filterStudies', () => {
  const output = (pk: number, normed: boolean, calculated: boolean, study_sid = 'A'): OutputRecord =>
    ({ pk, normed, calculated, study_sid, raw_pk: normed ? pk - 1 : null }) as OutputRecord;
  const empty: DatasetTables = { studies: [], groups: [], individuals: [], interventions: [], outputs: [], timecourses: [], scatters: [], terms: [] };

  it('counts normed records where raw and normed copies are both present', () => {
    const mixed = { ...empty, outputs: [output(1, false, false), output(2, true, false), output(3, false, true), output(4, true, true), output(4, true, true)] };
    expect(countTables(mixed)).toMatchObject({ outputs: 2, calculated_outputs: 1 });
    const normedOnly = { ...empty, outputs: [output(2, true, false), output(4, true, true)] };
    expect(countTables(normedOnly)).toMatchObject({ outputs: 2, calculated_outputs: 1 });
    const rawOnly = { ...empty, outputs: [output(1, false, false), output(3, false, true)] };
    expect(countTables(rawOnly)).toMatchObject({ outputs: 2, calculated_outputs: 1 });
  });

  it('keeps only the records of the selected studies', () => {
    const tables = { ...empty, outputs: [output(1, true, false, 'A'), output(2, true, false, 'B')] };
    expect(filterStudies(tables, ['B']).outputs.map((o) => o.pk)).toEqual([2]);
    expect(filterStudies(tables, []).outputs).toEqual([]);
  });

  it('keeps the references the selected studies cite, by sid or by PubMed id', () => {
    const study = (sid: string, pmid: string | null, refSid?: string) =>
      ({ sid, reference_pmid: pmid, ...(refSid ? { detail: { reference: { sid: refSid } } } : {}) }) as DatasetTables['studies'][number];
    const reference = (sid: string | null, pmid: string | null) => ({ sid, pmid }) as NonNullable<DatasetTables['references']>[number];
    const tables: DatasetTables = {
      ...empty,
      studies: [study('A', '11'), study('B', null, 'refB'), study('C', '33')],
      references: [reference('r1', '11'), reference('refB', null), reference('r3', '33'), reference(null, null)],
    };
    expect(filterStudies(tables, ['A', 'B']).references).toEqual([reference('r1', '11'), reference('refB', null)]);
    expect(filterStudies({ ...empty }, ['A']).references).toBeUndefined();
  });
});
