/** The PK-DB API v1 client, its errors and the resource schemas. */
export { PkdbClient, normaliseBaseUrl, type PkdbClientOptions, type PageProgress, type AllOptions, type StatisticsAccessor, type DataFileUpload, type FilterDownload } from './client.js';
export { HttpError, SchemaError, NetworkError, LimitError, type ClientLimit, type RequestContext } from './errors.js';
export { CLIENT_DEFAULTS } from './client.js';
export { redactUrlText, type AuthMode } from './auth.js';
export { pageProblem, pageCountProblem, laterPageProblem, type PageShape, type PageProblem } from './pages.js';
export { filterParams, encodeFilterValue, FILTER_TABLES, type FilterQuery, type FilterValue, type FilterTable } from './filter.js';
export type { StudiesFilter, GroupsFilter, IndividualsFilter, InterventionsFilter, OutputsFilter } from './filter.js';
export { applyParams, type ListParams, type QueryValue } from './query.js';
export { ResponseCache } from './cache.js';
export { backoffDelayMs, parseRetryAfter, retryDelayMs, RETRYABLE_STATUSES, RETRYABLE_ERROR_CODES } from './retry.js';
export type { RequestInfo, RetryInfo } from './http.js';
export * from './schemas/index.js';
