/**
 * The `calculated` check: PK-DB's stored calculated outputs against the pkdb
 * profile's recomputation of their timecourse (calculated.ts, PK-DB calculation).
 * Mismatching or missing values are major, extra ones minor.
 */
import type { QaCheck } from '../check.js';
import type { Finding } from '../finding.js';
import { calculatedFinding } from '../to-findings.js';

export const calculatedCheck: QaCheck = {
  kind: 'calculated',
  description: "PK-DB's stored calculated outputs against the pkdb profile recomputed from their timecourse",
  run(ctx) {
    return ctx.calculated.map(calculatedFinding).filter((f): f is Finding => f !== null);
  },
};
