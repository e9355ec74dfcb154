/**
 * Output records as columns of typed arrays, the form in which a worker
 * thread hands outputs.csv back (./outputs-thread.ts). A structured clone of
 * the 58 000 records of an export costs more than reading them (each object
 * and each string is rebuilt); typed arrays move between threads without a
 * copy, and each distinct string crosses once, in a table the string columns
 * index. `outputsFromColumns(outputColumns(records))` equals `records`.
 *
 * The calling thread builds its records directly (./tables.ts): collecting
 * into columns and making records from them cost a one-shot read a tenth
 * more, with the code still cold.
 */
import type { OutputRecord } from '../model.js';

/** The nullable number fields, in the order of `numbers`: Float64Arrays with NaN for null (no record holds NaN: `nan` reads as null). */
const NUMBER_FIELDS = ['raw_pk', 'group_pk', 'individual_pk', 'time', 'value', 'mean', 'median', 'min', 'max', 'sd', 'se', 'cv'] as const;

/** The string fields, in the order of `stringIds`: Int32Arrays of indexes into `strings`, -1 for null. */
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

/** Every field of OutputRecord, as the columns keep it (a test checks it against the records). */
export const OUTPUT_COLUMN_FIELDS = ['pk', 'normed', 'calculated', 'intervention_pks', 'subset_pk', ...NUMBER_FIELDS, ...STRING_FIELDS] as const;

const NORMED = 1;
const CALCULATED = 2;

/** Outputs as columns: element k of each array belongs to output k. */
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
  /** The `intervention_pks` of output k are `interventions[offsets[k]]` up to `interventions[offsets[k + 1]]`. */
  interventions: Float64Array;
  offsets: Int32Array;
  /** `subset_pk`, NaN for null. */
  subsets: Float64Array;
}

/** The distinct strings of the string columns and their indexes, with each column's last one at hand (a study's outputs repeat theirs). */
class StringTable {
  readonly strings: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly last: (string | null)[] = STRING_FIELDS.map(() => null);
  private readonly lastId = new Int32Array(STRING_FIELDS.length);

  idOf(field: number, value: string | null): number {
    if (value === null) return -1;
    if (value === this.last[field]) return this.lastId[field];
    let id = this.index.get(value);
    if (id === undefined) {
      id = this.strings.push(value) - 1;
      this.index.set(value, id);
    }
    this.last[field] = value;
    this.lastId[field] = id;
    return id;
  }
}

/** The records as columns, field by field (each a plain property read: a loop over field names made each a keyed lookup). */
export function outputColumns(records: readonly OutputRecord[]): OutputColumns {
  const count = records.length;
  const pk = new Float64Array(count);
  const flags = new Uint8Array(count);
  const subsets = new Float64Array(count);
  const offsets = new Int32Array(count + 1);
  const n = NUMBER_FIELDS.map(() => new Float64Array(count));
  const s = STRING_FIELDS.map(() => new Int32Array(count));
  const t = new StringTable();
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
    s[0][k] = t.idOf(0, r.study_sid);
    s[1][k] = t.idOf(1, r.study_name);
    s[2][k] = t.idOf(2, r.tissue);
    s[3][k] = t.idOf(3, r.method);
    s[4][k] = t.idOf(4, r.label);
    s[5][k] = t.idOf(5, r.output_type);
    s[6][k] = t.idOf(6, r.time_unit);
    s[7][k] = t.idOf(7, r.measurement_type);
    s[8][k] = t.idOf(8, r.calculation_type);
    s[9][k] = t.idOf(9, r.choice);
    s[10][k] = t.idOf(10, r.substance);
    s[11][k] = t.idOf(11, r.unit);
  }
  const interventions = new Float64Array(offsets[count]);
  for (let k = 0; k < count; k++) interventions.set(records[k].intervention_pks, offsets[k]);
  return { count, pk, flags, numbers: n, stringIds: s, strings: t.strings, interventions, offsets, subsets };
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
  const text = (ids: Int32Array, k: number): string | null => (ids[k] < 0 ? null : strings[ids[k]]);
  const records: OutputRecord[] = new Array(count);
  for (let k = 0; k < count; k++) {
    const from = offsets[k];
    const to = offsets[k + 1];
    // Literals for the common sizes: an array grown by push from [] reserves room for 17 elements.
    const intervention_pks = to === from ? [] : to === from + 1 ? [interventions[from]] : Array.from(interventions.subarray(from, to));
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
      tissue: text(s[2], k),
      method: text(s[3], k),
      label: text(s[4], k),
      output_type: text(s[5], k),
      time: orNull(n[3][k]),
      time_unit: text(s[6], k),
      measurement_type: strings[s[7][k]],
      calculation_type: text(s[8], k),
      choice: text(s[9], k),
      substance: text(s[10], k),
      value: orNull(n[4][k]),
      mean: orNull(n[5][k]),
      median: orNull(n[6][k]),
      min: orNull(n[7][k]),
      max: orNull(n[8][k]),
      sd: orNull(n[9][k]),
      se: orNull(n[10][k]),
      cv: orNull(n[11][k]),
      unit: text(s[11], k),
      subset_pk: orNull(subsets[k]),
    };
  }
  return records;
}
