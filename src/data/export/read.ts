/**
 * Reads a PK-DB filter-download zip (PK-DB API notes §8) into dataset tables.
 *
 * Each member is inflated whole (the largest, outputs.csv, is 13 MB), one
 * member at a time, and its rows are typed from the bytes one at a time into
 * records (no decoded copy of the text: ./cells.ts), so that only the records
 * stay in memory: loading the shared export peaks at about 200 MB RSS in a
 * fresh process (bench/export.bench.ts).
 * outputs.csv may be read by a worker thread meanwhile (./outputs-thread.ts,
 * `ReadExportOptions.worker`).
 *
 * Bounded for hostile archives: the zip limits of ./zip.ts (entries, bytes
 * per member and in total, checked before and while inflating) and at most
 * `maxProblems` problems kept (all are counted).
 */
import { readFile, stat } from 'node:fs/promises';
import type { DatasetTables, OutputRecord } from '../model.js';
import { checkMember, DEFAULT_MAX_PROBLEMS, ExportError, ProblemLog, readRows, type ExportProblem } from './cells.js';
import { EXPORT_CSVS, GROUPS, INDIVIDUALS, INTERVENTIONS, OUTPUTS, SCATTERS, STUDIES, TIMECOURSES } from './columns.js';
import type { CsvSpec } from './columns.js';
import { readOutputs, readOutputsInWorker, useWorker, WorkerUnavailableError, type OutputsPart, type WorkerChoice } from './outputs-thread.js';
import { buildScatters, buildTerms, buildTimecourses, linkTimecourseOutputs } from './subsets.js';
import { buildGroups, buildIndividuals, buildInterventions, buildStudies } from './tables.js';
import { DEFAULT_ZIP_LIMITS, openZip, type ZipLimits, type ZipMembers } from './zip.js';

export { DEFAULT_MAX_PROBLEMS, ExportError, formatProblem, type ExportProblem } from './cells.js';
export { DEFAULT_ZIP_LIMITS, type ZipLimits } from './zip.js';
export { WORKER_MIN_BYTES, type WorkerChoice } from './outputs-thread.js';

export interface ReadExportOptions {
  /** Throw an ExportError at the first malformed row instead of skipping it. */
  strict?: boolean;
  /** How messages name the archive (default: the path, or `export zip` for bytes). */
  name?: string;
  /** Zip-bomb limits: entries, bytes per member and in total, ratio (defaults: DEFAULT_ZIP_LIMITS). */
  limits?: Partial<ZipLimits>;
  /** Problems kept in `problems` (default DEFAULT_MAX_PROBLEMS, 1000); `problemCount` counts them all. */
  maxProblems?: number;
  /**
   * Where outputs.csv (two thirds of an export) is read. `'auto'` (the
   * default) and `false`: on the calling thread, which measured faster than
   * a worker thread, cold or warm (outputs-thread.ts `useWorker`). `true`: in
   * a worker thread, in parallel with the other members, when outputs.csv is
   * at least WORKER_MIN_BYTES; `'always'`: whatever its size. A strict read
   * stays on the calling thread (it stops at the first problem in file
   * order), and so does one where no worker can be started. The result is
   * the same either way.
   */
  worker?: WorkerChoice;
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
 *
 * Problems are listed, and the first error thrown, in the order outputs.csv,
 * timecourses, scatters, studies, groups, individuals and interventions,
 * whichever thread reads outputs.csv and when. On this thread it is read
 * last (except in strict mode, which stops at the first problem in that
 * order): the other members' rows run the typing code hot first, and the
 * 80 000 rows of outputs.csv find it optimised (a cold read, the CLI's,
 * costs less CPU that way).
 */
export async function readExport(source: string | Uint8Array, options: ReadExportOptions = {}): Promise<ExportReadResult> {
  const archive = options.name ?? (typeof source === 'string' ? source : 'export zip');
  const limits = { ...DEFAULT_ZIP_LIMITS, ...options.limits };
  const bytes = typeof source === 'string' ? await readArchive(source, archive, limits.maxTotalBytes) : source;
  const wanted = new Set(EXPORT_CSVS.map((spec) => spec.file));
  const members = openZip(bytes, archive, limits);
  const missing = [...wanted].filter((file) => !members.has(file));
  if (missing.length > 0) throw new ExportError(`${archive}: missing ${missing.join(', ')} (not a PK-DB export?)`);

  const strict = options.strict ?? false;
  const maxProblems = options.maxProblems ?? DEFAULT_MAX_PROBLEMS;
  const log = new ProblemLog(archive, strict, maxProblems);
  const outputsMember = members.stored(OUTPUTS.file);
  const threaded = !strict && useWorker(options.worker ?? 'auto', outputsMember.size);
  if (strict) {
    const outputs = readOutputs(outputsMember, log, archive);
    return { tables: withOutputs(readOthers(members, log, archive), outputs), problems: log.problems, problemCount: log.count };
  }
  // outputs.csv is read by a worker meanwhile, or on this thread after the other members (whose 55 000 rows
  // warm the typing code up first, see `readExport`), with its own log: its problems are listed first.
  const inWorker = threaded ? readOutputsInWorker(outputsMember, archive, maxProblems) : null;
  const readHere = (): OutputsPart => {
    const outputsLog = new ProblemLog(archive, false, maxProblems);
    return { outputs: readOutputs(outputsMember, outputsLog, archive), problems: outputsLog.problems, problemCount: outputsLog.count };
  };
  const outputsPart = async (): Promise<OutputsPart> =>
    inWorker === null
      ? readHere()
      : inWorker.catch((error: unknown) => {
          if (!(error instanceof WorkerUnavailableError)) throw error;
          return readHere();
        });
  let others: OtherTables;
  try {
    others = readOthers(members, log, archive);
  } catch (error) {
    // outputs.csv comes first: its error, if it has one, is the one to throw.
    await outputsPart().catch((outputsError: unknown) => {
      if (outputsError instanceof ExportError) throw outputsError;
    });
    throw error;
  }
  const part = await outputsPart();
  const problems = [...part.problems, ...log.problems].slice(0, maxProblems);
  return { tables: withOutputs(others, part.outputs), problems, problemCount: part.problemCount + log.count };
}

type OtherTables = Omit<DatasetTables, 'outputs' | 'terms'>;

/** Every member but outputs.csv, each inflated when its rows are read and its bytes dropped once decoded (one member at a time in memory). */
function readOthers(members: ZipMembers, log: ProblemLog, archive: string): OtherTables {
  const rowsOf = <S extends CsvSpec>(spec: S) => readRows(spec, checkMember(members.read(spec.file)), log, archive);
  const timecourses = buildTimecourses(rowsOf(TIMECOURSES), log);
  const scatters = buildScatters(rowsOf(SCATTERS), log);
  return {
    studies: buildStudies(rowsOf(STUDIES), log),
    groups: buildGroups(rowsOf(GROUPS), log),
    individuals: buildIndividuals(rowsOf(INDIVIDUALS), log),
    interventions: buildInterventions(rowsOf(INTERVENTIONS), log),
    timecourses,
    scatters,
  };
}

/** The tables, with the outputs linked to their timecourses and the terms the subsets reveal. */
function withOutputs(others: OtherTables, outputs: OutputRecord[]): DatasetTables {
  linkTimecourseOutputs(outputs, others.timecourses);
  const { studies, groups, individuals, interventions, timecourses, scatters } = others;
  return { studies, groups, individuals, interventions, outputs, timecourses, scatters, terms: buildTerms(outputs, timecourses, scatters) };
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
