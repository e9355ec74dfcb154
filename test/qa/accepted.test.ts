import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  AcceptedFileError,
  acceptAll,
  acceptedEntryFor,
  openBySeverity,
  parseAcceptedFile,
  readAcceptedFile,
  reviewFindings,
  reviewSummary,
  reviewedFinding,
  type AcceptedEntry,
} from '../../src/qa/accepted.js';
import { finding, type Finding } from '../../src/qa/finding.js';
import { withFindingIds } from '../../src/qa/finding-id.js';

const [slip, dose, info] = withFindingIds([
  finding({ kind: 'reported-vs-recomputed', severity: 'major', study_sid: 'S1', output_pk: 1, subset_pk: 9, measurement_type: 'cmax', reported: 0.001, recomputed: 1, ratio: 0.001, message: 'cmax major' }),
  finding({ kind: 'reported-vs-recomputed', severity: 'major', study_sid: 'S1', output_pk: 2, subset_pk: 9, measurement_type: 'vd', reported: 7, recomputed: 70, ratio: 0.1, message: 'vd major' }),
  finding({ kind: 'input', severity: 'info', study_sid: 'S1', subset_pk: 9, measurement_type: 'concentration', message: '2 dosing interventions' }),
]);
const entry = (f: Finding, over: Partial<AcceptedEntry> = {}): AcceptedEntry => ({ ...acceptedEntryFor(f, 'jdoe', '2024-05-02', 'authors use the mean curve'), ...over });
const file = (entries: unknown[]) => JSON.stringify({ accepted: entries });

describe('accepted findings', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pkdb-accepted-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are excluded from the counts --fail-on uses; the rest stay open', () => {
    const review = reviewFindings([slip, dose, info], [entry(slip)]);
    expect(review.entries.get(slip.id!)?.state).toBe('accepted');
    expect(openBySeverity([slip, dose, info], review)).toEqual({ major: 1, minor: 0, info: 1 });
    expect(reviewedFinding(slip, review)).toMatchObject({ accepted: { who: 'jdoe', when: '2024-05-02', why: 'authors use the mean curve' } });
    expect(reviewedFinding(dose, review)).not.toHaveProperty('accepted');
  });

  it('re-open when a value seen at acceptance changed, naming the fields', () => {
    const fixed = { ...slip, reported: 1, ratio: 1 };
    const review = reviewFindings([fixed], [entry(slip)]);
    expect(review.entries.get(slip.id!)).toMatchObject({ state: 'reopened', changed: ['reported', 'ratio'] });
    expect(openBySeverity([fixed], review).major).toBe(1);
    expect(reviewedFinding(fixed, review)).toMatchObject({ reopened: { who: 'jdoe', changed: ['reported', 'ratio'], seen: { reported: 0.001 } } });
    // Float noise far below any edit does not re-open.
    const noise = { ...slip, reported: 0.001 * (1 + 1e-12) };
    expect(reviewFindings([noise], [entry(slip)]).entries.get(slip.id!)?.state).toBe('accepted');
  });

  it('lists stale entries whose id no finding has any more', () => {
    const gone = entry(dose);
    const review = reviewFindings([slip], [entry(slip), gone]);
    expect(review.stale).toEqual([gone]);
    const summary = reviewSummary([slip], review, 'accepted.json');
    expect(summary).toMatchObject({ accepted_file: 'accepted.json', accepted: 1, reopened: 0, open_by_severity: { major: 0, minor: 0, info: 0 } });
    expect(summary.stale.map((s) => s.id)).toEqual([dose.id]);
    // A run over other studies (--study) does not call S1's entries stale.
    expect(reviewFindings([], [entry(slip), gone], new Set(['S2'])).stale).toEqual([]);
    expect(reviewFindings([], [entry(slip)], new Set(['S1'])).stale).toEqual([entry(slip)]);
  });

  it('round-trip through the file acceptAll writes', () => {
    const start = acceptAll([slip, dose, info], { who: 'jdoe', when: '2024-05-02', why: 'baseline', minSeverity: 'major' });
    expect(start.accepted.map((e) => e.id)).toEqual([slip.id, dose.id]);
    const parsed = parseAcceptedFile(JSON.stringify(start), 'a.json');
    expect(parsed).toEqual(start.accepted);
    // With a review, still-valid entries are kept as they were and the others added once.
    const old = entry(slip, { who: 'alice', when: '2023-01-01' });
    const merged = acceptAll([slip, dose, info], { who: 'bob', when: '2024-05-02', why: 'b', minSeverity: 'info', review: reviewFindings([slip, dose, info], [old]) });
    expect(merged.accepted.map((e) => [e.id, e.who])).toEqual([[slip.id, 'alice'], [dose.id, 'bob'], [info.id, 'bob']]);
  });

  it('reject a malformed file naming the file, the entry and the field', async () => {
    const good = entry(slip);
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
