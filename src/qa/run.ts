/**
 * The QA run: prepare the context once, run every registered check, sort,
 * summarise. Never throws on bad data: a broken timecourse or a failing check
 * becomes a finding and the run goes on.
 */
import type { Dataset } from '../data/dataset.js';
import type { CalculatedRow } from './calculated.js';
import { runChecks, type QaCheck } from './check.js';
import { CHECKS } from './checks/index.js';
import type { Comparison } from './compare-reported.js';
import { prepareContext, type QaContext, type QaContextOptions, type RecomputedTimecourse } from './context.js';
import { coverageSummary } from './coverage.js';
import { SEVERITY_RANK, type Finding } from './finding.js';
import { withFindingIds } from './finding-id.js';
import { summarize, type QaSummary } from './summary.js';

export interface QaOptions extends QaContextOptions {
  /** The checks to run (default: the registry, src/qa/checks/index.ts). */
  checks?: readonly QaCheck[];
}

export interface QaResult {
  findings: Finding[];
  calculated: CalculatedRow[];
  comparisons: Comparison[];
  /** Every concentration timecourse with its recomputations (for plots). */
  timecourses: RecomputedTimecourse[];
  summary: QaSummary;
}

/** localeCompare's order (the default locale), from one collator rather than a lookup per comparison. */
const byLocale = new Intl.Collator().compare;

/** Most severe first, then by study, subset and output; equal ones keep the order of the checks. */
export function sortFindings(findings: Finding[]): Finding[] {
  return findings.sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      byLocale(a.study_sid ?? '', b.study_sid ?? '') ||
      (a.subset_pk ?? 0) - (b.subset_pk ?? 0) ||
      (a.output_pk ?? 0) - (b.output_pk ?? 0),
  );
}

/** The comparisons, or none when computing them threw (the reported-vs-recomputed check has said so). */
function comparisonsOf(ctx: QaContext): Comparison[] {
  try {
    return [...ctx.comparisons];
  } catch {
    return [];
  }
}

export function runQa(dataset: Dataset, options: QaOptions = {}): QaResult {
  const ctx = prepareContext(dataset, options);
  // Ids from the kind and record ids (finding-id.ts), so every consumer of the result sees the same ones.
  const findings = withFindingIds(sortFindings([...ctx.findings, ...runChecks(ctx, options.checks ?? CHECKS)]));
  const comparisons = comparisonsOf(ctx);
  const summary = summarize({
    source: ctx.source,
    studies: ctx.tables.studies.length,
    timecourses: ctx.concentrationTimecourses.length,
    findings,
    classifications: comparisons.map((c) => c.verdict.classification),
    calculatedStatuses: ctx.calculated.map((r) => r.status),
    coverage: coverageSummary(ctx.tables, ctx.coverage),
  });
  return { findings, calculated: [...ctx.calculated], comparisons, timecourses: [...ctx.timecourses], summary };
}
