/** Non-compartmental analysis: the standard profile and PK-DB's 2020 `pkdb` profile. */
export { ROUTES, AUC_METHODS, type Route, type AucMethod } from './codes.js';
export { PPTESTCD, codesForRoute, type Pptestcd } from './parameters.js';
export { NcaInputError } from './clean.js';
export { applyBlq, blqRules, BLQ_PRESETS, BLQ_RULES, type BlqRule, type BlqRules, type BlqPreset } from './blq.js';
export { PARAMETERS, PARAMETER, parameterRows, type ParameterRow, type UnitRule, type Scope } from './parameters.js';
export * as derived from './derived.js';
export { ncaIntervals, type Dose, type IntervalSpec, type IntervalOptions, type IntervalResult } from './intervals.js';
export { superpose, steadyState, type SuperpositionOptions, type SteadyStateOptions, type SteadyStatePrediction } from './superposition.js';
export { aucInterval, partialAreas, concentrationAt, type AucIntervalOptions, type AucType } from './partial-auc.js';
export { urineNca, collectionsFromCumulative, excretionRate, renalClearance, URINE_CODES, type UrineInput, type UrineResult, type UrineCode, type Collection, type CollectionRow } from './urine.js';
export { ncaInput, ncaRoute, type PkdbNcaInput } from './from-pkdb.js';
export { sparseAuc, trapezoidWeights, type SparseSample, type SparseAuc } from './sparse.js';
export { mulberry32 } from './random.js';
export { bootstrapMeanCurve, withinUncertainty, type BootstrapOptions, type BootstrapResult, type ParameterUncertainty } from './bootstrap.js';
export { nca, type NcaInput, type NcaOptions, type NcaResult, type ParameterValue, type LambdaZPoints } from './nca.js';
export type { LambdaZSelection, LambdaZControls } from './select-lambda-z.js';
export { qualityFlags, DEFAULT_FLAG_THRESHOLDS, type QualityFlag, type FlagThresholds } from './flags.js';
export { ncaByGroup, type GroupColumns, type GroupResult } from './group.js';
export {
  pkdbNca,
  PKDB_PARAMETERS,
  PkdbProfileError,
  type PkdbInput,
  type PkdbDosing,
  type PkdbOutput,
  type PkdbParameter,
  type SeriesField,
} from './pkdb/profile.js';
