import { beforeAll, describe, expect, it } from 'vitest';
import { Dataset } from '../../src/data/dataset.js';
import { readExport } from '../../src/data/export/read.js';
import { writeExport } from '../../src/data/export/write.js';
import { FIXTURES_EXPORT, loadFixtures } from '../../src/data/fixtures.js';
import type { DatasetTables } from '../../src/data/model.js';
import { finding, type Finding } from '../../src/qa/finding.js';
import { createHash } from 'node:crypto';
import { findingCanonical, findingId, messageShape, sha256Hex, withFindingIds } from '../../src/qa/finding-id.js';
import { runQa } from '../../src/qa/run.js';
import { cloneTables, copyStudy, renumberStudy } from '../helpers/releases.js';

const ids = (findings: readonly Finding[]) => findings.map((f) => findingId(f));
const idsOf = (findings: readonly Finding[], sid: string) => new Set(findings.filter((f) => f.study_sid === sid).map((f) => findingId(f)));

async function reexport(tables: DatasetTables): Promise<Dataset> {
  const { tables: read, problems } = await readExport(writeExport(tables));
  expect(problems).toEqual([]);
  return Dataset.fromTables(read, { kind: 'export', location: 'reexport.zip' });
}

describe('stable finding ids', () => {
  let exported: Dataset;
  let exportFindings: Finding[];
  beforeAll(async () => {
    exported = (await Dataset.fromExport(FIXTURES_EXPORT)).dataset;
    exportFindings = runQa(exported).findings;
  });

  it('are F- and 12 hex digits, unique within a run and equal across runs', async () => {
    const fixtures = await loadFixtures();
    const first = ids(runQa(fixtures).findings);
    const second = ids(runQa(await loadFixtures()).findings);
    expect(first.length).toBeGreaterThan(20);
    for (const id of first) expect(id).toMatch(/^F-[0-9a-f]{12}$/);
    expect(new Set(first).size).toBe(first.length);
    expect(second).toEqual(first);
  });

  it('do not depend on the values or the position of a finding', () => {
    const f = finding({ kind: 'reported-vs-recomputed', severity: 'major', study_sid: 'S1', output_pk: 5, subset_pk: 2, measurement_type: 'cmax', subject: 'group:1', message: 'cmax major: reported 1' });
    const other = { ...f, severity: 'info' as const, reported: 1000, recomputed: 1, ratio: 1000, message: 'cmax agree: reported 1000', suspected_cause: null };
    expect(findingId(other)).toBe(findingId(f));
    expect(findingId({ ...f, output_pk: 6 })).not.toBe(findingId(f));
    expect(findingId({ ...f, measurement_type: 'tmax' })).not.toBe(findingId(f));
    expect(findingId({ ...f, subject: 'group:2' })).not.toBe(findingId(f));
    expect(findingId({ ...f, kind: 'calculated' })).not.toBe(findingId(f));
    // The position in the list plays no part.
    const list = [f, { ...f, output_pk: 6 }];
    expect(ids([...list].reverse())).toEqual(ids(list).reverse());
  });

  it('tell apart several input findings of one timecourse by the shape of their message, not its numbers', () => {
    const base = { kind: 'input' as const, severity: 'minor' as const, study_sid: 'S', subset_pk: 3, measurement_type: 'concentration' };
    const missing2 = finding({ ...base, message: '2 of 12 time points are missing' });
    const missing3 = finding({ ...base, message: '3 of 13 time points are missing' });
    const noDosing = finding({ ...base, message: 'no dosing intervention: PK-DB stored no parameters' });
    expect(findingId(missing2)).toBe(findingId(missing3));
    expect(findingId(noDosing)).not.toBe(findingId(missing2));
    expect(messageShape('output 38 (normed copy of output 11): mean 1.367e-5 g where the raw record gives 0.01367 g — ×1/1000 (prefix)')).toBe(
      'output # : mean # g where the raw record gives # g',
    );
    // A check code, when a check sets one, replaces the message shape.
    expect(findingId({ ...missing2, check: 'input/missing-times' })).toBe(findingId({ ...missing3, message: 'reworded', check: 'input/missing-times' }));
  });

  it('name the records of the details (normed-vs-raw pairs, dosing sets)', () => {
    const f = finding({ kind: 'normed-vs-raw', severity: 'major', study_sid: 'S', measurement_type: 'dosing', message: "intervention 4 (normed copy of intervention 3): unit 'mg' where the raw record has 'g'", details: { raw: { pk: 3, route: 'oral' }, normed: { pk: 4, route: 'oral' } } });
    const g = { ...f, details: { raw: { pk: 5, route: 'oral' }, normed: { pk: 6, route: 'oral' } } };
    expect(findingId(f)).not.toBe(findingId(g));
    expect(findingCanonical(f)).toContain('raw:3');
  });

  it('survive a re-export that adds a study and drops another, other pks unchanged', async () => {
    const tables = cloneTables(exported.tables);
    copyStudy(tables, 'SYN0003', 'SYN0099', 'Copy2021', 100_000);
    const next = await reexport({ ...tables, studies: tables.studies.filter((s) => s.sid !== 'SYN0001') });
    const nextFindings = runQa(next).findings;
    for (const sid of ['SYN0002', 'SYN0003', 'SYN0004', 'SYN0005']) {
      expect(idsOf(exportFindings, sid).size, sid).toBeGreaterThan(0);
      expect(idsOf(nextFindings, sid), sid).toEqual(idsOf(exportFindings, sid));
    }
    // The copy's findings are its own: renumbered records are other records.
    const copy = idsOf(nextFindings, 'SYN0099');
    expect(copy.size).toBe(idsOf(exportFindings, 'SYN0003').size);
    for (const id of copy) expect(idsOf(exportFindings, 'SYN0003').has(id)).toBe(false);
  });

  it('of a study whose pks were renumbered equal the old ids through the pk map', async () => {
    const offset = 50_000;
    const tables = cloneTables(exported.tables);
    renumberStudy(tables, 'SYN0002', offset);
    const renumbered = runQa(await reexport(tables)).findings.filter((f) => f.study_sid === 'SYN0002');
    const old = exportFindings.filter((f) => f.study_sid === 'SYN0002');
    expect(old.length).toBeGreaterThan(0);
    expect(new Set(ids(renumbered))).not.toEqual(new Set(ids(old)));
    const remap = (_table: string, pk: number) => pk + offset;
    expect(new Set(renumbered.map((f) => findingId(f)))).toEqual(new Set(old.map((f) => findingId(f, remap))));
  });

  it('withFindingIds puts the id first and keeps an existing one', () => {
    const f = finding({ kind: 'input', severity: 'info', message: 'x' });
    const [withId] = withFindingIds([f]);
    expect(Object.keys(withId)[0]).toBe('id');
    expect(withId.id).toBe(findingId(f));
    expect(withFindingIds([{ ...f, id: 'F-000000000000' }])[0].id).toBe('F-000000000000');
  });
});

describe('sha256Hex', () => {
  it('is the hex sha256 of the UTF-8 bytes, as createHash gives it', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'); // FIPS 180-2 example
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (const text of ['λz ×1/60', '["1","within-study",null]', 'ü'.repeat(100)]) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
    }
  });
});
