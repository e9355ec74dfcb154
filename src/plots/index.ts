/** Vega-Lite spec builders and headless rendering. */
export { overviewScatterSpec, ratioHistogramSpec, guideLines, CLASSIFICATION_COLORS, type ComparisonPoint } from './overview.js';
export { timecourseSpec, timecourseSpecJson, fitLine, type TimecoursePlotInput } from './timecourse.js';
export { spaghettiSpec, forestSpec, type ProfileRow, type ForestRow } from './notebook.js';
export { rangeStripSpec, type RangeStripInput } from './range-strip.js';
export { renderSvg, renderPng, fontOptions, FONT_DIR, FONT_FAMILY } from './render.js';
