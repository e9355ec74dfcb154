/**
 * outputs.csv collapsed by output pk into columns of typed arrays, and the
 * output records made from them. One row per (output, intervention): rows of
 * one output must agree on its own fields (OUTPUT_OWN_FIELDS), a row that
 * contradicts the first is reported by the first field that differs and
 * skipped, and `intervention_pks` is the sorted union of the rows'.
 *
 * Columns rather than records because they are what a worker thread hands
 * back (./outputs-thread.ts): typed arrays move between threads without a
 * copy, where a structured clone of the 58 000 records of an export costs
 * more than reading them; each distinct string crosses once, in a table the
 * string columns index. Collecting into columns costs what building the
 * records does, so the calling thread takes the same path: columns, then
 * records (`buildOutputs`).
 */
import type { OutputRecord } from '../model.js';
import type { Parsed, ProblemLog } from './cells.js';
import { columnsOf, OUTPUTS, type Cells } from './columns.js';

const O = columnsOf(OUTPUTS);

/** Every output field except pk, the intervention set and the subset link, which the rows do not repeat. */
export const OUTPUT_OWN_FIELDS = [
  'raw_pk',
  'normed',
  'calculated',
  'study_sid',
  'study_name',
  'group_pk',
  'individual_pk',
  'tissue',
  'method',
  'label',
  'output_type',
  'time',
  'time_unit',
  'measurement_type',
  'calculation_type',
  'choice',
  'substance',
  'value',
  'mean',
  'median',
  'min',
  'max',
  'sd',
  'se',
  'cv',
  'unit',
] as const satisfies readonly (keyof OutputRecord)[];

/** The nullable number fields, in the order of `numbers`: each a Float64Array with NaN for null (no parsed cell is NaN: `nan` reads as null). */
const NUMBER_FIELDS = ['raw_pk', 'group_pk', 'individual_pk', 'time', 'value', 'mean', 'median', 'min', 'max', 'sd', 'se', 'cv'] as const;

/** The string fields, in the order of `stringIds`: each an Int32Array of indexes into `strings`, -1 for null. */
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

/** Every field of OutputRecord, as the columns keep it (`subset_pk` is set later, from the timecourses); a test checks it against the records. */
export const OUTPUT_COLUMN_FIELDS = ['pk', 'normed', 'calculated', 'intervention_pks', 'subset_pk', ...NUMBER_FIELDS, ...STRING_FIELDS] as const;

const NORMED = 1;
const CALCULATED = 2;

/** Outputs as columns: element k of each array (below `count`; the arrays may be longer) belongs to output k. */
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

function grown<T extends Float64Array | Int32Array | Uint8Array>(array: T, capacity: number): T {
  const out = new (array.constructor as new (length: number) => T)(capacity);
  out.set(array);
  return out;
}

/** Outputs a collector makes room for at first (an export's 58 000 take two doublings). */
const INITIAL_CAPACITY = 16_384;

/** Collapses outputs.csv rows into OutputColumns, one `add` per row (see the module comment). */
export class OutputCollector {
  private count = 0;
  private capacity = INITIAL_CAPACITY;
  private pk = new Float64Array(this.capacity);
  private flags = new Uint8Array(this.capacity);
  private numbers = NUMBER_FIELDS.map(() => new Float64Array(this.capacity));
  private stringIds = STRING_FIELDS.map(() => new Int32Array(this.capacity));
  /** The first intervention pk of each output (NaN for none); those with more are in `more`. */
  private firstIntervention = new Float64Array(this.capacity);
  /** The line of each output's first row, for the message about a row that contradicts it. */
  private lines = new Float64Array(this.capacity);
  private readonly more = new Map<number, number[]>();
  private readonly strings = new StringTable();
  private readonly indexOf = new Map<number, number>();

  constructor(private readonly log: ProblemLog) {}

  add(line: number, row: Cells<typeof OUTPUTS>): void {
    if ((O.group_pk(row) === null) === (O.individual_pk(row) === null)) {
      const message = 'exactly one of group_pk and individual_pk must be set';
      this.log.add({ file: OUTPUTS.file, line, column: 'group_pk', message });
      return;
    }
    const pk = O.output_pk(row);
    const known = this.indexOf.get(pk);
    if (known === undefined) {
      this.append(line, pk, row);
      return;
    }
    // The row repeats the output for another intervention: its own fields must agree.
    if (!this.agrees(known, row)) {
      const output = this.record(known);
      const key = OUTPUT_OWN_FIELDS.find((field) => output[field] !== O[field](row))!;
      const message = `output ${pk}: ${key} is ${JSON.stringify(output[key])} on line ${this.lines[known]} but ${JSON.stringify(O[key](row))} here`;
      this.log.add({ file: OUTPUTS.file, line, column: key, message });
      return;
    }
    const interventionPk = O.intervention_pk(row);
    if (interventionPk === null) return;
    const list = this.more.get(known);
    if (list !== undefined) list.push(interventionPk);
    else if (Number.isNaN(this.firstIntervention[known])) this.firstIntervention[known] = interventionPk;
    else this.more.set(known, [this.firstIntervention[known], interventionPk]);
  }

  /** The columns of the rows added so far: views of the collector's arrays (take them once every row is in). */
  columns(): OutputColumns {
    const count = this.count;
    const first = this.firstIntervention;
    // Sets, ascending; rows mostly come in that order already, which one look tells.
    const sets = new Map<number, number[]>();
    for (const [k, list] of this.more) sets.set(k, list.every((pk, j) => j === 0 || list[j - 1] < pk) ? list : [...new Set(list)].sort((a, b) => a - b));
    const offsets = new Int32Array(count + 1);
    for (let k = 0; k < count; k++) offsets[k + 1] = Number.isNaN(first[k]) ? 0 : 1;
    for (const [k, set] of sets) offsets[k + 1] = set.length;
    for (let k = 0; k < count; k++) offsets[k + 1] += offsets[k];
    const interventions = new Float64Array(offsets[count]);
    for (let k = 0; k < count; k++) if (!Number.isNaN(first[k])) interventions[offsets[k]] = first[k];
    for (const [k, set] of sets) interventions.set(set, offsets[k]);
    const cut = <T extends Float64Array | Int32Array | Uint8Array>(column: T) => column.subarray(0, count) as T;
    const { pk, flags, numbers, stringIds, strings } = this;
    return { count, pk: cut(pk), flags: cut(flags), numbers: numbers.map(cut), stringIds: stringIds.map(cut), strings: strings.strings, interventions, offsets };
  }

  private append(line: number, pk: number, row: Cells<typeof OUTPUTS>): void {
    const k = this.count++;
    if (k === this.capacity) this.grow();
    this.indexOf.set(pk, k);
    this.lines[k] = line;
    this.pk[k] = pk;
    this.flags[k] = flagsOf(row);
    this.firstIntervention[k] = O.intervention_pk(row) ?? NaN;
    // Field by field, each a plain read (a loop over field names would make each a keyed lookup).
    const n = this.numbers;
    n[0][k] = O.raw_pk(row) ?? NaN;
    n[1][k] = O.group_pk(row) ?? NaN;
    n[2][k] = O.individual_pk(row) ?? NaN;
    n[3][k] = O.time(row) ?? NaN;
    n[4][k] = O.value(row) ?? NaN;
    n[5][k] = O.mean(row) ?? NaN;
    n[6][k] = O.median(row) ?? NaN;
    n[7][k] = O.min(row) ?? NaN;
    n[8][k] = O.max(row) ?? NaN;
    n[9][k] = O.sd(row) ?? NaN;
    n[10][k] = O.se(row) ?? NaN;
    n[11][k] = O.cv(row) ?? NaN;
    const s = this.stringIds;
    const t = this.strings;
    s[0][k] = t.idOf(0, O.study_sid(row));
    s[1][k] = t.idOf(1, O.study_name(row));
    s[2][k] = t.idOf(2, O.tissue(row));
    s[3][k] = t.idOf(3, O.method(row));
    s[4][k] = t.idOf(4, O.label(row));
    s[5][k] = t.idOf(5, O.output_type(row));
    s[6][k] = t.idOf(6, O.time_unit(row));
    s[7][k] = t.idOf(7, O.measurement_type(row));
    s[8][k] = t.idOf(8, O.calculation_type(row));
    s[9][k] = t.idOf(9, O.choice(row));
    s[10][k] = t.idOf(10, O.substance(row));
    s[11][k] = t.idOf(11, O.unit(row));
  }

  /**
   * Whether `row` has the own fields of output k: the test of
   * OUTPUT_OWN_FIELDS on the columns, for every repeated row (a quarter of an
   * export's); the field that differs is only looked for when one does.
   */
  private agrees(k: number, r: Cells<typeof OUTPUTS>): boolean {
    const n = this.numbers;
    const number = (value: number | null, f: number) => (value === null ? Number.isNaN(n[f][k]) : n[f][k] === value);
    const string = (value: string | null, f: number) => this.text(f, k) === value;
    return (
      this.flags[k] === flagsOf(r) &&
      number(O.raw_pk(r), 0) &&
      number(O.group_pk(r), 1) &&
      number(O.individual_pk(r), 2) &&
      number(O.time(r), 3) &&
      number(O.value(r), 4) &&
      number(O.mean(r), 5) &&
      number(O.median(r), 6) &&
      number(O.min(r), 7) &&
      number(O.max(r), 8) &&
      number(O.sd(r), 9) &&
      number(O.se(r), 10) &&
      number(O.cv(r), 11) &&
      string(O.study_sid(r), 0) &&
      string(O.study_name(r), 1) &&
      string(O.tissue(r), 2) &&
      string(O.method(r), 3) &&
      string(O.label(r), 4) &&
      string(O.output_type(r), 5) &&
      string(O.time_unit(r), 6) &&
      string(O.measurement_type(r), 7) &&
      string(O.calculation_type(r), 8) &&
      string(O.choice(r), 9) &&
      string(O.substance(r), 10) &&
      string(O.unit(r), 11)
    );
  }

  private text(f: number, k: number): string | null {
    const id = this.stringIds[f][k];
    return id < 0 ? null : this.strings.strings[id];
  }

  /** Output k's own fields as a record (no interventions), to name the field a row contradicts. */
  private record(k: number): OutputRecord {
    return outputRecord({ pk: this.pk, flags: this.flags, numbers: this.numbers }, k, [], (f, at) => this.text(f, at));
  }

  private grow(): void {
    const capacity = (this.capacity *= 2);
    this.pk = grown(this.pk, capacity);
    this.flags = grown(this.flags, capacity);
    this.numbers = this.numbers.map((column) => grown(column, capacity));
    this.stringIds = this.stringIds.map((column) => grown(column, capacity));
    this.firstIntervention = grown(this.firstIntervention, capacity);
    this.lines = grown(this.lines, capacity);
  }
}

function flagsOf(row: Cells<typeof OUTPUTS>): number {
  return (O.normed(row) ? NORMED : 0) | (O.calculated(row) ? CALCULATED : 0);
}

/** Collapses outputs.csv rows into columns (see the module comment). */
export function collectOutputs(rows: Iterable<Parsed<typeof OUTPUTS>>, log: ProblemLog): OutputColumns {
  const collector = new OutputCollector(log);
  for (const { line, row } of rows) collector.add(line, row);
  return collector.columns();
}

/** The buffers of `columns`, to transfer to another thread rather than copy. */
export function columnBuffers(columns: OutputColumns): ArrayBuffer[] {
  const arrays = [columns.pk, columns.flags, ...columns.numbers, ...columns.stringIds, columns.interventions, columns.offsets];
  return arrays.map((array) => array.buffer as ArrayBuffer);
}

const orNull = (x: number): number | null => (Number.isNaN(x) ? null : x);

/**
 * Output k, field by field in the order of OutputRecord (so all records share
 * one shape), its strings by `text(f, k)` for the fields of STRING_FIELDS;
 * `subset_pk` is null.
 */
function outputRecord(
  { pk, flags, numbers: n }: { pk: Float64Array; flags: Uint8Array; numbers: Float64Array[] },
  k: number,
  intervention_pks: number[],
  text: (field: number, k: number) => string | null,
): OutputRecord {
  return {
    pk: pk[k],
    raw_pk: orNull(n[0][k]),
    normed: (flags[k] & NORMED) !== 0,
    calculated: (flags[k] & CALCULATED) !== 0,
    study_sid: text(0, k)!,
    study_name: text(1, k)!,
    group_pk: orNull(n[1][k]),
    individual_pk: orNull(n[2][k]),
    intervention_pks,
    tissue: text(2, k),
    method: text(3, k),
    label: text(4, k),
    output_type: text(5, k),
    time: orNull(n[3][k]),
    time_unit: text(6, k),
    measurement_type: text(7, k)!,
    calculation_type: text(8, k),
    choice: text(9, k),
    substance: text(10, k),
    value: orNull(n[4][k]),
    mean: orNull(n[5][k]),
    median: orNull(n[6][k]),
    min: orNull(n[7][k]),
    max: orNull(n[8][k]),
    sd: orNull(n[9][k]),
    se: orNull(n[10][k]),
    cv: orNull(n[11][k]),
    unit: text(11, k),
    subset_pk: null,
  };
}

/** The records of `columns`, in the order of their first rows. */
export function outputsFromColumns(columns: OutputColumns): OutputRecord[] {
  const { count, stringIds, strings, interventions, offsets } = columns;
  const text = (f: number, k: number) => (stringIds[f][k] < 0 ? null : strings[stringIds[f][k]]);
  const records: OutputRecord[] = new Array(count);
  for (let k = 0; k < count; k++) {
    const from = offsets[k];
    const to = offsets[k + 1];
    // Literals for the common sizes: an array grown by push from [] reserves room for 17 elements.
    const intervention_pks = to === from ? [] : to === from + 1 ? [interventions[from]] : Array.from(interventions.subarray(from, to));
    records[k] = outputRecord(columns, k, intervention_pks, text);
  }
  return records;
}
