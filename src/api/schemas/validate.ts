/**
 * Validation with messages a curator can act on, and the strict check for
 * keys the schemas do not know.
 *
 * zod reports `expected string, received number` without nullability; this
 * module walks the schema to the failing path instead, so messages read
 * `data.data[7].unit: expected string or null, got number`.
 */
import { z } from 'zod';
import { SchemaError, type RequestContext } from '../errors.js';

type Path = readonly PropertyKey[];

/** The parts of zod 4's schema definition this module walks (stable `def` fields of zod 4). */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
  out?: z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
  values?: unknown[];
  entries?: Record<string, unknown>;
}
const defOf = (schema: z.ZodType): Def => schema.def as unknown as Def;

/** `['data', 'data', 7, 'unit']` -> `data.data[7].unit`. */
export function formatPath(path: Path): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out;
}

/** Human name of what a schema accepts: `string or null`, `integer`, `array`, ... */
export function describeSchema(schema: z.ZodType): string {
  const def = defOf(schema);
  switch (def.type) {
    case 'nullable':
      return `${describeSchema(def.innerType!)} or null`;
    case 'optional':
    case 'default':
    case 'readonly':
      return describeSchema(def.innerType!);
    case 'union':
      return def.options!.map(describeSchema).join(' or ');
    case 'pipe':
      return describeSchema(defOf(def.in!).type === 'transform' ? def.out! : def.in!);
    case 'number':
      return (schema as z.ZodNumber).isInt ? 'integer' : 'number';
    case 'record':
      return 'object';
    case 'tuple':
      return 'array';
    case 'literal':
      return def.values!.map((value) => JSON.stringify(value)).join(' or ');
    case 'enum':
      return `one of ${Object.values(def.entries!).map((value) => JSON.stringify(value)).join(', ')}`;
    default:
      return def.type;
  }
}

/** The JSON type of a value, as messages name it. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (key missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'number';
  return typeof value;
}

function unwrap(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  if (def.type === 'nullable' || def.type === 'optional' || def.type === 'default' || def.type === 'readonly') return unwrap(def.innerType!);
  if (def.type === 'pipe') return unwrap(defOf(def.in!).type === 'transform' ? def.out! : def.in!);
  return schema;
}

/** The sub-schema at `path`, or undefined where the path leaves the schema (a union, an unknown key). */
export function schemaAt(schema: z.ZodType, path: Path): z.ZodType | undefined {
  let current: z.ZodType | undefined = schema;
  for (const key of path) {
    if (!current) return undefined;
    const def = defOf(unwrap(current));
    if (def.type === 'object') current = def.shape![String(key)];
    else if (def.type === 'array') current = def.element;
    else if (def.type === 'record') current = def.valueType;
    else if (def.type === 'tuple') current = def.items![Number(key)];
    else return undefined;
  }
  return current;
}

function valueAt(value: unknown, path: Path): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** One line per zod issue: `path: expected X, got Y` (or zod's own text for checks like regex and refine). */
export function formatIssue(schema: z.ZodType, value: unknown, issue: z.core.$ZodIssue): { path: string; problem: string } {
  const path = formatPath(issue.path);
  if (issue.code === 'invalid_type' || issue.code === 'invalid_union') {
    const target = schemaAt(schema, issue.path);
    const expected = target ? describeSchema(target) : issue.code === 'invalid_type' ? issue.expected : 'another shape';
    return { path, problem: `expected ${expected}, got ${describeValue(valueAt(value, issue.path))}` };
  }
  return { path, problem: issue.message };
}

/** Parse `value` with `schema`, or throw a SchemaError naming the request and the first failing JSON path. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown, request: RequestContext): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const [first, ...rest] = result.error.issues.map((issue) => formatIssue(schema, value, issue));
  throw new SchemaError(
    request,
    first.path,
    first.problem,
    rest.map(({ path, problem }) => `${path}: ${problem}`),
  );
}

/**
 * JSON paths of keys in `value` that `schema` does not declare (kept by the
 * loose parse). For a union, the first option that accepts the value decides.
 */
export function unknownKeys(schema: z.ZodType, value: unknown, path: Path = []): string[] {
  const inner = unwrap(schema);
  const def = defOf(inner);
  if (value === null || value === undefined) return [];
  if (def.type === 'object' && typeof value === 'object' && !Array.isArray(value)) {
    const shape = def.shape!;
    return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) =>
      key in shape ? unknownKeys(shape[key], child, [...path, key]) : [formatPath([...path, key])],
    );
  }
  if (def.type === 'array' && Array.isArray(value)) return value.flatMap((child, index) => unknownKeys(def.element!, child, [...path, index]));
  if (def.type === 'tuple' && Array.isArray(value)) return def.items!.flatMap((item, index) => unknownKeys(item, value[index], [...path, index]));
  if (def.type === 'record' && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, child]) => unknownKeys(def.valueType!, child, [...path, key]));
  }
  if (def.type === 'union') {
    const match = def.options!.find((option) => option.safeParse(value).success);
    return match ? unknownKeys(match, value, path) : [];
  }
  return [];
}

/** Strict variant: parse, then fail on the first unknown key. */
export function parseStrict<S extends z.ZodType>(schema: S, value: unknown, request: RequestContext): z.infer<S> {
  const parsed = parseOrThrow(schema, value, request);
  const extra = unknownKeys(schema, value);
  if (extra.length) throw new SchemaError(request, extra[0], 'unknown key', extra.slice(1).map((path) => `${path}: unknown key`));
  return parsed;
}
