/** The HTML report and the files of a QA run. */
export { renderReport, EAGER_CHART_LIMIT } from './html.js';
export { buildReportCharts, timecoursePlotInput, comparisonPoints, type ReportCharts } from './charts.js';
export { writeQaOutputs, type WriteOptions } from './write.js';
export { toCsv, csvField } from './csv.js';
export { escapeHtml, jsonForScript } from './escape.js';
