/** The report pages and the files of a QA run. */
export { renderIndexPage, renderStudyPage, groupByStudy, studyFileName } from './pages.js';
export { buildReportCharts, timecoursePlotInput, comparisonPoints, findingRange, type ReportCharts } from './charts.js';
export { writeQaOutputs, type WriteOptions } from './write.js';
export { displayValue, displayText } from './display-units.js';
export { toCsv, csvField } from './csv.js';
export { escapeHtml, jsonForScript } from './escape.js';
