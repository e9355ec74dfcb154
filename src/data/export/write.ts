/**
 * Writes dataset tables as a PK-DB export zip in the real 2020-10-16 format
 * (PK-DB API notes §8): members in the real order, pandas' row-index column, the real
 * column orders from `columns.ts`, Python reprs for floats, lists and tuples,
 * outputs.csv with one row per (output, intervention). `readExport` reads the
 * result back to equal tables.
 */
import type {
  CharacteristicaRecord,
  DatasetTables,
  GroupRecord,
  IndividualRecord,
  InterventionRecord,
  OutputRecord,
  ScatterRecord,
} from '../model.js';
import {
  GROUPS,
  INDIVIDUALS,
  INTERVENTIONS,
  OUTPUTS,
  SCATTERS,
  STUDIES,
  TIMECOURSES,
  type ColumnKind,
  type CsvSpec,
} from './columns.js';
import { formatCsvField, formatCsvLine } from './csv.js';
import { formatPyFloat, formatPyInt, formatPyList, formatPyString, formatPyTuple } from './pyrepr.js';
import { EXPORT_README, EXPORT_TERMS_OF_USE } from './texts.js';
import { zipMembers } from './zip.js';

/** A fixed timestamp keeps the archive byte-identical for identical tables. */
const MEMBER_TIME = new Date(2020, 9, 16, 12, 0, 0);

/** The zip bytes of an export holding `tables`. */
export function writeExport(tables: DatasetTables): Uint8Array {
  const members: [string, string][] = [
    [STUDIES.file, csvText(STUDIES, tables.studies, field)],
    [GROUPS.file, csvText(GROUPS, withCharacteristica(tables.groups), groupCell)],
    [INDIVIDUALS.file, csvText(INDIVIDUALS, withCharacteristica(tables.individuals), individualCell)],
    [INTERVENTIONS.file, csvText(INTERVENTIONS, tables.interventions, interventionCell)],
    [OUTPUTS.file, csvText(OUTPUTS, perIntervention(tables.outputs), outputCell)],
    [TIMECOURSES.file, csvText(TIMECOURSES, tables.timecourses, field)],
    [SCATTERS.file, csvText(SCATTERS, tables.scatters, scatterCell)],
    ['README.md', EXPORT_README],
    ['TERMS_OF_USE.md', EXPORT_TERMS_OF_USE],
  ];
  const utf8 = new TextEncoder();
  return zipMembers(
    members.map(([name, text]) => [name, utf8.encode(text)] as const),
    MEMBER_TIME,
  );
}

/**
 * What pandas writes for an empty table: PK-DB builds each member with
 * `DataFrame.to_csv()`, and an empty frame has no columns, only its unnamed
 * index, so its one line is that empty header quoted (a bare blank line would
 * be no row at all). `pd.read_csv` reads it back as an empty frame, whereas a
 * 0-byte file makes it raise `EmptyDataError: No columns to parse from file`.
 */
export const EMPTY_TABLE_CSV = '""\n';

/**
 * The CSV text of one member: the index column, then each column of the spec
 * as `cell(row, column)` gives it; an empty table as pandas writes it (`EMPTY_TABLE_CSV`).
 */
export function csvText<R>(spec: CsvSpec, rows: readonly R[], cell: (row: R, column: string) => unknown): string {
  if (rows.length === 0) return EMPTY_TABLE_CSV;
  const columns = Object.entries(spec.columns);
  const header = formatCsvLine(['', ...columns.map(([name]) => name)]);
  // Cells are joined per line and lines once at the end: building each line by
  // `+=` made the writer spend most of its time collecting intermediate strings.
  const lines: string[] = [];
  let column = '';
  let index = 0;
  try {
    for (; index < rows.length; index++) {
      const cells = [String(index)];
      for (const [name, kind] of columns) {
        column = name;
        cells.push(formatCsvField(formatCell(kind, cell(rows[index], name) ?? null)));
      }
      lines.push(cells.join(','));
    }
  } catch (error) {
    throw new Error(`${spec.file} row ${index}, column ${column}: ${(error as Error).message}`);
  }
  return `${header}${lines.join('\n')}\n`;
}

function field(record: object, column: string): unknown {
  return (record as Record<string, unknown>)[column];
}

type WithCharacteristica<S> = readonly [S, CharacteristicaRecord | null];

/** A subject's rows: one per characteristica, or one with empty characteristica columns. */
function withCharacteristica<S extends { characteristica: CharacteristicaRecord[] }>(subjects: readonly S[]) {
  return subjects.flatMap((s): WithCharacteristica<S>[] =>
    s.characteristica.length === 0 ? [[s, null]] : s.characteristica.map((c) => [s, c] as const),
  );
}

/** The characteristica columns groups.csv and individuals.csv share. */
function characteristicaCell(c: CharacteristicaRecord | null, column: string): unknown {
  if (c === null) return null;
  return column === 'characteristica_pk' ? c.pk : field(c, column);
}

function groupCell([group, c]: WithCharacteristica<GroupRecord>, column: string): unknown {
  switch (column) {
    case 'study_name':
    case 'study_sid':
      return group[column];
    case 'group_pk':
      return group.pk;
    case 'group_name':
      return group.name;
    case 'group_count':
      return group.count;
    case 'group_parent_pk':
      return group.parent_pk;
    default:
      return characteristicaCell(c, column);
  }
}

function individualCell([individual, c]: WithCharacteristica<IndividualRecord>, column: string): unknown {
  switch (column) {
    case 'study_name':
    case 'study_sid':
      return individual[column];
    case 'individual_pk':
      return individual.pk;
    case 'individual_name':
      return individual.name;
    case 'individual_group_pk':
      return individual.group_pk;
    default:
      return characteristicaCell(c, column);
  }
}

function interventionCell(intervention: InterventionRecord, column: string): unknown {
  return column === 'intervention_pk' ? intervention.pk : field(intervention, column);
}

/** outputs.csv rows: one per intervention of an output, one with an empty intervention_pk when it has none. */
type OutputRow = readonly [OutputRecord, number | null];

function perIntervention(outputs: readonly OutputRecord[]): OutputRow[] {
  return outputs.flatMap((o): OutputRow[] =>
    o.intervention_pks.length === 0 ? [[o, null]] : o.intervention_pks.map((pk) => [o, pk]),
  );
}

function outputCell([output, interventionPk]: OutputRow, column: string): unknown {
  if (column === 'output_pk') return output.pk;
  if (column === 'intervention_pk') return interventionPk;
  return field(output, column);
}

function scatterCell(scatter: ScatterRecord, column: string): unknown {
  if (column.startsWith('x_')) return scatter.x[column.slice(2)];
  if (column.startsWith('y_')) return scatter.y[column.slice(2)];
  return field(scatter, column);
}

function expectType(value: unknown, type: 'number' | 'string' | 'boolean'): void {
  if (typeof value !== type) throw new Error(`expected a ${type}, found ${JSON.stringify(value)}`);
}

function pyInt(value: unknown): string {
  expectType(value, 'number');
  if (!Number.isInteger(value)) throw new Error(`expected an integer, found ${String(value)}`);
  return formatPyInt(value as number);
}

function pyFloat(value: unknown): string {
  if (value === null) return 'None';
  expectType(value, 'number');
  return formatPyFloat(value as number);
}

function pyBool(value: unknown): string {
  expectType(value, 'boolean');
  return value ? 'True' : 'False';
}

function pyStr(value: unknown): string {
  if (value === null) return 'None';
  expectType(value, 'string');
  return formatPyString(value as string);
}

function list(value: unknown, item: (v: unknown) => string): string {
  if (!Array.isArray(value)) throw new Error(`expected a list, found ${JSON.stringify(value)}`);
  return formatPyList(value.map(item));
}

function text(value: unknown): string {
  expectType(value, 'string');
  return value as string;
}

/** A scatter cell: a scalar when all points agree, else a list (PK-DB API notes §8). */
function scalarOrList(value: unknown, scalar: (v: unknown) => string, item: (v: unknown) => string): string {
  return Array.isArray(value) ? list(value, item) : scalar(value);
}

/** Formats one cell by its column kind; null is an empty cell in every kind. */
function formatCell(kind: ColumnKind, value: unknown): string {
  if (value === null) return '';
  switch (kind) {
    case 'str':
    case 'str?':
    case 'text?':
      return text(value);
    case 'int':
    case 'int?':
      return pyInt(value);
    case 'nint?':
    case 'float?':
      return pyFloat(value);
    case 'bool':
      return pyBool(value);
    case 'strs':
      return list(value, pyStr);
    case 'ints':
      return list(value, pyInt);
    case 'floats':
    case 'floats?':
      return list(value, pyFloat);
    case 'floats|float?':
    case 'py-float?':
      return scalarOrList(value, pyFloat, pyFloat);
    case 'py-int?':
      return scalarOrList(value, pyInt, pyInt);
    case 'py-nint?':
      // pandas keeps a column of scalar keys and NaN as floats, but list elements stay ints.
      return scalarOrList(value, pyFloat, pyInt);
    case 'py-tuple?':
      return tuples(value);
    case 'py-bool?':
      return scalarOrList(value, pyBool, pyBool);
    case 'py-str?':
      return scalarOrList(value, text, pyStr);
  }
}

/** One intervention set `(814,)`, or a list of per-point sets `[(1, 2), (1, 2)]`. */
function tuples(value: unknown): string {
  if (!Array.isArray(value)) throw new Error(`expected a tuple or a list of tuples, found ${JSON.stringify(value)}`);
  const tuple = (t: unknown) => {
    if (!Array.isArray(t)) throw new Error(`expected a tuple, found ${JSON.stringify(t)}`);
    return formatPyTuple(t.map(pyInt));
  };
  return value.length > 0 && value.every(Array.isArray) ? formatPyList(value.map(tuple)) : tuple(value);
}
