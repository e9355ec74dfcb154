/**
 * Parts of a dataset for the qa-parts bench: a seeded draw of studies, and the majors a part's run finds that the
 * whole run does not. A part has thinner references (fewer studies per substance) than the whole, as a curator's own
 * export or a later PK-DB release may: its run should find a subset of the whole run's majors, and a major the
 * whole run does not call major on a study the whole run does not flag at all is a false alarm the thinner evidence
 * raised.
 */
import type { Finding } from '../../src/index.js';
import { mulberry32 } from '../../src/nca/random.js';
import { onFlaggedRecord } from './recall.js';

/** Each study in the part with probability `fraction`, in the order given, drawn from `seed` (src/nca/random.ts). */
export function drawPart(sids: readonly string[], fraction: number, seed: number): Set<string> {
  const random = mulberry32(seed);
  return new Set(sids.filter(() => random() < fraction));
}

/** One finding's record: its kind and the records it names. */
export function recordKey(f: Pick<Finding, 'kind' | 'study_sid' | 'output_pk' | 'subset_pk' | 'intervention_pk' | 'subject'>): string {
  return `${f.kind}|${f.study_sid ?? ''}|${f.output_pk ?? ''}|${f.subset_pk ?? ''}|${f.intervention_pk ?? ''}|${f.subject ?? ''}`;
}

export interface PartAlarms {
  /** Majors of the part's run. */
  majors: number;
  /** Majors the whole run does not call major, on a study it flags major elsewhere (a real error, another record named). */
  onFlaggedStudies: Finding[];
  /** Of those, the ones on a record the whole run flags too (minor or major, any check): its own real error. */
  onFlaggedRecords: number;
  /** Majors the whole run does not call major, on a study with no major in the whole run: false alarms. */
  onCleanStudies: Finding[];
  /** Majors of the whole run in the part's studies that the part's run does not find (evidence the part lacks). */
  lost: number;
}

/** The part's majors set against the whole run's, over the part's studies. */
export function partAlarms(whole: readonly Finding[], part: readonly Finding[], studies: ReadonlySet<string>): PartAlarms {
  const wholeMajors = whole.filter((f) => f.severity === 'major');
  const wholeKeys = new Set(wholeMajors.map(recordKey));
  const flagged = new Set(wholeMajors.map((f) => f.study_sid));
  const majors = part.filter((f) => f.severity === 'major');
  const partKeys = new Set(majors.map(recordKey));
  const extra = majors.filter((f) => !wholeKeys.has(recordKey(f)));
  const onFlaggedStudies = extra.filter((f) => flagged.has(f.study_sid));
  return {
    majors: majors.length,
    onFlaggedStudies,
    onFlaggedRecords: onFlaggedStudies.filter((f) => onFlaggedRecord(f, whole)).length,
    onCleanStudies: extra.filter((f) => !flagged.has(f.study_sid)),
    lost: wholeMajors.filter((f) => studies.has(f.study_sid ?? '') && !partKeys.has(recordKey(f))).length,
  };
}
