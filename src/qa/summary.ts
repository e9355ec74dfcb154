/** summary.json: counts of findings by kind, severity, measurement type, study and record to fix, and the coverage (coverage.ts). */
import type { Finding } from './finding.js';
import type { Classification } from './classify.js';
import type { CoverageSummary } from './coverage.js';

export interface QaSummary {
  source: { kind: string; location: string };
  studies: number;
  /** Studies of the dataset checked alongside as the cross-study reference only (runQa `studies`), when there are any. */
  reference_studies?: number;
  timecourses: number;
  findings: number;
  by_kind: Record<string, number>;
  by_severity: Record<string, number>;
  by_measurement_type: Record<string, number>;
  by_study: Record<string, { major: number; minor: number; info: number }>;
  /**
   * Major findings by the record they name to fix (`Finding.culprit`): a reported output, a timecourse, a dose, or
   * `open` where the checks cannot tell (the value or its curve, the value or its dose).
   */
  majors_by_culprit: { output: number; timecourse: number; dose: number; subject: number; open: number };
  /** Reported-vs-recomputed comparisons by classification. */
  comparisons: Record<Classification, number>;
  /** Stored-calculated rows by status. */
  calculated: Record<string, number>;
  /** Which reported outputs, timecourses and dosings some comparison examined, and why not the rest. */
  coverage?: CoverageSummary;
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) {
    const k = key(item);
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return counts;
}

export function summarize(input: {
  source: { kind: string; location: string };
  studies: number;
  referenceStudies?: number;
  timecourses: number;
  findings: readonly Finding[];
  classifications: readonly Classification[];
  calculatedStatuses: readonly string[];
  coverage?: CoverageSummary;
}): QaSummary {
  const byStudy: QaSummary['by_study'] = {};
  for (const f of input.findings) {
    const sid = f.study_sid ?? '(none)';
    byStudy[sid] ??= { major: 0, minor: 0, info: 0 };
    byStudy[sid][f.severity]++;
  }
  const classifications = countBy(input.classifications, (c) => c);
  const culprits = countBy(input.findings.filter((f) => f.severity === 'major'), (f) => f.culprit ?? 'open');
  return {
    source: input.source,
    studies: input.studies,
    ...(input.referenceStudies ? { reference_studies: input.referenceStudies } : {}),
    timecourses: input.timecourses,
    findings: input.findings.length,
    by_kind: countBy(input.findings, (f) => f.kind),
    by_severity: { major: 0, minor: 0, info: 0, ...countBy(input.findings, (f) => f.severity) },
    by_measurement_type: countBy(input.findings, (f) => f.measurement_type ?? '(none)'),
    by_study: byStudy,
    majors_by_culprit: { output: culprits.output ?? 0, timecourse: culprits.timecourse ?? 0, dose: culprits.dose ?? 0, subject: culprits.subject ?? 0, open: culprits.open ?? 0 },
    comparisons: { agree: classifications.agree ?? 0, minor: classifications.minor ?? 0, major: classifications.major ?? 0 },
    calculated: countBy(input.calculatedStatuses, (s) => s),
    ...(input.coverage ? { coverage: input.coverage } : {}),
  };
}
