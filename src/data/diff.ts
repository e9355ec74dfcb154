/**
 * What changed between two releases of the data: studies and records added,
 * removed and changed, with old and new values and the factor between them.
 *
 * pks are not stable across releases (PK-DB recreates a study's records when
 * it is re-uploaded), so records are matched by keys made of what a curator
 * names (documented per table in KEYS below):
 * - studies: sid;
 * - groups, individuals: study + name; interventions: study + normed + name;
 * - outputs: study + normed + calculated + subject (kind and name) +
 *   intervention names + measurement type, substance, tissue, method, label,
 *   time, calculation type (timecourse points are compared inside their
 *   timecourse, not one by one);
 * - timecourses: study + normed + subset name + subject + intervention names +
 *   measurement type, substance, tissue, method, label.
 * A key shared by several records of either release is ambiguous: those
 * records add their unit (`<key>#unit=…`: a clearance in L/h and one per kg),
 * then, if still shared, their rank in pk order (`#1`, `#2`): a re-upload
 * renumbers records but keeps their order. (Matching ambiguous records by pk
 * would fail exactly when pks change.)
 *
 * Linear in the number of records: one key map per table and side.
 * The factor of a numeric change is new / old (null for zero or non-finite);
 * a list changes by a factor when every changed element has the same one.
 */
import type {
  CharacteristicaRecord,
  DatasetTables,
  GroupRecord,
  IndividualRecord,
  InterventionRecord,
  OutputRecord,
  StudyRecord,
  TimecourseRecord,
} from './model.js';
import { STAT_KEYS } from './model.js';

export const DIFF_TABLES = ['studies', 'groups', 'individuals', 'interventions', 'outputs', 'timecourses'] as const;
export type DiffTable = (typeof DIFF_TABLES)[number];

export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
  /** new / old for numbers (and lists changed by one factor); null otherwise. */
  factor: number | null;
}

export interface RecordChange {
  table: DiffTable;
  change: 'added' | 'removed' | 'changed';
  study_sid: string;
  key: string;
  old_pk: number | string | null;
  new_pk: number | string | null;
  /** Changed fields (empty for added and removed records). */
  fields: FieldChange[];
}

export type PkTable = 'output' | 'subset' | 'group' | 'individual' | 'intervention';

export interface DatasetDiff {
  studies: { added: string[]; removed: string[]; changed: string[] };
  /** Every record added, removed or changed, tables in DIFF_TABLES order. */
  records: RecordChange[];
  counts: Record<DiffTable, { added: number; removed: number; changed: number; unchanged: number }>;
  /** Old pk → new pk of matched records (timecourse points by position), for comparing findings. */
  pkMap: Record<PkTable, Map<number, number>>;
}

/** Relative difference under which two numbers are the same (float formatting across exports). */
const SAME = 1e-9;

function sameNumber(a: number, b: number): boolean {
  return a === b || (Number.isNaN(a) && Number.isNaN(b)) || Math.abs(a - b) <= SAME * Math.max(Math.abs(a), Math.abs(b));
}

function ratio(a: unknown, b: unknown): number | null {
  if (typeof a !== 'number' || typeof b !== 'number' || a === 0 || !Number.isFinite(a) || !Number.isFinite(b)) return null;
  const r = b / a;
  return r > 0 ? r : null;
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** The changes of one field: plain objects (characteristica) field by field as `field.sub`, else fieldChange. */
export function fieldChanges(field: string, a: unknown, b: unknown, into: FieldChange[]): void {
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const sub of new Set([...Object.keys(a), ...Object.keys(b)])) fieldChanges(`${field}.${sub}`, a[sub], b[sub], into);
    return;
  }
  const change = fieldChange(field, a, b);
  if (change) into.push(change);
}

/** The change of one field, or null when equal. Lists compare element by element. */
export function fieldChange(field: string, a: unknown, b: unknown): FieldChange | null {
  if (typeof a === 'number' && typeof b === 'number') return sameNumber(a, b) ? null : { field, old: a, new: b, factor: ratio(a, b) };
  if (Array.isArray(a) && Array.isArray(b)) {
    let factor: number | null | undefined;
    let differs = a.length !== b.length;
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const x = a[i];
      const y = b[i];
      if (typeof x === 'number' && typeof y === 'number' ? sameNumber(x, y) : JSON.stringify(x) === JSON.stringify(y)) continue;
      differs = true;
      const r = ratio(x, y);
      factor = factor === undefined ? r : factor !== null && r !== null && sameNumber(factor, r) ? factor : null;
    }
    if (!differs) return null;
    return { field, old: a, new: b, factor: a.length === b.length ? (factor ?? null) : null };
  }
  if (a === b || JSON.stringify(a ?? null) === JSON.stringify(b ?? null)) return null;
  return { field, old: a ?? null, new: b ?? null, factor: null };
}

/** Names of groups, individuals and interventions by pk: the parts of record keys that replace pks. */
class Names {
  readonly group = new Map<number, string>();
  readonly individual = new Map<number, string>();
  readonly intervention = new Map<number, string>();
  constructor(tables: DatasetTables) {
    for (const g of tables.groups) this.group.set(g.pk, g.name);
    for (const i of tables.individuals) this.individual.set(i.pk, i.name);
    for (const i of tables.interventions) this.intervention.set(i.pk, i.name);
  }
  /**
   * A group by name. Exports list only groups that have outputs: 457 of the shared export's 770 groups
   * name a parent that is not in groups.csv, and its pk must not count as a value (a re-upload changes it).
   */
  groupName(pk: number | null): string | null {
    return pk === null ? null : (this.group.get(pk) ?? '(a group not in this release)');
  }
  subject(r: { group_pk: number | null; individual_pk: number | null }): string {
    if (r.group_pk !== null) return `group:${this.group.get(r.group_pk) ?? `pk${r.group_pk}`}`;
    if (r.individual_pk !== null) return `individual:${this.individual.get(r.individual_pk) ?? `pk${r.individual_pk}`}`;
    return '-';
  }
  interventions(pks: readonly number[]): string {
    return pks.map((pk) => this.intervention.get(pk) ?? `pk${pk}`).sort().join('+');
  }
}

/** One table's rules: which records, their key, pk, compared fields. */
interface TableSpec<R> {
  records: (t: DatasetTables) => readonly R[];
  key: (r: R, n: Names) => string;
  pk: (r: R) => number | string;
  study: (r: R) => string;
  values: (r: R, n: Names) => Record<string, unknown>;
  /** Tells apart records that share a key (a clearance in L/h and per kg), before their order does. */
  tiebreak?: (r: R) => string;
}

const k = (...parts: unknown[]) => parts.map((p) => (p === null || p === undefined ? '-' : String(p))).join('|');

const STAT_FIELDS = [...STAT_KEYS, 'unit'] as const;
function stats(r: Record<(typeof STAT_FIELDS)[number], unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of STAT_FIELDS) out[f] = r[f];
  return out;
}

/**
 * Characteristica as one field each, `characteristica.<type>[/<substance>][/<calculation type>]`,
 * holding their values (a second one of the same name gets `#2`); changed values show as `….mean`.
 */
function characteristica(list: readonly CharacteristicaRecord[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const c of list) {
    const base = `characteristica.${c.measurement_type}${c.substance ? `/${c.substance}` : ''}${c.calculation_type ? `/${c.calculation_type}` : ''}`;
    let name = base;
    for (let n = 2; name in out; n++) name = `${base}#${n}`;
    out[name] = { count: c.count, choice: c.choice, ...stats(c) };
  }
  return out;
}

const KEYS: { [T in DiffTable]: TableSpec<never> } = {
  studies: {
    records: (t) => t.studies,
    key: (s: StudyRecord) => s.sid,
    pk: (s: StudyRecord) => s.sid,
    study: (s: StudyRecord) => s.sid,
    values: (s: StudyRecord) => ({
      name: s.name, licence: s.licence, access: s.access, date: s.date, creator: s.creator, curators: s.curators,
      substances: s.substances, reference_pmid: s.reference_pmid, reference_title: s.reference_title, reference_date: s.reference_date,
    }),
  } satisfies TableSpec<StudyRecord>,
  groups: {
    records: (t) => t.groups,
    key: (g: GroupRecord) => k(g.study_sid, g.name),
    pk: (g: GroupRecord) => g.pk,
    study: (g: GroupRecord) => g.study_sid,
    values: (g: GroupRecord, n) => ({ count: g.count, parent: n.groupName(g.parent_pk), ...characteristica(g.characteristica) }),
  } satisfies TableSpec<GroupRecord>,
  individuals: {
    records: (t) => t.individuals,
    key: (i: IndividualRecord) => k(i.study_sid, i.name),
    pk: (i: IndividualRecord) => i.pk,
    study: (i: IndividualRecord) => i.study_sid,
    values: (i: IndividualRecord, n) => ({ group: n.groupName(i.group_pk), ...characteristica(i.characteristica) }),
  } satisfies TableSpec<IndividualRecord>,
  interventions: {
    records: (t) => t.interventions,
    key: (i: InterventionRecord) => k(i.study_sid, i.normed ? 'normed' : 'raw', i.name),
    pk: (i: InterventionRecord) => i.pk,
    study: (i: InterventionRecord) => i.study_sid,
    values: (i: InterventionRecord) => ({
      route: i.route, form: i.form, application: i.application, time: i.time, time_end: i.time_end, time_unit: i.time_unit,
      measurement_type: i.measurement_type, calculation_type: i.calculation_type, choice: i.choice, substance: i.substance, ...stats(i),
    }),
    tiebreak: (i: InterventionRecord) => `unit=${i.unit}`,
  } satisfies TableSpec<InterventionRecord>,
  outputs: {
    // Timecourse points are compared inside their timecourse.
    records: (t) => t.outputs.filter((o) => o.output_type !== 'timecourse'),
    key: (o: OutputRecord, n) =>
      k(o.study_sid, o.normed ? 'normed' : 'raw', o.calculated ? 'calculated' : 'reported', n.subject(o), n.interventions(o.intervention_pks),
        o.measurement_type, o.substance, o.tissue, o.method, o.label, o.time, o.time_unit, o.calculation_type),
    pk: (o: OutputRecord) => o.pk,
    study: (o: OutputRecord) => o.study_sid,
    values: (o: OutputRecord) => ({ output_type: o.output_type, choice: o.choice, ...stats(o) }),
    tiebreak: (o: OutputRecord) => `unit=${o.unit}`,
  } satisfies TableSpec<OutputRecord>,
  timecourses: {
    records: (t) => t.timecourses,
    key: (tc: TimecourseRecord, n) =>
      k(tc.study_sid, tc.normed ? 'normed' : 'raw', tc.subset_name, n.subject(tc), n.interventions(tc.intervention_pk),
        tc.measurement_type, tc.substance, tc.tissue, tc.method, tc.label),
    pk: (tc: TimecourseRecord) => tc.subset_pk,
    study: (tc: TimecourseRecord) => tc.study_sid,
    tiebreak: (tc: TimecourseRecord) => `unit=${tc.unit}`,
    values: (tc: TimecourseRecord) => ({
      time: tc.time, time_unit: tc.time_unit, choice: tc.choice, value: tc.value, mean: tc.mean, median: tc.median,
      min: tc.min, max: tc.max, sd: tc.sd, se: tc.se, cv: tc.cv, unit: tc.unit,
    }),
  } satisfies TableSpec<TimecourseRecord>,
} as unknown as { [T in DiffTable]: TableSpec<never> };

/** Keys used by more than one record of `records`, under `keyOf`. */
function sharedKeys<R>(records: readonly R[], keyOf: (r: R) => string, into: Set<string>): void {
  const seen = new Set<string>();
  for (const r of records) {
    const key = keyOf(r);
    if (seen.has(key)) into.add(key);
    seen.add(key);
  }
}

/**
 * Records by key. A key shared by several records of either release is
 * ambiguous: those records add their tiebreak (`#unit=…`), and where that is
 * still shared, their rank in pk order (`#2`): a re-upload renumbers records
 * but keeps their order.
 */
function keyedPair<R>(spec: TableSpec<R>, oldRecords: readonly R[], newRecords: readonly R[], oldNames: Names, newNames: Names): [Map<string, R>, Map<string, R>] {
  const oldKey = new Map(oldRecords.map((r) => [r, spec.key(r, oldNames)]));
  const newKey = new Map(newRecords.map((r) => [r, spec.key(r, newNames)]));
  const ambiguous = new Set<string>();
  sharedKeys(oldRecords, (r) => oldKey.get(r)!, ambiguous);
  sharedKeys(newRecords, (r) => newKey.get(r)!, ambiguous);
  const tiebroken = (keys: Map<R, string>) => (r: R) => {
    const key = keys.get(r)!;
    return ambiguous.has(key) && spec.tiebreak ? `${key}#${spec.tiebreak(r)}` : key;
  };
  const oldTie = tiebroken(oldKey);
  const newTie = tiebroken(newKey);
  const stillAmbiguous = new Set<string>();
  sharedKeys(oldRecords, oldTie, stillAmbiguous);
  sharedKeys(newRecords, newTie, stillAmbiguous);
  const build = (records: readonly R[], keyOf: (r: R) => string) => {
    const out = new Map<string, R>();
    const rank = new Map<string, number>();
    const byPk = stillAmbiguous.size > 0 ? [...records].sort((a, b) => comparePk(spec.pk(a), spec.pk(b))) : records;
    for (const r of byPk) {
      const key = keyOf(r);
      if (!stillAmbiguous.has(key)) out.set(key, r);
      else {
        const n = (rank.get(key) ?? 0) + 1;
        rank.set(key, n);
        out.set(`${key}#${n}`, r);
      }
    }
    return out;
  };
  return [build(oldRecords, oldTie), build(newRecords, newTie)];
}

function comparePk(a: number | string, b: number | string): number {
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b));
}

const PK_TABLE: Partial<Record<DiffTable, PkTable>> = { groups: 'group', individuals: 'individual', interventions: 'intervention', outputs: 'output', timecourses: 'subset' };

export function diffDatasets(oldTables: DatasetTables, newTables: DatasetTables): DatasetDiff {
  const oldNames = new Names(oldTables);
  const newNames = new Names(newTables);
  const records: RecordChange[] = [];
  const counts = {} as DatasetDiff['counts'];
  const pkMap: DatasetDiff['pkMap'] = { output: new Map(), subset: new Map(), group: new Map(), individual: new Map(), intervention: new Map() };
  for (const table of DIFF_TABLES) {
    const spec = KEYS[table] as unknown as TableSpec<unknown>;
    const [before, after] = keyedPair(spec, spec.records(oldTables), spec.records(newTables), oldNames, newNames);
    const c = { added: 0, removed: 0, changed: 0, unchanged: 0 };
    for (const [key, r] of before) {
      const n = after.get(key);
      if (n === undefined) {
        records.push({ table, change: 'removed', study_sid: spec.study(r), key, old_pk: spec.pk(r), new_pk: null, fields: [] });
        c.removed++;
        continue;
      }
      const pkTable = PK_TABLE[table];
      if (pkTable) pkMap[pkTable].set(spec.pk(r) as number, spec.pk(n) as number);
      if (table === 'timecourses') mapPoints(r as TimecourseRecord, n as TimecourseRecord, pkMap.output);
      const a = spec.values(r, oldNames);
      const b = spec.values(n, newNames);
      const fields: FieldChange[] = [];
      fieldChanges('', a, b, fields);
      for (const f of fields) f.field = f.field.slice(1);
      if (fields.length > 0) {
        records.push({ table, change: 'changed', study_sid: spec.study(n), key, old_pk: spec.pk(r), new_pk: spec.pk(n), fields });
        c.changed++;
      } else c.unchanged++;
    }
    for (const [key, n] of after) {
      if (before.has(key)) continue;
      records.push({ table, change: 'added', study_sid: spec.study(n), key, old_pk: null, new_pk: spec.pk(n), fields: [] });
      c.added++;
    }
    counts[table] = c;
  }
  const studyChanges = records.filter((r) => r.table === 'studies');
  const changedStudies = new Set(records.filter((r) => r.table !== 'studies' || r.change === 'changed').map((r) => r.study_sid));
  const added = studyChanges.filter((r) => r.change === 'added').map((r) => r.study_sid);
  const removed = studyChanges.filter((r) => r.change === 'removed').map((r) => r.study_sid);
  for (const sid of [...added, ...removed]) changedStudies.delete(sid);
  return { studies: { added, removed, changed: [...changedStudies].sort() }, records, counts, pkMap };
}

/** The points of two matched timecourses, by position when they have as many. */
function mapPoints(a: TimecourseRecord, b: TimecourseRecord, map: Map<number, number>): void {
  if (a.output_pk.length !== b.output_pk.length) return;
  a.output_pk.forEach((pk, i) => map.set(pk, b.output_pk[i]));
}
