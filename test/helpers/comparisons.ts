/**
 * Reported-vs-recomputed comparisons for the rules that read several of them (curve-cause, lone-value): only the
 * fields those rules and `comparisonFinding` read, classified as the run would.
 */
import { classify } from '../../src/qa/classify.js';
import type { Comparison } from '../../src/qa/compare-reported.js';
import type { ReportedParameter } from '../../src/qa/tolerances.js';

export interface ComparisonOptions {
  /** The timecourse's subset pk (default 11). */
  subset?: number;
  subjectKind?: 'group' | 'individual';
  substance?: string;
  /** The substance's molar mass, for the classification (default none). */
  molarMass?: number | null;
}

let nextOutputPk = 1;

/** A comparison of `parameter` of one reported output (its own pk) with its timecourse `subset` of study S. */
export function comparisonOf(parameter: ReportedParameter, reported: number, recomputed: number, options: ComparisonOptions = {}): Comparison {
  const { subset = 11, subjectKind = 'group', substance = 'x', molarMass = null } = options;
  const individual = subjectKind === 'individual';
  return {
    parameter,
    subjectKind,
    reported,
    recomputed,
    reported_unit: 'x',
    profile: 'standard',
    pkdb: null,
    standard: recomputed,
    conversion: null,
    bodyWeightKg: null,
    verdict: classify({ parameter, reported, recomputed, subject: subjectKind, bodyWeightKg: null, molarMass }),
    output: { pk: nextOutputPk++, study_sid: 'S', study_name: 'S', substance, tissue: 'plasma', group_pk: individual ? null : 3, individual_pk: individual ? 3 : null },
    timecourse: { tc: { subset_pk: subset }, dose: null, dosingPks: [] },
  } as unknown as Comparison;
}
