/**
 * NCA over a long table (one row per sample, a subject column): one standard
 * profile per subject, in order of first appearance. A subject whose rows are
 * unusable gets an error naming the row and column; the others still run.
 */
import { nca, type NcaInput, type NcaOptions, type NcaResult } from './nca.js';
import { pushTo } from '../data/records.js';

export interface GroupColumns {
  subject: string;
  time: string;
  conc: string;
  /** Per-subject dose column (constant within a subject); otherwise `profile.dose` applies. */
  dose?: string;
  /** Per-row LLOQ column: a value below it is BLQ (./blq.ts). */
  lloq?: string;
}

export type GroupResult =
  | { subject: string; result: NcaResult; error: null }
  | { subject: string; result: null; error: string };

/** Cells read as missing: empty, NA and "." (the usual BLQ/missing markers of NCA tables). */
const MISSING_TEXT = new Set(['', 'na', 'nan', '.', 'null']);

/**
 * A decimal numeral: sign, digits with an optional point, optional exponent.
 * `Number` accepts more, and reads it wrongly for a table of samples:
 * `0x4` is 4, ` ` is 0, `Infinity` is a value; `1_000` and `4,5` are NaN.
 */
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A numeric cell: a number, or text that is a decimal numeral (surrounding
 * spaces allowed); null when missing (empty or a MISSING_TEXT marker); an
 * error naming `where` otherwise, including a cell of spaces only, which is
 * neither empty nor a number.
 */
export function numericCell(value: unknown, where: string): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isNaN(value) ? null : value;
  const raw = String(value);
  const text = raw.trim();
  if (text === '' && raw !== '') throw new Error(`${where}: a cell of spaces only (leave it empty or write NA for a missing value)`);
  if (MISSING_TEXT.has(text.toLowerCase())) return null;
  const shown = JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
  if (!DECIMAL.test(text)) {
    const hint = /^[+-]?\d+,\d+$/.test(text) ? ' (a decimal comma? write a point)' : '';
    throw new Error(`${where}: ${shown} is not a decimal number${hint}`);
  }
  const parsed = Number(text);
  if (!Number.isFinite(parsed)) throw new Error(`${where}: ${shown} is out of range`);
  return parsed;
}

/** Cells that say "below the limit of quantification" (case-insensitive). */
export const BLQ_TEXT: ReadonlySet<string> = new Set(['blq', 'bloq', 'bql', 'blql', '<lloq', '<loq', '< lloq', 'lloq', 'nq', 'bdl', '<ll']);

export interface ConcentrationCell {
  value: number | null;
  blq: boolean;
  /** The limit a "<0.1" cell states. */
  lloq: number | null;
}

/**
 * A concentration cell: a number or missing (as numericCell), or BLQ — a
 * marker of BLQ_TEXT ("BLQ", "<LLOQ", …) or "<x" with x a decimal number
 * (BLQ with LLOQ x). Anything else is an error naming `where`.
 */
export function concentrationCell(value: unknown, where: string): ConcentrationCell {
  if (typeof value === 'string') {
    const text = value.trim();
    if (BLQ_TEXT.has(text.toLowerCase())) return { value: null, blq: true, lloq: null };
    if (text.startsWith('<')) {
      const limit = text.slice(1).trim();
      if (!DECIMAL.test(limit)) throw new Error(`${where}: ${JSON.stringify(text)} is not a BLQ cell (write <0.1 or BLQ)`);
      return { value: null, blq: true, lloq: Number(limit) };
    }
  }
  return { value: numericCell(value, where), blq: false, lloq: null };
}

function subjectProfile(
  rows: readonly Record<string, unknown>[],
  rowNumbers: number[],
  columns: GroupColumns,
): { time: (number | null)[]; conc: (number | null)[]; dose: number | undefined; blq?: boolean[]; lloq?: (number | null)[] } {
  const time: (number | null)[] = [];
  const conc: (number | null)[] = [];
  const blq: boolean[] = [];
  const lloq: (number | null)[] = [];
  let anyBlq = columns.lloq !== undefined;
  let dose: number | undefined;
  for (const r of rowNumbers) {
    const row = rows[r];
    time.push(numericCell(row[columns.time], `row ${r + 1}, column ${columns.time}`));
    const cell = concentrationCell(row[columns.conc], `row ${r + 1}, column ${columns.conc}`);
    conc.push(cell.value);
    blq.push(cell.blq);
    anyBlq ||= cell.blq;
    lloq.push(cell.lloq ?? (columns.lloq === undefined ? null : numericCell(row[columns.lloq], `row ${r + 1}, column ${columns.lloq}`)));
    if (columns.dose === undefined) continue;
    const d = numericCell(row[columns.dose], `row ${r + 1}, column ${columns.dose}`);
    if (d === null) continue;
    if (dose !== undefined && d !== dose) throw new Error(`row ${r + 1}, column ${columns.dose}: dose ${d} differs from ${dose}`);
    dose = d;
  }
  return anyBlq ? { time, conc, dose, blq, lloq } : { time, conc, dose };
}

/**
 * Runs `analyse` on each subject's input, in order of first appearance; a
 * subject whose rows are unusable (or whose analysis throws) gets an error
 * naming it, and the others still run.
 */
export function bySubject<R>(
  rows: readonly Record<string, unknown>[],
  columns: GroupColumns,
  profile: Omit<NcaInput, 'time' | 'conc'>,
  analyse: (input: NcaInput) => R,
): ({ subject: string; result: R; error: null } | { subject: string; result: null; error: string })[] {
  const groups = new Map<string, number[]>();
  rows.forEach((row, r) => {
    const subject = String(row[columns.subject] ?? '');
    pushTo(groups, subject, r);
  });
  const results: ({ subject: string; result: R; error: null } | { subject: string; result: null; error: string })[] = [];
  for (const [subject, rowNumbers] of groups) {
    try {
      const { time, conc, dose, blq, lloq } = subjectProfile(rows, rowNumbers, columns);
      const rowLloq = lloq && typeof profile.lloq === 'number' ? lloq.map((l) => l ?? (profile.lloq as number)) : lloq ?? profile.lloq;
      const input = { ...profile, time, conc, dose: dose ?? profile.dose, ...(blq ? { blq } : {}), ...(rowLloq !== undefined ? { lloq: rowLloq } : {}) };
      results.push({ subject, result: analyse(input), error: null });
    } catch (error) {
      results.push({ subject, result: null, error: `subject ${subject}: ${(error as Error).message}` });
    }
  }
  return results;
}

export function ncaByGroup(
  rows: readonly Record<string, unknown>[],
  columns: GroupColumns,
  profile: Omit<NcaInput, 'time' | 'conc'> = {},
  options: NcaOptions = {},
): GroupResult[] {
  return bySubject(rows, columns, profile, (input) => nca(input, options));
}
