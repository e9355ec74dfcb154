/**
 * Intervals for `pkdb nca`: `--interval START:END` options and an interval
 * file (CSV with columns `start`, `end` and optionally `parameters`, codes
 * separated by spaces), as PKNCA's `intervals` data frame. Read strictly: a
 * bad cell is a UsageError naming the file, line and column.
 */
import { readFile } from 'node:fs/promises';
import { parseCsv } from '../data/export/csv.js';
import type { IntervalSpec } from '../nca/intervals.js';
import type { Pptestcd } from '../nca/parameters.js';
import { numericCell } from '../nca/group.js';
import { UsageError } from './errors.js';
import { decodeProfile } from './profile-table.js';

/** More intervals than this in a file is refused (the engine's own bound). */
export const MAX_INTERVAL_ROWS = 10_000;

/** `START:END` with START < END (finite numbers). */
export function parseIntervalOption(text: string): IntervalSpec {
  const match = /^\s*([^:]+):([^:]+)\s*$/.exec(text);
  const [start, end] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(Number.isFinite(start) && Number.isFinite(end) && start < end)) {
    throw new UsageError(`--interval must be START:END with START < END, got "${text}"`);
  }
  return { start, end };
}

/** `t1,t2,…`: dose times, finite numbers. */
export function parseDoseTimes(text: string): number[] {
  const times = text.split(',').map((t) => Number(t.trim()));
  if (times.length === 0 || times.some((t) => !Number.isFinite(t)) || text.trim() === '') {
    throw new UsageError(`--dose-times must be comma-separated numbers, got "${text}"`);
  }
  return times;
}

export function parseIntervalTable(text: string, file: string): IntervalSpec[] {
  const { header, rows } = parseCsv(text);
  for (const column of ['start', 'end']) {
    if (!header.includes(column)) throw new UsageError(`${file}: no column "${column}" in the header (${header.join(', ')})`);
  }
  if (rows.length > MAX_INTERVAL_ROWS) throw new UsageError(`${file}: at most ${MAX_INTERVAL_ROWS} intervals, got ${rows.length}`);
  const at = (name: string) => header.indexOf(name);
  return rows.map((row) => {
    if (row.error !== undefined) throw new UsageError(`${file} line ${row.line}: ${row.error}`);
    const where = (column: string) => `${file} line ${row.line}, column ${column}`;
    if (row.cells.length !== header.length) throw new UsageError(`${file} line ${row.line}: ${row.cells.length} cells, but the header has ${header.length}`);
    let start: number | null;
    let end: number | null;
    try {
      start = numericCell(row.cells[at('start')], where('start'));
      end = numericCell(row.cells[at('end')], where('end'));
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    if (start === null || end === null || !(start < end)) throw new UsageError(`${file} line ${row.line}: need start < end, got "${row.cells[at('start')]}", "${row.cells[at('end')]}"`);
    const codes = at('parameters') >= 0 ? row.cells[at('parameters')].trim() : '';
    return codes ? { start, end, parameters: codes.split(/\s+/) as Pptestcd[] } : { start, end };
  });
}

export async function readIntervalTable(file: string): Promise<IntervalSpec[]> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(file);
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  return parseIntervalTable(decodeProfile(bytes, file), file);
}
