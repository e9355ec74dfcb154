/**
 * Accepted findings: a JSON file a curator edits and commits beside the data,
 * listing findings that were reviewed and need no fix, by stable id
 * (finding-id.ts), with who accepted them, when, why, and the values seen then:
 *
 *   { "accepted": [
 *       { "id": "F-0123456789ab", "who": "jdoe", "when": "2024-05-02",
 *         "why": "authors report the parameter of the mean curve",
 *         "seen": { "reported": 1.2, "recomputed": 1.5, "ratio": 0.8 },
 *         "about": "SYN0002 cmax output 131 (optional, for the reader)" } ] }
 *
 * JSON only: no YAML parser is installed, and JSON keeps the file diffable.
 * A finding whose reported/recomputed/ratio moved since (relative difference
 * over VALUE_TOLERANCE) is *re-opened*: the acceptance was about other numbers.
 * Entries whose id no run finds any more are *stale* (fixed, or the record
 * renumbered) and listed so the file can be pruned.
 *
 * Reading the file (its zod schema) is accepted-file.ts: a run without one does not load zod.
 */
import type { AcceptedEntry } from './accepted-file.js';
import { SEVERITY_RANK, type Finding, type Severity } from './finding.js';
import { findingId } from './finding-id.js';

/**
 * Relative tolerance for "the same value": reruns are bit-identical, so this
 * only absorbs float formatting across exports; any real edit is far larger.
 */
export const VALUE_TOLERANCE = 1e-6;

/** |a − b| / max(|a|, |b|) ≤ VALUE_TOLERANCE; two nulls are equal, null and a number are not. */
export function sameValue(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  if (a === b) return true;
  return Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b)) <= VALUE_TOLERANCE;
}

const SEEN_FIELDS = ['reported', 'recomputed', 'ratio'] as const;

/** The fields whose value differs from what the entry saw. */
export function changedValues(f: Finding, entry: AcceptedEntry): string[] {
  return SEEN_FIELDS.filter((k) => !sameValue(f[k], entry.seen[k]));
}

export type ReviewState = 'open' | 'accepted' | 'reopened';

export interface FindingReview {
  /** By finding id; findings without an entry are open. */
  entries: Map<string, { state: Exclude<ReviewState, 'open'>; entry: AcceptedEntry; changed: string[] }>;
  /** Entries whose id no finding has. */
  stale: AcceptedEntry[];
}

/**
 * Matches findings (with ids) against accepted entries. Linear: one map lookup per finding.
 * `checkedStudies`: the studies the run covered (--study); entries of other studies are not stale.
 */
export function reviewFindings(findings: readonly Finding[], accepted: readonly AcceptedEntry[], checkedStudies?: ReadonlySet<string>): FindingReview {
  const byId = new Map(accepted.map((e) => [e.id, e]));
  const entries: FindingReview['entries'] = new Map();
  const found = new Set<string>();
  for (const f of findings) {
    const id = f.id ?? findingId(f);
    const entry = byId.get(id);
    if (!entry) continue;
    found.add(id);
    const changed = changedValues(f, entry);
    entries.set(id, { state: changed.length > 0 ? 'reopened' : 'accepted', entry, changed });
  }
  const checked = (e: AcceptedEntry) => !checkedStudies || !e.study_sid || checkedStudies.has(e.study_sid);
  return { entries, stale: accepted.filter((e) => !found.has(e.id) && checked(e)) };
}

export function reviewState(f: Finding, review: FindingReview | undefined): ReviewState {
  return review?.entries.get(f.id ?? findingId(f))?.state ?? 'open';
}

/** Counts by severity of the findings still to look at (open and re-opened): what --fail-on counts. */
export function openBySeverity(findings: readonly Finding[], review: FindingReview | undefined): Record<Severity, number> {
  const counts: Record<Severity, number> = { major: 0, minor: 0, info: 0 };
  for (const f of findings) if (reviewState(f, review) !== 'accepted') counts[f.severity]++;
  return counts;
}

/** summary.json's `review` block. */
export function reviewSummary(findings: readonly Finding[], review: FindingReview, file: string) {
  let accepted = 0;
  let reopened = 0;
  for (const { state } of review.entries.values()) state === 'accepted' ? accepted++ : reopened++;
  return {
    accepted_file: file,
    accepted,
    reopened,
    open_by_severity: openBySeverity(findings, review),
    stale: review.stale.map((e) => ({ id: e.id, who: e.who, when: e.when, ...(e.about ? { about: e.about } : {}) })),
  };
}
export type ReviewSummary = ReturnType<typeof reviewSummary>;

/** A finding as findings.json writes it: with `accepted` or `reopened` when the review has it. */
export type ReviewedFinding = Finding & {
  accepted?: Pick<AcceptedEntry, 'who' | 'when' | 'why'>;
  reopened?: Pick<AcceptedEntry, 'who' | 'when' | 'why' | 'seen'> & { changed: string[] };
};

export function reviewedFinding(f: Finding, review: FindingReview | undefined): ReviewedFinding {
  const r = review?.entries.get(f.id ?? findingId(f));
  if (!r) return f;
  const { who, when, why } = r.entry;
  return r.state === 'accepted' ? { ...f, accepted: { who, when, why } } : { ...f, reopened: { who, when, why, seen: r.entry.seen, changed: r.changed } };
}

/** One line a person can read in the file: study, type, record and the start of the message. */
function aboutText(f: Finding): string {
  const where = [f.study_sid, f.measurement_type, f.output_pk !== null ? `output ${f.output_pk}` : f.subset_pk !== null ? `subset ${f.subset_pk}` : null];
  return `${where.filter(Boolean).join(' ')}: ${f.message.slice(0, 160)}`;
}

export function acceptedEntryFor(f: Finding, who: string, when: string, why: string): AcceptedEntry {
  return {
    id: f.id ?? findingId(f),
    who,
    when,
    why,
    seen: { reported: f.reported, recomputed: f.recomputed, ratio: f.ratio },
    study_sid: f.study_sid,
    about: aboutText(f),
  };
}

/**
 * The starting file of `--accept-all-to`: the entries still valid in `review`
 * (accepted, values unchanged), then one new entry per other finding at or
 * above `minSeverity`, each once.
 */
export function acceptAll(
  findings: readonly Finding[],
  opts: { who: string; when: string; why: string; minSeverity: Severity; review?: FindingReview },
): { accepted: AcceptedEntry[] } {
  const entries: AcceptedEntry[] = [];
  const ids = new Set<string>();
  for (const { state, entry } of opts.review?.entries.values() ?? []) {
    if (state === 'accepted') (entries.push(entry), ids.add(entry.id));
  }
  for (const f of findings) {
    const id = f.id ?? findingId(f);
    if (ids.has(id) || SEVERITY_RANK[f.severity] < SEVERITY_RANK[opts.minSeverity]) continue;
    ids.add(id);
    entries.push(acceptedEntryFor(f, opts.who, opts.when, opts.why));
  }
  return { accepted: entries };
}
