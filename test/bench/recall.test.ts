import { describe, expect, it } from 'vitest';
import { blamesRight, findingIdentity, namesFactor, newMajors, onFlaggedRecord, pointsAt, recallTable, scoreCopy } from '../../bench/lib/recall.js';
import type { Slip } from '../../bench/lib/slips.js';
import { finding, type Finding } from '../../src/index.js';

const major = (fields: Partial<Finding>): Finding => finding({ kind: 'reported-vs-recomputed', severity: 'major', message: 'm', ...fields });

function slip(study: string, slipClass: Slip['slipClass'], records: Partial<Slip['records']> = {}): Slip {
  return {
    copy: 0, study_sid: study, slipClass, factor: 1000, target: 1,
    records: { outputs: [], subsets: [], interventions: [], derived: [], dropped: [], unstored: 0, pointOutputs: [], pointSubsets: [], characteristica: [], subjects: [], ...records },
  };
}

describe('newMajors', () => {
  it('keeps majors whose (kind, study, output, subset, type) the original has no major for', () => {
    const original = [major({ study_sid: 'A', output_pk: 1, measurement_type: 'cmax' }), { ...major({ study_sid: 'A', output_pk: 2 }), severity: 'minor' as const }];
    const slipped = [
      major({ study_sid: 'A', output_pk: 1, measurement_type: 'cmax', message: 'other words, same identity' }),
      major({ study_sid: 'A', output_pk: 2 }),
      major({ study_sid: 'A', output_pk: 1, measurement_type: 'cmax', kind: 'calculated' }),
      { ...major({ study_sid: 'B', output_pk: 9 }), severity: 'minor' as const },
    ];
    expect(newMajors(original, slipped).map(findingIdentity)).toEqual([
      findingIdentity(major({ study_sid: 'A', output_pk: 2 })),
      findingIdentity(major({ study_sid: 'A', output_pk: 1, measurement_type: 'cmax', kind: 'calculated' })),
    ]);
  });
});

describe('namesFactor: a pointing major names the planted factor', () => {
  const withCauses = (cause_factors: unknown) => major({ study_sid: 'A', output_pk: 10, details: { cause_factors } });
  it('either way round, within 5 %, and only among the causes a finding lists', () => {
    const s = { ...slip('A', 'output ×1000', { outputs: [10], pointOutputs: [10] }), factor: 1000 };
    expect(namesFactor(withCauses([1000]), s)).toBe(true);
    expect(namesFactor(withCauses([1 / 1000]), s)).toBe(true); // the factor to undo
    expect(namesFactor(withCauses([10, 1040]), s)).toBe(true);
    expect(namesFactor(withCauses([10, 1060]), s)).toBe(false);
    expect(namesFactor(withCauses([]), s)).toBe(false);
    expect(namesFactor(major({ study_sid: 'A', output_pk: 10 }), s)).toBe(false); // no causes named
    // A molar ↔ mass slip by the substance's own factor.
    expect(namesFactor(withCauses([1 / 3.07]), { ...s, factor: 3.07 })).toBe(true);
    // A per-kg slip (planted ×1/70 for anyone) is named by a per-kg cause at the subject's own weight, or any adult's.
    const perKg = { ...slip('A', 'output per-kg ×1/70', { outputs: [10], pointOutputs: [10] }), factor: 1 / 70 };
    expect(namesFactor(major({ study_sid: 'A', output_pk: 10, details: { cause_kinds: ['per-kg'], cause_factors: [82] } }), perKg)).toBe(true);
    expect(namesFactor(withCauses([1 / 55]), perKg)).toBe(true);
    expect(namesFactor(withCauses([10]), perKg)).toBe(false);
  });
  it('counts a slip named only when the naming major points at a slipped record', () => {
    const s = { ...slip('A', 'output ×1000', { outputs: [10], pointOutputs: [10] }), factor: 1000 };
    const elsewhere = major({ study_sid: 'A', output_pk: 11, details: { cause_factors: [1000] } });
    expect(scoreCopy([s], [elsewhere]).scores[0]).toMatchObject({ found: true, pointed: false, named: false });
    expect(scoreCopy([s], [withCauses([1000])]).scores[0]).toMatchObject({ found: true, pointed: true, named: true });
  });
});

describe('blamesRight: the record a pointing major says to fix', () => {
  const curveSlip = { ...slip('A', 'timecourse ×10', { subsets: [5], pointSubsets: [5], derived: [31], pointOutputs: [30, 31] }), factor: 10 };
  it('is right on the slipped record of the slip\'s kind, wrong on another, and says nothing without a culprit', () => {
    expect(blamesRight(major({ study_sid: 'A', subset_pk: 5, output_pk: 30, culprit: 'timecourse' }), curveSlip)).toBe(true);
    // The reported value blamed for its slipped curve.
    expect(blamesRight(major({ study_sid: 'A', subset_pk: 5, output_pk: 30, culprit: 'output' }), curveSlip)).toBe(false);
    expect(blamesRight(major({ study_sid: 'A', subset_pk: 5, output_pk: 30 }), curveSlip)).toBeNull();
    const doseSlip = slip('A', 'dose ×10', { interventions: [7], pointOutputs: [30] });
    expect(blamesRight(major({ study_sid: 'A', output_pk: 30, intervention_pk: 7, culprit: 'dose' }), doseSlip)).toBe(true);
    expect(blamesRight(major({ study_sid: 'A', output_pk: 30, culprit: 'output' }), doseSlip)).toBe(false);
    // A calculated volume names its dose in details (its intervention kept for its id).
    expect(blamesRight(major({ study_sid: 'A', output_pk: 30, culprit: 'dose', details: { dose_pk: 7 } }), doseSlip)).toBe(true);
    expect(blamesRight(major({ study_sid: 'A', output_pk: 30, culprit: 'dose', details: { dose_pk: 8 } }), doseSlip)).toBe(false);
  });
  it('counts the pointing majors by what they blame, per slip and per class', () => {
    const fresh = [major({ study_sid: 'A', subset_pk: 5, output_pk: 30, culprit: 'timecourse' }), major({ study_sid: 'A', subset_pk: 5, output_pk: 31, culprit: 'output' })];
    const { scores } = scoreCopy([curveSlip], fresh);
    expect(scores[0].blamed).toEqual({ right: 1, wrong: 1, none: 0 });
    const again = scoreCopy([curveSlip], [...fresh, major({ study_sid: 'A', subset_pk: 5, output_pk: 30 })]).scores;
    expect(recallTable([...scores, ...again]).find((r) => r.label === 'timecourse ×10')?.blamed).toEqual({ right: 2, wrong: 2, none: 1 });
  });
});

describe('scoreCopy and recallTable', () => {
  it('finds by study, points by record, counts majors elsewhere as false alarms', () => {
    const slips = [
      slip('A', 'output ×1000', { outputs: [10], pointOutputs: [10] }),
      slip('B', 'timecourse ×10', { subsets: [5], pointSubsets: [5], pointOutputs: [50, 51] }),
      slip('C', 'dose ×10', { interventions: [7], pointOutputs: [70] }),
    ];
    const fresh = [
      major({ study_sid: 'A', output_pk: 11 }), // found, not pointed
      major({ study_sid: 'B', subset_pk: 5 }), // found and pointed
      major({ study_sid: 'D', output_pk: 1 }), // false alarm
      major({ study_sid: null }), // false alarm without study
    ];
    const { scores, falseAlarms } = scoreCopy(slips, fresh);
    expect(scores.map((s) => [s.slip.study_sid, s.found, s.pointed])).toEqual([['A', true, false], ['B', true, true], ['C', false, false]]);
    expect(falseAlarms.map((f) => f.study_sid)).toEqual(['D', null]);
    const rows = new Map(recallTable(scores).map((r) => [r.label, r]));
    expect(rows.get('output ×1000')).toMatchObject({ n: 1, found: 1, pointed: 0, recall: 1, pointedRecall: 0 });
    expect(rows.get('dose ×10')).toMatchObject({ n: 1, found: 0, recall: 0 });
    expect(rows.get('time ×60')).toMatchObject({ n: 0, recall: null });
    expect(rows.get('overall')).toMatchObject({ n: 3, found: 2, pointed: 1, named: 0 });
    expect(rows.get('overall')!.recall).toBeCloseTo(2 / 3, 12);
    expect([...rows.get('overall')!.kinds]).toEqual([['reported-vs-recomputed', 2]]);
  });

  it('marks a slip on a record the original run already flags major as preflagged, and gives the recall over the others', () => {
    const slips = [slip('A', 'output ×60', { outputs: [10], pointOutputs: [10] }), slip('B', 'output ×60', { outputs: [20], pointOutputs: [20] })];
    // A's output 10 is a real error of the export: the slip there can add no new major (A's finding keeps its identity).
    const original = [major({ study_sid: 'A', output_pk: 10 }), { ...major({ study_sid: 'B', output_pk: 20 }), severity: 'minor' as const }];
    const { scores } = scoreCopy(slips, [major({ study_sid: 'B', output_pk: 20 })], original);
    expect(scores.map((s) => [s.slip.study_sid, s.found, s.preflagged])).toEqual([['A', false, true], ['B', true, false]]);
    const row = recallTable(scores).find((r) => r.label === 'output ×60')!;
    expect(row).toMatchObject({ n: 2, recall: 0.5, cleanN: 1, cleanRecall: 1 });
  });

  it('tells a false alarm on a record the original run already flags (minor or major) from one on a clean record', () => {
    const original = [{ ...major({ study_sid: 'D', output_pk: 30 }), severity: 'minor' as const }, { ...major({ study_sid: 'D', subset_pk: 4 }), severity: 'info' as const }];
    expect(onFlaggedRecord(major({ study_sid: 'D', output_pk: 30, kind: 'reference-range' }), original)).toBe(true);
    expect(onFlaggedRecord(major({ study_sid: 'D', output_pk: 31 }), original)).toBe(false);
    expect(onFlaggedRecord(major({ study_sid: 'D', subset_pk: 4 }), original)).toBe(false); // info is no flag
    expect(onFlaggedRecord(major({ study_sid: 'E', output_pk: 30 }), original)).toBe(false);
    // A dose's finding names its dosing alone: flagged when the original run flags that dosing.
    const doses = [{ ...major({ study_sid: 'D', intervention_pk: 9 }), severity: 'minor' as const }];
    expect(onFlaggedRecord(major({ study_sid: 'D', intervention_pk: 9 }), doses)).toBe(true);
    expect(onFlaggedRecord(major({ study_sid: 'D', intervention_pk: 8 }), doses)).toBe(false);
  });

  it('a dose slip is pointed at by a finding naming the intervention or an output given it', () => {
    const s = slip('C', 'dose ×1000', { interventions: [7, 6], pointOutputs: [70], pointSubsets: [3] });
    expect(pointsAt(major({ study_sid: 'C', output_pk: 70 }), s)).toBe(true);
    expect(pointsAt(major({ study_sid: 'C', subset_pk: 3 }), s)).toBe(true);
    expect(pointsAt({ ...major({ study_sid: 'C' }), intervention_pk: 6 } as Finding, s)).toBe(true);
    expect(pointsAt(major({ study_sid: 'C', output_pk: 71 }), s)).toBe(false);
  });
});
