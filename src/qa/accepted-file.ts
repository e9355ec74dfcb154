/**
 * The accepted-findings file (accepted.ts describes it): its schema, and reading it with messages that name
 * the file, the entry and the field. Apart from accepted.ts because the schema needs zod (~45 ms of CPU to
 * load), which a QA run without an accepted file does without.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { jsonErrorPosition } from '../api/json-position.js';

const SeenValues = z.object({
  reported: z.number().nullable(),
  recomputed: z.number().nullable(),
  ratio: z.number().nullable(),
});

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), 'not a calendar date');

export const AcceptedEntry = z.object({
  id: z.string().regex(/^F-[0-9a-f]{12}$/, 'expected a finding id F- followed by 12 hex digits'),
  who: z.string().trim().min(1, 'must not be empty'),
  when: isoDate,
  why: z.string().trim().min(1, 'must not be empty'),
  seen: SeenValues,
  /** The finding's study: an entry of a study the run did not check (--study) is not stale. */
  study_sid: z.string().nullable().optional(),
  about: z.string().optional(),
});
export type AcceptedEntry = z.infer<typeof AcceptedEntry>;

export const AcceptedFile = z.object({ accepted: z.array(z.unknown()) });

/** A malformed accepted file: the message names the file, the entry and the field. */
export class AcceptedFileError extends Error {
  override name = 'AcceptedFileError';
}

/** Parses the text of an accepted file; `path` is for messages only. */
export function parseAcceptedFile(text: string, path: string): AcceptedEntry[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const at = jsonErrorPosition(text);
    throw new AcceptedFileError(`${path}: invalid JSON at line ${at.line}, column ${at.column} (${(error as Error).message})`);
  }
  const file = AcceptedFile.safeParse(json);
  if (!file.success) throw new AcceptedFileError(`${path}: expected an object {"accepted": [ … ]}`);
  const entries: AcceptedEntry[] = [];
  const seenAt = new Map<string, number>();
  file.data.accepted.forEach((raw, index) => {
    const parsed = AcceptedEntry.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path.length > 0 ? issue.path.join('.') : '(entry)';
      const got = valueAt(raw, issue.path);
      const missing = got === undefined && issue.path.length > 0;
      throw new AcceptedFileError(
        `${path}: entry ${index}${idOf(raw)}: field '${field}': ${missing ? 'missing' : `${issue.message}, got ${JSON.stringify(got)}`}`,
      );
    }
    const before = seenAt.get(parsed.data.id);
    if (before !== undefined) throw new AcceptedFileError(`${path}: entry ${index}: id ${parsed.data.id} already accepted in entry ${before}`);
    seenAt.set(parsed.data.id, index);
    entries.push(parsed.data);
  });
  return entries;
}

function idOf(raw: unknown): string {
  const id = raw !== null && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? ` (${id.slice(0, 20)})` : '';
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = raw;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

export async function readAcceptedFile(path: string): Promise<AcceptedEntry[]> {
  if (/\.ya?ml$/i.test(path)) throw new AcceptedFileError(`${path}: YAML is not supported (no YAML parser is installed); write the accepted findings as JSON`);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new AcceptedFileError(`cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  return parseAcceptedFile(text, path);
}
