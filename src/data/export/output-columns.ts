/**
 * Output records as columns of typed arrays, the form in which a worker
 * thread hands outputs.csv back (./outputs-worker.ts). A structured clone of
 * the 58 000 records of an export costs more than reading them (each object
 * and each string is rebuilt); typed arrays move between threads without a
 * copy, and each distinct string crosses once, in a table the string columns
 * index. `outputsFromColumns(outputColumns(records))` equals `records`.
 */
import type { OutputRecord } from '../model.js';

/** The nullable number fields, each a Float64Array with NaN for null (no record holds NaN: `nan` reads as null). */
const NUMBER_FIELDS = ['raw_pk', 'group_pk', 'individual_pk', 'time', 'value', 'mean', 'median', 'min', 'max', 'sd', 'se', 'cv'] as const;

/** The string fields, each an Int32Array of indexes into `strings`, -1 for null. */
const STRING_FIELDS = [
  'study_sid',
  'study_name',
  'tissue',
  'method',
  'label',
  'output_type',
  'time_unit',
  'measurement_type',
  'calculation_type',
  'choice',
  'substance',
  'unit',
] as const;

/** Every field of OutputRecord and where the columns keep it (checked against the record type by a test). */
export const OUTPUT_COLUMN_FIELDS = ['pk', 'normed', 'calculated', 'intervention_pks', 'subset_pk', ...NUMBER_FIELDS, ...STRING_FIELDS] as const;

const NORMED = 1;
const CALCULATED = 2;

export interface OutputColumns {
  count: number;
  pk: Float64Array;
  /** Bit 0 `normed`, bit 1 `calculated`. */
  flags: Uint8Array;
  /** By NUMBER_FIELDS. */
  numbers: Float64Array[];
  /** By STRING_FIELDS. */
  stringIds: Int32Array[];
  /** Each distinct string once. */
  strings: string[];
  /** The `intervention_pks` of record k are `interventions[offsets[k]]` up to `interventions[offsets[k + 1]]`. */
  interventions: Float64Array;
  offsets: Int32Array;
  /** `subset_pk`, NaN for null. */
  subsets: Float64Array;
}

/** Indexes of the distinct strings of a set of string columns, with a cache of the last one (a study's outputs repeat their strings). */
class StringTable {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();
  private last: string | null = null;
  private lastId = -1;

  idOf(value: string | null): number {
    if (value === null) return -1;
    if (value === this.last) return this.lastId;
    let id = this.index.get(value);
    if (id === undefined) {
      id = this.strings.push(value) - 1;
      this.index.set(value, id);
    }
    this.last = value;
    this.lastId = id;
    return id;
  }
}

/** The records as columns (field by field, each a plain property read: a loop over field names made each a keyed lookup). */
export function outputColumns(records: readonly OutputRecord[]): OutputColumns {
  const count = records.length;
  const pk = new Float64Array(count);
  const flags = new Uint8Array(count);
  const subsets = new Float64Array(count);
  const offsets = new Int32Array(count + 1);
  const n = NUMBER_FIELDS.map(() => new Float64Array(count));
  const s = STRING_FIELDS.map(() => new Int32Array(count));
  // One table per column keeps each column's runs (its last value) apart; the tables are merged below.
  const tables = STRING_FIELDS.map(() => new StringTable());
  for (let k = 0; k < count; k++) {
    const r = records[k];
    pk[k] = r.pk;
    flags[k] = (r.normed ? NORMED : 0) | (r.calculated ? CALCULATED : 0);
    subsets[k] = r.subset_pk ?? NaN;
    offsets[k + 1] = offsets[k] + r.intervention_pks.length;
    n[0][k] = r.raw_pk ?? NaN;
    n[1][k] = r.group_pk ?? NaN;
    n[2][k] = r.individual_pk ?? NaN;
    n[3][k] = r.time ?? NaN;
    n[4][k] = r.value ?? NaN;
    n[5][k] = r.mean ?? NaN;
    n[6][k] = r.median ?? NaN;
    n[7][k] = r.min ?? NaN;
    n[8][k] = r.max ?? NaN;
    n[9][k] = r.sd ?? NaN;
    n[10][k] = r.se ?? NaN;
    n[11][k] = r.cv ?? NaN;
    s[0][k] = tables[0].idOf(r.study_sid);
    s[1][k] = tables[1].idOf(r.study_name);
    s[2][k] = tables[2].idOf(r.tissue);
    s[3][k] = tables[3].idOf(r.method);
    s[4][k] = tables[4].idOf(r.label);
    s[5][k] = tables[5].idOf(r.output_type);
    s[6][k] = tables[6].idOf(r.time_unit);
    s[7][k] = tables[7].idOf(r.measurement_type);
    s[8][k] = tables[8].idOf(r.calculation_type);
    s[9][k] = tables[9].idOf(r.choice);
    s[10][k] = tables[10].idOf(r.substance);
    s[11][k] = tables[11].idOf(r.unit);
  }
  const interventions = new Float64Array(offsets[count]);
  for (let k = 0; k < count; k++) interventions.set(records[k].intervention_pks, offsets[k]);
  // The columns' tables end to end: column f's ids shift by the strings of the columns before it.
  const strings: string[] = [];
  for (const [f, table] of tables.entries()) {
    const shift = strings.length;
    if (shift > 0) for (let k = 0; k < count; k++) if (s[f][k] >= 0) s[f][k] += shift;
    for (const value of table.strings) strings.push(value);
  }
  return { count, pk, flags, numbers: n, stringIds: s, strings, interventions, offsets, subsets };
}

/** The buffers of `columns`, to transfer to another thread rather than copy. */
export function columnBuffers(columns: OutputColumns): ArrayBuffer[] {
  const arrays = [columns.pk, columns.flags, ...columns.numbers, ...columns.stringIds, columns.interventions, columns.offsets, columns.subsets];
  return arrays.map((array) => array.buffer as ArrayBuffer);
}

const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);

/** The records of `columns`, each made field by field in the order of OutputRecord (so all share one shape). */
export function outputsFromColumns(columns: OutputColumns): OutputRecord[] {
  const { count, pk, flags, numbers: n, stringIds: s, strings, interventions, offsets, subsets } = columns;
  const records: OutputRecord[] = new Array(count);
  for (let k = 0; k < count; k++) {
    const text = (ids: Int32Array): string | null => (ids[k] < 0 ? null : strings[ids[k]]);
    const intervention_pks: number[] = [];
    for (let j = offsets[k]; j < offsets[k + 1]; j++) intervention_pks.push(interventions[j]);
    records[k] = {
      pk: pk[k],
      raw_pk: orNull(n[0][k]),
      normed: (flags[k] & NORMED) !== 0,
      calculated: (flags[k] & CALCULATED) !== 0,
      study_sid: strings[s[0][k]],
      study_name: strings[s[1][k]],
      group_pk: orNull(n[1][k]),
      individual_pk: orNull(n[2][k]),
      intervention_pks,
      tissue: text(s[2]),
      method: text(s[3]),
      label: text(s[4]),
      output_type: text(s[5]),
      time: orNull(n[3][k]),
      time_unit: text(s[6]),
      measurement_type: strings[s[7][k]],
      calculation_type: text(s[8]),
      choice: text(s[9]),
      substance: text(s[10]),
      value: orNull(n[4][k]),
      mean: orNull(n[5][k]),
      median: orNull(n[6][k]),
      min: orNull(n[7][k]),
      max: orNull(n[8][k]),
      sd: orNull(n[9][k]),
      se: orNull(n[10][k]),
      cv: orNull(n[11][k]),
      unit: text(s[11]),
      subset_pk: orNull(subsets[k]),
    };
  }
  return records;
}
