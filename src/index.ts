/**
 * pkdb-toolkit: typed access to PK-DB pharmacokinetics data, a local PK-DB v1
 * server, unit handling, non-compartmental analysis and QA reports.
 *
 * The surface follows the pipeline: source → dataset → units → NCA → findings → report.
 *
 * @example
 * ```ts
 * import { loadFixtures, runQa, nca } from 'pkdb-toolkit';
 * const dataset = await loadFixtures();
 * const { findings } = runQa(dataset);
 * const result = nca({ time: [0, 1, 2, 4, 8], conc: [0, 8, 6, 3, 1], dose: 100 });
 * console.log(result.parameters.LAMZHL);
 * ```
 */

// ---- source: the PK-DB API client and its resource schemas -------------------
/** Typed client for every GET endpoint, `/filter/` and its zip download, Basic-auth writes, retries, cache. */
export { PkdbClient, type PkdbClientOptions, type PageProgress, type AllOptions, type FilterDownload } from './api/client.js';
/** Typed errors naming the URL that failed. */
export { HttpError, SchemaError, NetworkError } from './api/errors.js';
/** Query builder for `/filter/` (prefixed parameters, `__in` lists, uuid reuse, concise). */
export { filterParams, type FilterQuery } from './api/filter.js';
/** One zod schema per API resource (the single source of each type), the paginated envelope and `RESOURCES`. */
export * as schemas from './api/schemas/index.js';
export type {
  Study,
  FlatStudy,
  Reference,
  Group,
  Individual,
  Characteristica,
  Intervention,
  FlatIntervention,
  Output,
  FlatOutput,
  Subset,
  InfoNode,
  FilterSummary,
  ResourceName,
  ResourceItem,
} from './api/schemas/index.js';

// ---- source: export zips -----------------------------------------------------
/** Reads a PK-DB filter download zip into dataset tables; malformed rows become `problems`. */
export { readExport, ExportError, formatProblem, type ExportProblem, type ExportReadResult, type ReadExportOptions } from './data/export/read.js';
/** GET /filter/?download=true through a client, read by the export reader. */
export { downloadExport, type FilterDownloader } from './data/export/download.js';
/** Writes dataset tables as a zip in PK-DB's own export format. */
export { writeExport } from './data/export/write.js';

// ---- dataset -----------------------------------------------------------------
/** The in-memory dataset with its indexes (timecourses per study, dosing of a timecourse, linked outputs, ...). */
export { Dataset, linkKey, subjectOf, subjectLabel, type SubjectRef, type LinkedOutputs } from './data/dataset.js';
export type * from './data/model.js';
export { type DatasetCounts } from './data/counts.js';
/** Builds dataset tables from API items, or crawls a PK-DB API into a Dataset. */
export { tablesFromApi, crawlDataset, type ApiItems, type CrawlOptions } from './data/from-api.js';
/** The bundled synthetic dataset and its planted errors. */
export { loadFixtures, FIXTURES_DIR, FIXTURES_EXPORT, expectedFixtureFindings, type ExpectedFinding } from './data/fixtures.js';
/** Restricts tables to some studies. */
export { filterStudies, resolveStudies } from './data/select.js';
/** Joins a reference release to the studies checked, its pks moved past theirs (`runQa(…, { studies })` then reports on those). */
export { joinReference, type JoinedTables } from './data/join-reference.js';
export { diffDatasets, type DatasetDiff, type RecordChange, type FieldChange } from './data/diff.js';
/** arquero DataFrame views of the tables, for notebooks. */
export { frames, type DatasetFrames } from './data/frames.js';

// ---- units -------------------------------------------------------------------
/** PK-DB unit spellings on mathjs, cached conversion, molar masses, normalised units and `normalize`. */
export {
  parseUnit,
  parseUnitOrNull,
  dimensionOf,
  conversionFactor,
  conversionFactorOrNull,
  convert,
  isConvertible,
  molarMassLookup,
  BUILTIN_MOLAR_MASSES,
  normalisedUnits,
  isNormalisedUnit,
  normalize,
  explainRatio,
  UnitError,
  type ParsedUnit,
  type ConversionOptions,
} from './units/index.js';

// ---- NCA ---------------------------------------------------------------------
/** Standard non-compartmental analysis (CDISC PPTESTCD names) and PK-DB's 2020 `pkdb` profile. */
export {
  nca,
  ncaByGroup,
  pkdbNca,
  PPTESTCD,
  codesForRoute,
  NcaInputError,
  type NcaInput,
  type NcaOptions,
  type NcaResult,
  type Pptestcd,
  type Route,
  type AucMethod,
  type PkdbInput,
  type PkdbOutput,
  urineNca,
  ncaInput,
  sparseAuc,
  bootstrapMeanCurve,
  withinUncertainty,
  applyBlq,
  qualityFlags,
  type UrineInput,
  type UrineResult,
  type BlqRules,
  type LambdaZControls,
  type QualityFlag,
  PARAMETERS,
  ncaIntervals,
  type Dose,
  type IntervalSpec,
  type IntervalOptions,
  type IntervalResult,
  aucInterval,
  partialAreas,
  concentrationAt,
  type AucIntervalOptions,
  type AucType,
  superpose,
  steadyState,
  type SuperpositionOptions,
  type SteadyStateOptions,
  type SteadyStatePrediction,
} from './nca/index.js';

// ---- QA ----------------------------------------------------------------------
/** The QA run (stored vs recomputed vs reported, normed vs raw, input problems) and its parts. */
export {
  runQa,
  recomputeCalculated,
  checkNormedVsRaw,
  classify,
  finding,
  FINDING_COLUMNS,
  type QaOptions,
  type QaResult,
  type QaSummary,
  type CalculatedRow,
  type Finding,
  type FindingKind,
  type Severity,
} from './qa/index.js';
/** Stable finding ids, accepted findings and the comparison of two releases. */
export { findingId, withFindingIds } from './qa/finding-id.js';
export { reviewFindings, acceptAll } from './qa/accepted.js';
export { readAcceptedFile, parseAcceptedFile, AcceptedFileError, type AcceptedEntry } from './qa/accepted-file.js';
export { diffReleases, diffFindings, factorLabel, type ReleaseDiff } from './qa/release-diff.js';

// ---- plots and report ----------------------------------------------------------
/** Vega-Lite spec builders and headless SVG/PNG rendering. */
export {
  overviewScatterSpec,
  ratioHistogramSpec,
  timecourseSpec,
  spaghettiSpec,
  forestSpec,
  renderSvg,
  renderPng,
} from './plots/index.js';
/** The self-contained HTML report and the files of a QA run. */
export { renderIndexPage, renderStudyPage, writeQaOutputs, displayValue } from './report/index.js';
export { writeDiffOutputs, renderDiffHtml } from './report/diff.js';

// ---- server ------------------------------------------------------------------
/** The local PK-DB v1 service over a dataset. */
export { startServer, type ServerOptions, type RunningServer } from './server/app.js';
