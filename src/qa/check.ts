/**
 * A QA check: a pure function of the prepared context (context.ts) to
 * findings. Checks live one per file in src/qa/checks/ and are listed in
 * src/qa/checks/index.ts; `runChecks` runs each guarded, so that one check
 * that throws is one major finding naming it and the others still run.
 */
import type { QaContext } from './context.js';
import { failureFinding } from './context.js';
import type { Finding, FindingKind } from './finding.js';

export interface QaCheck {
  /** The kind its findings carry (a check may add others, e.g. normed-vs-raw also reports `unit`). */
  kind: FindingKind;
  /** One line for docs and reports: what the check compares. */
  description: string;
  run(ctx: QaContext): Finding[];
}

/** Every check's findings, in registry order; a check that throws becomes one `check-failed` finding. */
export function runChecks(ctx: QaContext, checks: readonly QaCheck[]): Finding[] {
  const findings: Finding[] = [];
  for (const check of checks) {
    try {
      findings.push(...check.run(ctx));
    } catch (error) {
      findings.push({ ...failureFinding(`the ${check.kind} check`, error), details: { check: check.kind } });
    }
  }
  return findings;
}
