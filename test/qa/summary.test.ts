import { describe, expect, it } from 'vitest';
import { finding, type Finding } from '../../src/qa/finding.js';
import { summarize } from '../../src/qa/summary.js';

const f = (fields: Partial<Finding>): Finding => finding({ kind: 'reported-vs-recomputed', severity: 'major', message: 'm', study_sid: 'S1', ...fields });

describe('summarize: summary.json', () => {
  it('counts findings by severity, kind, measurement type and study, and majors by the record they name to fix', () => {
    const findings = [
      f({ culprit: 'output', measurement_type: 'cmax' }),
      f({ culprit: 'timecourse', measurement_type: 'auc_inf' }),
      f({ culprit: null, measurement_type: 'cmax' }),
      f({ kind: 'reference-range', culprit: 'dose', study_sid: 'S2', measurement_type: 'dosing' }),
      f({ kind: 'reference-range', severity: 'minor', culprit: 'output', study_sid: 'S2', measurement_type: 'cmax' }),
      f({ kind: 'input', severity: 'info', study_sid: null }),
    ];
    const s = summarize({ source: { kind: 'export', location: 'x.zip' }, studies: 2, timecourses: 3, findings, classifications: ['agree', 'major', 'major'], calculatedStatuses: ['match'] });
    expect(s.findings).toBe(6);
    expect(s.by_severity).toEqual({ major: 4, minor: 1, info: 1 });
    expect(s.by_kind).toEqual({ 'reported-vs-recomputed': 3, 'reference-range': 2, input: 1 });
    expect(s.by_measurement_type).toEqual({ cmax: 3, auc_inf: 1, dosing: 1, '(none)': 1 });
    expect(s.by_study).toEqual({ S1: { major: 3, minor: 0, info: 0 }, S2: { major: 1, minor: 1, info: 0 }, '(none)': { major: 0, minor: 0, info: 1 } });
    // Minors do not count: a worklist of majors, by what to open first.
    expect(s.majors_by_culprit).toEqual({ output: 1, timecourse: 1, dose: 1, subject: 0, open: 1 });
    expect(s.comparisons).toEqual({ agree: 1, minor: 0, major: 2 });
    expect(s.calculated).toEqual({ match: 1 });
  });
});
