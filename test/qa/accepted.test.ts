import { describe, expect, it } from 'vitest';
import { acceptAll, acceptedEntryFor, openBySeverity, reviewFindings, reviewSummary, reviewedFinding } from '../../src/qa/accepted.js';
import { parseAcceptedFile, type AcceptedEntry } from '../../src/qa/accepted-file.js';
import { finding, type Finding } from '../../src/qa/finding.js';
import { withFindingIds } from '../../src/qa/finding-id.js';

const [slip, dose, info] = withFindingIds([
  finding({ kind: 'reported-vs-recomputed', severity: 'major', study_sid: 'S1', output_pk: 1, subset_pk: 9, measurement_type: 'cmax', reported: 0.001, recomputed: 1, ratio: 0.001, message: 'cmax major' }),
  finding({ kind: 'reported-vs-recomputed', severity: 'major', study_sid: 'S1', output_pk: 2, subset_pk: 9, measurement_type: 'vd', reported: 7, recomputed: 70, ratio: 0.1, message: 'vd major' }),
  finding({ kind: 'input', severity: 'info', study_sid: 'S1', subset_pk: 9, measurement_type: 'concentration', message: '2 dosing interventions' }),
]);
const entry = (f: Finding, over: Partial<AcceptedEntry> = {}): AcceptedEntry => ({ ...acceptedEntryFor(f, 'jdoe', '2024-05-02', 'authors use the mean curve'), ...over });

describe('accepted findings', () => {
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

});
