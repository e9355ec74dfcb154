/**
 * The `input` check: problems of each concentration timecourse that make it
 * unfit for recomputation (input-checks.ts: misaligned lists, missing or
 * duplicate times, all-missing series, no or several dosings). Guarded per
 * timecourse, so one broken record is one finding located at it.
 */
import type { QaCheck } from '../check.js';
import { failureFinding } from '../context.js';
import type { Finding } from '../finding.js';
import { checkTimecourseInput } from '../input-checks.js';

export const inputCheck: QaCheck = {
  kind: 'input',
  description: 'concentration timecourses: aligned lists, missing and duplicate times, missing concentrations, a single dosing',
  run(ctx) {
    const findings: Finding[] = [];
    for (const tc of ctx.concentrationTimecourses) {
      try {
        findings.push(...checkTimecourseInput(tc, ctx.dataset.dosingOf(tc)));
      } catch (error) {
        findings.push({ ...failureFinding(`the input check of timecourse ${tc.subset_pk}`, error), study_sid: tc.study_sid, study_name: tc.study_name, subset_pk: tc.subset_pk });
      }
    }
    return findings;
  },
};
