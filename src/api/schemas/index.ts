/** zod schemas of the PK-DB API v1 resources: each is the single source of its TypeScript type. */
export * from './common.js';
export * from './study.js';
export * from './subjects.js';
export * from './interventions.js';
export * from './outputs.js';
export * from './data.js';
export * from './meta.js';
export * from './envelope.js';
export * from './resources.js';
export { formatPath, describeSchema, describeValue, schemaAt, formatIssue, parseOrThrow, parseStrict, unknownKeys } from './validate.js';
