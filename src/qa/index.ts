/** The QA run and its building blocks, for notebooks and the library surface. */
export { runQa, sortFindings, type QaOptions, type QaResult } from './run.js';
export { prepareContext, matchKey, type QaContext, type QaContextOptions, type RecomputedTimecourse } from './context.js';
export { runChecks, type QaCheck } from './check.js';
export { CHECKS } from './checks/index.js';
export { canonicalUnit, CANONICAL_UNITS, type ParameterValue } from './parameters.js';
export { classify, samplingIntervalAround, ratioOf, SEVERITY_OF, type Classification, type ComparisonContext, type Verdict } from './classify.js';
export { ratioCauses, unitFactorCause, perKgCause, SCALE_FACTORS, type SuspectedCause } from './causes.js';
export { TOLERANCES, REPORTED_PARAMETERS, isReportedParameter, type ReportedParameter, type Tolerance } from './tolerances.js';
export { compareReported, inUnit, reportedValue, type Comparison } from './compare-reported.js';
export { doseMismatchCauses } from './dose-cause.js';
export { curveLevelCauses } from './curve-cause.js';
export { checkTimecourseInput } from './input-checks.js';
export { standardRecomputation, doseInfo, pkdbValuesBySubset, type StandardRecomputation, type DoseInfo } from './recompute.js';
export { recomputeCalculated, type CalculatedRow } from './calculated.js';
export { checkNormedVsRaw } from './normed-vs-raw.js';
export { finding, FINDING_COLUMNS, SEVERITY_RANK, type Finding, type FindingKind, type Severity } from './finding.js';
export { CALCULATED_COLUMNS } from './to-findings.js';
export type { QaSummary } from './summary.js';
