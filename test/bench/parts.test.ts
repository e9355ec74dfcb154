import { describe, expect, it } from 'vitest';
import { drawPart, partAlarms, recordKey } from '../../bench/lib/parts.js';
import type { Finding } from '../../src/index.js';

const finding = (study_sid: string, output_pk: number | null, severity: Finding['severity'], kind = 'within-study'): Finding =>
  ({ kind, study_sid, output_pk, subset_pk: null, intervention_pk: null, subject: null, severity, message: '' }) as unknown as Finding;

describe('qa-parts: the draw', () => {
  it('is the same for a seed, and a part holds about its share of the studies', () => {
    const sids = Array.from({ length: 400 }, (_, k) => `S${k}`);
    expect([...drawPart(sids, 0.25, 3)]).toEqual([...drawPart(sids, 0.25, 3)]);
    expect(drawPart(sids, 0.25, 3).size).toBeGreaterThan(70);
    expect(drawPart(sids, 0.25, 3).size).toBeLessThan(130);
    expect(drawPart(sids, 0, 3).size).toBe(0);
  });
});

describe('qa-parts: majors against the whole run', () => {
  it('tells a major on a study the whole run flags from one on a clean study, and counts the majors the part loses', () => {
    const whole = [finding('A', 1, 'major'), finding('A', 2, 'minor'), finding('B', 3, 'minor'), finding('C', 4, 'major')];
    const part = [finding('A', 1, 'major'), finding('A', 2, 'major'), finding('B', 3, 'major'), finding('B', 5, 'info')];
    const alarms = partAlarms(whole, part, new Set(['A', 'B', 'C']));
    expect(alarms.majors).toBe(3);
    expect(alarms.onFlaggedStudies.map(recordKey)).toEqual([recordKey(finding('A', 2, 'major'))]);
    expect(alarms.onCleanStudies.map((f) => f.output_pk)).toEqual([3]);
    expect(alarms.onFlaggedRecords).toBe(1); // A's output 2: minor in the whole run
    expect(alarms.lost).toBe(1); // C's major: the part's run does not find it
    // Another kind on the same record is another finding.
    expect(partAlarms(whole, [finding('A', 1, 'major', 'pk-identity')], new Set(['A'])).onFlaggedStudies).toHaveLength(1);
  });
});
