/**
 * Stable finding ids. A curator accepts a finding by its id and compares two
 * releases by ids, so the id must name *what* the finding is about, never
 * where it sits in the list or what numbers it shows:
 *
 *   id = "F-" + first 12 hex digits of sha256(canonical)
 *   canonical = JSON [version, kind, check, study_sid, subset_pk, output_pk,
 *                     measurement_type, subject, record pks from details and intervention_pk]
 *
 * - `check` is the finding's own `check` code when the check sets one, else
 *   (only for kinds that can give several findings per record: input,
 *   normed-vs-raw, unit) the *shape* of its message: numbers replaced by `#`,
 *   parenthesised asides and the explanation after ` — ` dropped, so that a
 *   changed value does not change the id. Reported-vs-recomputed and
 *   calculated findings are one per output / per timecourse parameter, so
 *   their record ids alone identify them.
 * - Record pks from details: the `pk` of `raw`, `normed`, `intervention`,
 *   `output`, `characteristica` records and `dosing_pks`; lists are sorted.
 *   Summary lists (`pks`, the first 20 records of a unit problem) are left out:
 *   they grow with the data.
 * - 48 bits: the chance of any collision among 10⁵ findings is ~2·10⁻⁵.
 *
 * Ids are made of pks, so a re-export that keeps the pks keeps the ids. PK-DB
 * renumbers a study's records when it is re-uploaded; `pkdb diff` then maps old
 * pks to new ones by stable record keys (src/data/diff.ts) and passes that map
 * as `remap`, so findings still compare across the two releases.
 */
import * as crypto from 'node:crypto';
import type { PkTable } from '../data/diff.js';
import type { Finding } from './finding.js';

/** Bumped when the canonical form changes: every id changes with it. */
const ID_VERSION = 1;

/** Kinds whose record ids alone identify a finding (one finding per output or per timecourse parameter). */
const ONE_PER_RECORD: ReadonlySet<Finding['kind']> = new Set(['reported-vs-recomputed', 'calculated']);

export type { PkTable };

/** Old pk → new pk; undefined when the record has no counterpart. */
export type PkRemap = (table: PkTable, pk: number) => number | undefined;

/** The message with its values taken out: what kind of problem it states. */
export function messageShape(message: string): string {
  return message
    .split(' — ')[0]
    .replace(/\([^()]*\)/g, '')
    .replace(/[-+]?(\d[\d.]*)(e[-+]?\d+)?/gi, '#')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 160);
}

/** A pk through the remap; an unmatched one is marked so it cannot collide with a new pk. */
function mapped(table: PkTable, pk: number | null, remap?: PkRemap): number | string | null {
  if (pk === null || !remap) return pk;
  return remap(table, pk) ?? `gone:${pk}`;
}

function mappedSubject(subject: string | null, remap?: PkRemap): string | null {
  if (!subject || !remap) return subject;
  const m = /^(group|individual):(\d+)$/.exec(subject);
  return m ? `${m[1]}:${mapped(m[1] as PkTable, Number(m[2]), remap)}` : subject;
}

/** The table of a record kept in details, by the fields only that table has. */
function recordTable(record: Record<string, unknown>): PkTable | null {
  if ('intervention_pks' in record) return 'output';
  if ('route' in record) return 'intervention';
  return null;
}

const DETAIL_RECORDS = ['raw', 'normed', 'intervention', 'output', 'characteristica'] as const;

/** `name:pk` for every record the details name (see the header). */
export function detailRecordPks(details: Record<string, unknown> | undefined, remap?: PkRemap): string[] {
  if (!details) return [];
  const keys: string[] = [];
  for (const name of DETAIL_RECORDS) {
    const value = details[name];
    for (const record of Array.isArray(value) ? value : [value]) {
      if (record === null || typeof record !== 'object') continue;
      const pk = (record as { pk?: unknown }).pk;
      if (typeof pk !== 'number') continue;
      const table = recordTable(record as Record<string, unknown>);
      keys.push(`${name}:${table ? mapped(table, pk, remap) : pk}`);
    }
  }
  const dosing = details.dosing_pks;
  if (Array.isArray(dosing)) {
    for (const pk of dosing) if (typeof pk === 'number') keys.push(`dosing:${mapped('intervention', pk, remap)}`);
  }
  return keys.sort();
}

/** The canonical string an id is the hash of. */
export function findingCanonical(f: Finding, remap?: PkRemap): string {
  const check = f.check ?? (ONE_PER_RECORD.has(f.kind) ? null : messageShape(f.message));
  return JSON.stringify([
    ID_VERSION,
    f.kind,
    check,
    f.study_sid,
    mapped('subset', f.subset_pk, remap),
    mapped('output', f.output_pk, remap),
    f.measurement_type,
    mappedSubject(f.subject, remap),
    // The dosing intervention a finding is about (a dose slip): appended only when set, so ids of findings
    // without one stay what they were.
    f.intervention_pk != null ? [...detailRecordPks(f.details, remap), `intervention:${mapped('intervention', f.intervention_pk, remap)}`].sort() : detailRecordPks(f.details, remap),
  ]);
}

/**
 * Hex sha256 of a string's UTF-8 bytes: the one-shot `crypto.hash` where Node has it (20.12+), without a Hash
 * object per finding (~4,700 ids in a QA run of the shared export), else `createHash`. Same digest either way.
 */
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
export const sha256Hex: (text: string) => string =
  typeof oneShot === 'function' ? (text) => oneShot('sha256', text, 'hex') : (text) => crypto.createHash('sha256').update(text).digest('hex');

/** `F-` + 12 hex digits of sha256 of the canonical string. */
export function findingId(f: Finding, remap?: PkRemap): string {
  return `F-${sha256Hex(findingCanonical(f, remap)).slice(0, 12)}`;
}

/** The findings with `id` set (first, so it leads in JSON); those that have one keep it. */
export function withFindingIds(findings: readonly Finding[]): Finding[] {
  return findings.map((f) => {
    if (f.id) return f;
    const id = findingId(f);
    return Object.assign({ id }, f, { id });
  });
}
