import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptedEntryFor } from '../../src/qa/accepted.js';
import { AcceptedFileError, parseAcceptedFile, readAcceptedFile } from '../../src/qa/accepted-file.js';
import { finding } from '../../src/qa/finding.js';
import { withFindingIds } from '../../src/qa/finding-id.js';

const [slip, dose] = withFindingIds([
  finding({ kind: 'reported-vs-recomputed', severity: 'major', study_sid: 'S1', output_pk: 1, subset_pk: 9, measurement_type: 'cmax', reported: 0.001, recomputed: 1, ratio: 0.001, message: 'cmax major' }),
  finding({ kind: 'reported-vs-recomputed', severity: 'major', study_sid: 'S1', output_pk: 2, subset_pk: 9, measurement_type: 'vd', reported: 7, recomputed: 70, ratio: 0.1, message: 'vd major' }),
]);
const entry = acceptedEntryFor(slip, 'jdoe', '2024-05-02', 'authors use the mean curve');
const file = (entries: unknown[]) => JSON.stringify({ accepted: entries });

describe('the accepted-findings file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pkdb-accepted-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reject a malformed file naming the file, the entry and the field', async () => {
    const good = entry;
    const error = (text: string) => {
      try {
        parseAcceptedFile(text, 'curation/accepted.json');
      } catch (e) {
        expect(e).toBeInstanceOf(AcceptedFileError);
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    expect(error(file([good, { ...good, id: dose.id, when: 'yesterday' }]))).toBe(
      `curation/accepted.json: entry 1 (${dose.id}): field 'when': expected a date YYYY-MM-DD, got "yesterday"`,
    );
    expect(error(file([good, { ...good, id: dose.id, when: '2024-02-30' }]))).toMatch(/entry 1 .*field 'when': not a calendar date/);
    const { why: _omit, ...noWhy } = good;
    expect(error(file([noWhy]))).toBe(`curation/accepted.json: entry 0 (${slip.id}): field 'why': missing`);
    expect(error(file([{ ...good, seen: { reported: 'high', recomputed: 1, ratio: 1 } }]))).toMatch(/entry 0 .*field 'seen\.reported': .*got "high"/);
    expect(error(file([{ ...good, id: 'F-xyz' }]))).toMatch(/entry 0 \(F-xyz\): field 'id': expected a finding id/);
    expect(error(file([good, good]))).toBe(`curation/accepted.json: entry 1: id ${slip.id} already accepted in entry 0`);
    expect(error('{"accepted": [\n  {"id": }\n]}')).toMatch(/^curation\/accepted\.json: invalid JSON at line 2, column 10/);
    expect(error('[]')).toMatch(/expected an object \{"accepted": \[ … \]\}/);
    await expect(readAcceptedFile(join(dir, 'none.json'))).rejects.toThrow(/cannot read .*none\.json: ENOENT/);
    await expect(readAcceptedFile(join(dir, 'a.yaml'))).rejects.toThrow(/YAML is not supported/);
    const path = join(dir, 'ok.json');
    writeFileSync(path, file([good]));
    expect(await readAcceptedFile(path)).toEqual([good]);
  });
});
