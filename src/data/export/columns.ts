/**
 * The export CSVs' columns: the single description both the reader and the
 * writer use. Column order is the real 2020-10-16 export's (PK-DB API notes §8); the
 * reader addresses columns by header name, so files with another order (or
 * extra columns) read the same. Each column has a kind that says how its text
 * is parsed and how the writer formats it.
 */
/**
 * - `str`/`str?`: text (required / empty = null).
 * - `int`/`int?`: an integer written as an int.
 * - `nint?`: a nullable integer key, which pandas writes as a float (`6.0`).
 * - `float?`: a float in Python repr.
 * - `text?`: numeric text kept verbatim (an intervention's `time`).
 * - `bool`: `True`/`False`.
 * - `strs`, `ints`, `floats`, `floats?`, `floats|float?`: Python lists.
 * - `py-*`: scatter cells, where a value identical across all points collapses to a scalar.
 */
export type ColumnKind = keyof KindValue;

export interface KindValue {
  str: string;
  'str?': string | null;
  int: number;
  'int?': number | null;
  'nint?': number | null;
  'float?': number | null;
  'text?': string | null;
  bool: boolean;
  strs: string[];
  ints: number[];
  floats: (number | null)[];
  'floats?': (number | null)[] | null;
  'floats|float?': (number | null)[] | number | null;
  /** Scalar or list of ints (`outputs_pk`, `data_point`). */
  'py-int?': number | number[] | null;
  /** Nullable int key: a scalar is written as a float (`962.0`), a list as ints. */
  'py-nint?': number | number[] | null;
  'py-float?': number | (number | null)[] | null;
  /** One intervention-set tuple `(814,)`, or a list of per-point tuples. */
  'py-tuple?': number[] | number[][] | null;
  'py-bool?': boolean | boolean[] | null;
  'py-str?': string | (string | null)[] | null;
}

export interface CsvSpec<C extends Record<string, ColumnKind> = Record<string, ColumnKind>> {
  file: string;
  columns: C;
  /** Read when present (later PK-DB versions add them), never written. */
  optional?: Record<string, ColumnKind>;
}

/** The typed values of one parsed row. */
export type SpecRow<S extends CsvSpec> = { [K in keyof S['columns']]: KindValue[S['columns'][K]] } & {
  [K in keyof NonNullable<S['optional']>]: KindValue[NonNullable<S['optional']>[K]] | null;
};

declare const SPEC: unique symbol;

/**
 * The typed values of one parsed row as an array: the spec's columns, then
 * its optional columns (null when the file has none), in the order the spec
 * declares them (`cellNames`). Read them with `columnsOf`. An array rather than
 * an object keyed by column name: the reader fills it cell by cell, and a
 * store under a computed name (`row[name] = value`) costs a lookup each time,
 * a sixth of the typing time of outputs.csv.
 */
export type Cells<S extends CsvSpec> = readonly unknown[] & { readonly [SPEC]?: S };

/** A reader for each column of `S`: `C.unit(cells)` is the row's unit. */
export type ColumnReaders<S extends CsvSpec> = { readonly [K in keyof SpecRow<S> & string]: (cells: Cells<S>) => SpecRow<S>[K] };

/** The names of a spec's columns in the order of its Cells. */
export function cellNames(spec: CsvSpec): string[] {
  return [...Object.keys(spec.columns), ...Object.keys(spec.optional ?? {})];
}

/**
 * The column readers of `spec`. Each is a function of one array load, which
 * the compiler inlines where it is called, so `C.unit(cells)` costs what
 * `cells[k]` does and says which column it reads.
 */
export function columnsOf<S extends CsvSpec>(spec: S): ColumnReaders<S> {
  return Object.fromEntries(cellNames(spec).map((name, k) => [name, (cells: readonly unknown[]) => cells[k]])) as ColumnReaders<S>;
}

/** The Cells of a row given by column name (missing optional columns are null). */
export function rowCells<S extends CsvSpec>(spec: S, row: SpecRow<S>): Cells<S> {
  return cellNames(spec).map((name) => (row as Record<string, unknown>)[name] ?? null);
}

function spec<const C extends Record<string, ColumnKind>, const O extends Record<string, ColumnKind> = {}>(
  file: string,
  columns: C,
  optional?: O,
): { file: string; columns: C; optional: O } {
  return { file, columns, optional: (optional ?? {}) as O };
}

const STATS = {
  value: 'float?',
  mean: 'float?',
  median: 'float?',
  min: 'float?',
  max: 'float?',
  sd: 'float?',
  se: 'float?',
  cv: 'float?',
  unit: 'str?',
} as const;

export const STUDIES = spec('studies.csv', {
  sid: 'str',
  name: 'str',
  licence: 'str?',
  access: 'str?',
  date: 'str?',
  creator: 'str?',
  curators: 'strs',
  substances: 'strs',
  reference_pmid: 'text?',
  reference_title: 'str?',
  reference_date: 'str?',
});

/** One row per group × characteristica; the characteristica columns are empty for a group without any. */
export const GROUPS = spec(
  'groups.csv',
  {
    study_name: 'str',
    study_sid: 'str',
    measurement_type: 'str?',
    group_count: 'int?',
    group_name: 'str',
    max: STATS.max,
    substance: 'str?',
    count: 'int?',
    group_parent_pk: 'nint?',
    sd: STATS.sd,
    unit: STATS.unit,
    se: STATS.se,
    min: STATS.min,
    cv: STATS.cv,
    median: STATS.median,
    group_pk: 'int',
    characteristica_pk: 'int?',
    mean: STATS.mean,
    choice: 'str?',
    value: STATS.value,
  },
  { calculation_type: 'str?' },
);

export const INDIVIDUALS = spec(
  'individuals.csv',
  {
    study_name: 'str',
    study_sid: 'str',
    measurement_type: 'str?',
    max: STATS.max,
    substance: 'str?',
    count: 'int?',
    individual_name: 'str',
    individual_pk: 'int',
    individual_group_pk: 'int?',
    sd: STATS.sd,
    unit: STATS.unit,
    se: STATS.se,
    min: STATS.min,
    cv: STATS.cv,
    median: STATS.median,
    characteristica_pk: 'int?',
    mean: STATS.mean,
    choice: 'str?',
    value: STATS.value,
  },
  { calculation_type: 'str?' },
);

export const INTERVENTIONS = spec(
  'interventions.csv',
  {
    study_sid: 'str',
    study_name: 'str',
    intervention_pk: 'int',
    raw_pk: 'int?',
    normed: 'bool',
    name: 'str',
    route: 'str?',
    form: 'str?',
    application: 'str?',
    time: 'text?',
    time_end: 'text?',
    time_unit: 'str?',
    measurement_type: 'str',
    choice: 'str?',
    substance: 'str?',
    ...STATS,
  },
  { calculation_type: 'str?' },
);

/** One row per (output, intervention); `intervention_pk` is empty for an output without interventions. */
export const OUTPUTS = spec(
  'outputs.csv',
  {
    study_name: 'str',
    measurement_type: 'str',
    tissue: 'str?',
    sd: STATS.sd,
    se: STATS.se,
    min: STATS.min,
    group_pk: 'nint?',
    output_pk: 'int',
    time_unit: 'str?',
    normed: 'bool',
    calculated: 'bool',
    value: STATS.value,
    study_sid: 'str',
    intervention_pk: 'int?',
    output_type: 'str?',
    method: 'str?',
    max: STATS.max,
    substance: 'str?',
    label: 'str?',
    individual_pk: 'nint?',
    unit: STATS.unit,
    cv: STATS.cv,
    median: STATS.median,
    mean: STATS.mean,
    time: 'float?',
    choice: 'str?',
  },
  { calculation_type: 'str?', raw_pk: 'nint?' },
);

export const TIMECOURSES = spec('timecourses.csv', {
  study_sid: 'str',
  study_name: 'str',
  output_pk: 'ints',
  subset_pk: 'int',
  subset_name: 'str',
  intervention_pk: 'ints',
  group_pk: 'nint?',
  individual_pk: 'nint?',
  normed: 'bool',
  tissue: 'str?',
  tissue_label: 'str?',
  method: 'str?',
  method_label: 'str?',
  label: 'str?',
  time: 'floats',
  time_unit: 'str?',
  measurement_type: 'str',
  measurement_type_label: 'str?',
  choice: 'str?',
  choice_label: 'str?',
  substance: 'str?',
  substance_label: 'str?',
  value: 'floats?',
  mean: 'floats?',
  median: 'floats?',
  min: 'floats?',
  max: 'floats?',
  sd: 'floats|float?',
  se: 'floats|float?',
  cv: 'floats?',
  unit: 'str?',
});

/** The per-axis columns of scatters.csv, written once with `x_` and once with `y_`. */
export const SCATTER_AXIS = {
  outputs_pk: 'py-int?',
  interventions: 'py-tuple?',
  group_pk: 'py-nint?',
  individual_pk: 'py-nint?',
  normed: 'py-bool?',
  calculated: 'py-bool?',
  tissue: 'py-str?',
  tissue_label: 'py-str?',
  method: 'py-str?',
  method_label: 'py-str?',
  label: 'py-str?',
  output_type: 'py-str?',
  time: 'py-float?',
  time_unit: 'py-str?',
  measurement_type: 'py-str?',
  // Double underscore as in the real export (and still at PK-DB's HEAD).
  measurement_type__label: 'py-str?',
  choice: 'py-str?',
  choice_label: 'py-str?',
  substance: 'py-str?',
  substance_label: 'py-str?',
  value: 'py-float?',
  mean: 'py-float?',
  median: 'py-float?',
  min: 'py-float?',
  max: 'py-float?',
  sd: 'py-float?',
  se: 'py-float?',
  cv: 'py-float?',
  unit: 'py-str?',
  dimension: 'py-int?',
  data_point: 'py-int?',
} as const satisfies Record<string, ColumnKind>;

type Prefixed<P extends string, T> = { [K in keyof T as `${P}${K & string}`]: T[K] };

function prefixed<P extends string, T extends Record<string, ColumnKind>>(prefix: P, columns: T): Prefixed<P, T> {
  return Object.fromEntries(Object.entries(columns).map(([k, v]) => [prefix + k, v])) as Prefixed<P, T>;
}

export const SCATTERS = spec('scatters.csv', {
  study_sid: 'str',
  study_name: 'str',
  subset_pk: 'int',
  subset_name: 'str',
  ...prefixed('x_', SCATTER_AXIS),
  ...prefixed('y_', SCATTER_AXIS),
});

/** The CSV members of an export zip, in the real archive's order. */
export const EXPORT_CSVS = [STUDIES, GROUPS, INDIVIDUALS, INTERVENTIONS, OUTPUTS, TIMECOURSES, SCATTERS] as const;

/** Parsed scatter axis cell values, keyed without the `x_`/`y_` prefix. */
export type ScatterAxisValues = { [K in keyof typeof SCATTER_AXIS]: KindValue[(typeof SCATTER_AXIS)[K]] };
