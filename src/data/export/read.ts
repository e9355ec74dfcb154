/**
 * Reads a PK-DB filter-download zip (PK-DB API notes §8) into dataset tables.
 *
 * Each member is inflated and decoded whole (the largest, outputs.csv, is
 * 13 MB), one member at a time, then its rows are parsed one at a time into
 * records, so that only the records stay in memory: loading the shared export
 * peaks at about 250 MB RSS in a fresh process (bench/export.bench.ts).
 *
 * Bounded for hostile archives: the zip limits of ./zip.ts (entries, bytes
 * per member and in total, checked before and while inflating) and at most
 * `maxProblems` problems kept (all are counted).
 */
import { readFile, stat } from 'node:fs/promises';
import type { DatasetTables } from '../model.js';
import { decodeMember, DEFAULT_MAX_PROBLEMS, ExportError, ProblemLog, readRows, type ExportProblem } from './cells.js';
import { EXPORT_CSVS, GROUPS, INDIVIDUALS, INTERVENTIONS, OUTPUTS, SCATTERS, STUDIES, TIMECOURSES } from './columns.js';
import type { CsvSpec } from './columns.js';
import { buildScatters, buildTerms, buildTimecourses, linkTimecourseOutputs } from './subsets.js';
import { buildGroups, buildIndividuals, buildInterventions, buildOutputs, buildStudies } from './tables.js';
import { DEFAULT_ZIP_LIMITS, openZip, type ZipLimits } from './zip.js';

export { DEFAULT_MAX_PROBLEMS, ExportError, formatProblem, type ExportProblem } from './cells.js';
export { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip.js';

export interface ReadExportOptions {
  /** Throw an ExportError at the first malformed row instead of skipping it. */
  strict?: boolean;
  /** How messages name the archive (default: the path, or `export zip` for bytes). */
  name?: string;
  /** Zip-bomb limits: entries, bytes per member and in total, ratio (defaults: DEFAULT_ZIP_LIMITS). */
  limits?: Partial<ZipLimits>;
  /** Problems kept in `problems` (default DEFAULT_MAX_PROBLEMS, 1000); `problemCount` counts them all. */
  maxProblems?: number;
}

export interface ExportReadResult {
  tables: DatasetTables;
  /** Rows that were skipped, with file, line and column: the first `maxProblems`. Empty when everything read. */
  problems: ExportProblem[];
  /** Every problem found; more than `problems.length` when the list was cut at `maxProblems`. */
  problemCount: number;
}

/**
 * Reads an export zip given as a path or as bytes. Throws ExportError for an
 * unreadable file, a zip bomb, a missing member or a missing column; every
 * other defect is one `problem` per skipped row (or an ExportError when strict).
 */
export async function readExport(source: string | Uint8Array, options: ReadExportOptions = {}): Promise<ExportReadResult> {
  const archive = options.name ?? (typeof source === 'string' ? source : 'export zip');
  const limits = { ...DEFAULT_ZIP_LIMITS, ...options.limits };
  const bytes = typeof source === 'string' ? await readArchive(source, archive, limits.maxTotalBytes) : source;
  const wanted = new Set(EXPORT_CSVS.map((spec) => spec.file));
  const members = openZip(bytes, archive, limits);
  const missing = [...wanted].filter((file) => !members.has(file));
  if (missing.length > 0) throw new ExportError(`${archive}: missing ${missing.join(', ')} (not a PK-DB export?)`);

  const log = new ProblemLog(archive, options.strict ?? false, options.maxProblems ?? DEFAULT_MAX_PROBLEMS);
  // Each member is inflated when its rows are read, and its bytes dropped once decoded: one member at a time in memory.
  const rowsOf = <S extends CsvSpec>(spec: S) => readRows(spec, decodeMember(members.read(spec.file)), log, archive);

  const outputs = buildOutputs(rowsOf(OUTPUTS), log);
  const timecourses = buildTimecourses(rowsOf(TIMECOURSES), log);
  const scatters = buildScatters(rowsOf(SCATTERS), log);
  linkTimecourseOutputs(outputs, timecourses);
  const tables: DatasetTables = {
    studies: buildStudies(rowsOf(STUDIES), log),
    groups: buildGroups(rowsOf(GROUPS), log),
    individuals: buildIndividuals(rowsOf(INDIVIDUALS), log),
    interventions: buildInterventions(rowsOf(INTERVENTIONS), log),
    outputs,
    timecourses,
    scatters,
    terms: buildTerms(outputs, timecourses, scatters),
  };
  return { tables, problems: log.problems, problemCount: log.count };
}

/** The archive's bytes; one larger than the total budget is refused unread (even stored members would exceed it). */
async function readArchive(path: string, archive: string, maxBytes: number): Promise<Uint8Array> {
  try {
    const { size } = await stat(path);
    if (size > maxBytes) throw new Error(`${size} bytes, over the ${maxBytes}-byte total budget`);
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : (error as Error).message;
    throw new ExportError(`${archive}: cannot read (${reason})`);
  }
}
