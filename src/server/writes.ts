/**
 * The write views: POST /_studies/, /_references/ (JSON in PK-DB's upload
 * format) and /_datafiles/ (multipart upload, as PK-DB and the client send it),
 * each behind HTTP Basic auth. Unlike PK-DB (NOTES.md §3) there are no
 * anonymous writes and no PUT/PATCH/DELETE or maintenance routes.
 */
import type { IncomingMessage } from 'node:http';
import type { z } from 'zod';
import { WriteReference, WriteStudy } from '../api/schemas/index.js';
import type { UserTable } from './auth.js';
import { basicCredentials } from './auth.js';
import { ApiError, badRequest, tooLarge, unauthorized } from './errors.js';
import type { Store, WriteResource } from './store.js';

/** Request bodies above this are refused with 413 (a study upload is well under 1 MB). */
export const DEFAULT_BODY_LIMIT_BYTES = 10 * 1024 * 1024;

/** The user a request authenticates as; 401 with a Basic challenge otherwise. */
export async function authenticate(request: IncomingMessage, users: UserTable | undefined): Promise<string> {
  const credentials = basicCredentials(request.headers.authorization);
  if (!credentials) throw unauthorized('Authentication credentials were not provided.');
  const username = users ? await users.verify(credentials.username, credentials.password) : null;
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
  const out: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : 'non_field_errors';
    (out[key] ??= []).push(issue.message);
  }
  return out;
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new ApiError(400, { detail: `JSON parse error - ${(error as Error).message}` });
  }
}

export interface WriteContext {
  store: Store;
  /** True when a study with this sid exists in the served dataset. */
  datasetHasStudy(sid: string): boolean;
  /** True when a reference with this sid exists in the served dataset. */
  datasetHasReference(sid: string): boolean;
}

const JSON_SCHEMAS = { _studies: WriteStudy, _references: WriteReference } as const;

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
  if (!/^multipart\/form-data/i.test(type)) {
    throw new ApiError(415, { detail: `Unsupported media type "${type}" in request.` });
  }
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
