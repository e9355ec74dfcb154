/**
 * The write views: POST /_studies/, /_references/ (JSON in PK-DB's upload
 * format) and /_datafiles/ (multipart upload, as PK-DB and the client send it),
 * each behind HTTP Basic auth. Unlike PK-DB (PK-DB API notes §3) there are no
 * anonymous writes and no PUT/PATCH/DELETE or maintenance routes.
 */
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { WriteReference, WriteStudy } from '../api/schemas/index.js';
import type { UserTable } from './auth.js';
import { basicCredentials } from './auth.js';
import { ApiError, badRequest, tooLarge, unauthorized, unsupportedMediaType } from './errors.js';
import type { Store, WriteResource } from './store.js';

/** Request bodies above this are refused with 413 (a study upload is well under 1 MB). */
export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;
/** JSON bodies nested deeper than this are a 400, checked before parsing (an upload nests under 10 levels). */
export const MAX_JSON_DEPTH = 64;

/** The user a request authenticates as; 401 with a Basic challenge otherwise. */
export async function authenticate(request: IncomingMessage, users: UserTable | undefined): Promise<string> {
  const credentials = basicCredentials(request.headers.authorization);
  if (!credentials) throw unauthorized('Authentication credentials were not provided.');
  const username = users ? await users.verify(credentials.username, credentials.password, request.socket.remoteAddress) : null;
  if (!username) throw unauthorized('Invalid username/password.');
  return username;
}

/** The whole request body, refusing more than `limit` bytes (by Content-Length up front, else while reading). */
export async function readBody(request: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** zod issues as DRF field errors: `{"a.b": ["message"]}`, root problems under `non_field_errors`. */
export function fieldErrors(error: z.ZodError): Record<string, string[]> {
  // Keys are paths of the client's JSON (`constructor`, `__proto__`…): no prototype to collide with.
  const out: Record<string, string[]> = Object.create(null) as Record<string, string[]>;
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'non_field_errors';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

/**
 * JSON writes need `Content-Type: application/json` (415 otherwise, as DRF's
 * JSONParser), in UTF-8 (RFC 8259 §8.1) when a charset is named.
 */
export function requireJsonContentType(request: IncomingMessage): void {
  const type = request.headers['content-type'] ?? '';
  const [media, ...params] = type.split(';').map((part) => part.trim().toLowerCase());
  const charset = params.find((p) => p.startsWith('charset='))?.slice('charset='.length).replace(/"/g, '');
  if (media !== 'application/json' || (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')) {
    throw unsupportedMediaType(type);
  }
}

/** True when `[`/`{` nest deeper than `limit` anywhere outside strings: one linear pass, no recursion. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

const parseError = (detail: string): ApiError => new ApiError(400, { detail: `JSON parse error - ${detail}` });

/** The body as JSON: strict UTF-8 (no silent U+FFFD), bounded depth, then JSON.parse. */
function parseJson(body: Buffer): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    throw parseError('the body is not valid UTF-8.');
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) throw parseError(`nested deeper than ${MAX_JSON_DEPTH} levels.`);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw parseError((error as Error).message);
  }
}

/** A real calendar date `YYYY-MM-DD` (the API schema checks only the shape; `2020-13-45` is not one). */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Text no write may store: control characters (tab, newline and carriage
 * return are allowed in free text), lone surrogates (a `\ud800` escape) and
 * U+FFFD, the mark of a bad decoding upstream. Identifiers (`sid`, `name`)
 * allow no control character at all.
 */
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Cs}\uFFFD]/u;
const NOT_IDENTIFIER = /[\p{Cc}\p{Cs}\uFFFD]/u;
const IDENTIFIERS = new Set(['sid', 'name']);
/** Problems reported per body; the walk stops there. */
const MAX_TEXT_PROBLEMS = 20;

/** Every string and key of a write body must be text; `sid`/`name` at the top must be printable; `date` a real date. */
function checkWrite(value: Record<string, unknown>, ctx: z.RefinementCtx): void {
  let problems = 0;
  const report = (path: (string | number)[], message: string) => {
    if (problems++ < MAX_TEXT_PROBLEMS) ctx.addIssue({ code: 'custom', path, message });
  };
  // Depth is bounded by MAX_JSON_DEPTH (checked before parsing), so recursion is safe.
  const walk = (node: unknown, path: (string | number)[]) => {
    if (problems >= MAX_TEXT_PROBLEMS) return;
    if (typeof node === 'string') {
      const identifier = path.length === 1 && IDENTIFIERS.has(String(path[0]));
      if ((identifier ? NOT_IDENTIFIER : NOT_TEXT).test(node)) report(path, 'contains a control character, an invalid code point or U+FFFD.');
    } else if (Array.isArray(node)) node.forEach((v, i) => walk(v, [...path, i]));
    else if (node !== null && typeof node === 'object') {
      for (const [key, v] of Object.entries(node)) {
        if (NOT_IDENTIFIER.test(key)) report(path, 'has a key with a control character, an invalid code point or U+FFFD.');
        walk(v, [...path, key]);
      }
    }
  };
  walk(value, []);
  if (typeof value.date === 'string' && !isCalendarDate(value.date)) report(['date'], `"${value.date}" is not a calendar date.`);
}

export interface WriteContext {
  store: Store;
  /** True when a study with this sid exists in the served dataset. */
  datasetHasStudy(sid: string): boolean;
  /** True when a reference with this sid exists in the served dataset. */
  datasetHasReference(sid: string): boolean;
}

/** The write schemas of the API, plus what only a server storing the data must check. */
const JSON_SCHEMAS = { _studies: WriteStudy.superRefine(checkWrite), _references: WriteReference.superRefine(checkWrite) } as const;

/** Validates and stores a JSON write; resolves to the created item. */
export async function createRecord(
  resource: '_studies' | '_references',
  body: Buffer,
  username: string,
  ctx: WriteContext,
): Promise<Record<string, unknown>> {
  const parsed = JSON_SCHEMAS[resource].safeParse(parseJson(body));
  if (!parsed.success) throw badRequest(fieldErrors(parsed.error));
  const item = parsed.data as Record<string, unknown>;
  const sid = typeof item.sid === 'string' ? item.sid : '';
  if (sid === '') throw badRequest({ sid: ['This field is required.'] });
  const noun = resource === '_studies' ? 'study' : 'reference';
  const exists = resource === '_studies' ? ctx.datasetHasStudy(sid) : ctx.datasetHasReference(sid);
  if (exists || ctx.store.has(resource, sid)) throw badRequest({ sid: [`${noun} with this sid already exists.`] });
  await ctx.store.insert(resource, sid, item, username);
  return item;
}

/** Parses a multipart upload with the platform's own parser (WHATWG Request.formData). */
async function formDataOf(request: IncomingMessage, body: Buffer): Promise<FormData> {
  const type = request.headers['content-type'] ?? '';
  if (!/^multipart\/form-data/i.test(type)) throw unsupportedMediaType(type);
  try {
    return await new Request('http://upload.invalid/', { method: 'POST', headers: { 'content-type': type }, body }).formData();
  } catch (error) {
    throw new ApiError(400, { detail: `Multipart form parse error - ${(error as Error).message}` });
  }
}

/** Stores an uploaded data file; resolves to its id. */
export async function createDataFile(request: IncomingMessage, body: Buffer, username: string, store: Store): Promise<number> {
  const form = await formDataOf(request, body);
  const file = form.get('file');
  if (file === null || typeof file === 'string') throw badRequest({ file: ['No file was submitted.'] });
  const filetype = form.get('filetype');
  const name = file.name.replace(/[/\\]/g, '_') || 'upload';
  return store.insertFile(name, typeof filetype === 'string' ? filetype : null, new Uint8Array(await file.arrayBuffer()), username);
}

/** The `_datafiles` item of a stored upload, with the URL it is served at. */
export function dataFileItem(origin: string, id: number, body: Record<string, unknown>): Record<string, unknown> {
  const filename = String(body.filename ?? 'upload');
  const item: Record<string, unknown> = { file: `${origin}/media/datafiles/${id}/${encodeURIComponent(filename)}`, id };
  if (typeof body.filetype === 'string') item.filetype = body.filetype;
  return item;
}

export type { WriteResource };
