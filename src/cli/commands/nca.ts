/**
 * `pkdb nca FILE.csv`: the standard NCA profile per subject of a long table
 * (one row per sample). CSV output: `subject,` then the route's PPTESTCD codes,
 * one row per subject, empty where a parameter is missing. JSON: per subject
 * every code as {value, unit}, the λz points and the notes on missing values.
 * Volumes and clearances come in --volume-unit (default L, per time unit for
 * clearances) when dose/conc converts to a volume (see src/nca/units.ts).
 * Exit 1 when a subject could not be analysed (its row stays empty).
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { AUC_METHODS, ROUTES, codesForRoute, type AucMethod, type Route } from '../../nca/codes.js';
import type { GroupResult } from '../../nca/group.js';
import type { LambdaZSelection } from '../../nca/select-lambda-z.js';

interface NcaCliOptions {
  subject: string;
  time: string;
  conc: string;
  dose?: string;
  doseCol?: string;
  doseUnit: string;
  timeUnit: string;
  concUnit: string;
  volumeUnit: string;
  route: string;
  duration?: string;
  aucMethod: string;
  lambdaZ: string;
  format: string;
  out?: string;
}

function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`${option} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

function positiveNumber(option: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!(Number.isFinite(value) && value >= 0)) throw new UsageError(`${option} must be a number ≥ 0, got "${text}"`);
  return value;
}

/** `best-fit`, or `FIRST:LAST` — the time range whose samples λz uses. */
export function parseLambdaZ(text: string): LambdaZSelection {
  if (text === 'best-fit') return 'best-fit';
  const match = /^\s*([^:]+):([^:]+)\s*$/.exec(text);
  const [start, end] = match ? [Number(match[1]), Number(match[2])] : [NaN, NaN];
  if (!(Number.isFinite(start) && Number.isFinite(end) && start < end)) {
    throw new UsageError(`--lambda-z must be best-fit or FIRST:LAST times with FIRST < LAST, got "${text}"`);
  }
  return { start, end };
}

async function readTable(file: string, columns: string[]): Promise<Record<string, unknown>[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const { fromCSV } = await import('arquero');
  const table = fromCSV(text, { autoType: false });
  const absent = columns.filter((c) => !table.columnNames().includes(c));
  if (absent.length > 0) throw new UsageError(`${file}: no column ${absent.map((c) => `"${c}"`).join(', ')}`);
  return table.objects() as Record<string, unknown>[];
}

function csvCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function formatCsv(results: GroupResult[], route: Route): string {
  const codes = codesForRoute(route);
  const lines = [['subject', ...codes].join(',')];
  for (const { subject, result } of results) {
    const cells = codes.map((code) => {
      const value = result?.parameters[code]?.value;
      return value === null || value === undefined ? '' : String(value);
    });
    lines.push([csvCell(subject), ...cells].join(','));
  }
  return `${lines.join('\n')}\n`;
}

export function formatJson(results: GroupResult[]): string {
  const subjects = results.map(({ subject, result, error }) =>
    result
      ? { subject, parameters: result.parameters, lambdaZ: result.lambdaZ, notes: result.notes, excluded: result.excluded }
      : { subject, error },
  );
  return `${JSON.stringify(subjects, null, 2)}\n`;
}

/** A bad --volume-unit is a usage error once, not a failure of every subject. */
async function checkVolumeOption(unit: string): Promise<void> {
  const { checkVolumeUnit } = await import('../../nca/units.js');
  const { NcaInputError } = await import('../../nca/clean.js');
  try {
    checkVolumeUnit(unit);
  } catch (e) {
    if (e instanceof NcaInputError) throw new UsageError(`--volume-unit: ${e.message}`);
    throw e;
  }
}

async function run(file: string, options: NcaCliOptions, setExit: (code: number) => void): Promise<void> {
  const route = oneOf('--route', options.route, ROUTES);
  const aucMethod = oneOf<AucMethod>('--auc-method', options.aucMethod, AUC_METHODS);
  const format = oneOf('--format', options.format, ['csv', 'json'] as const);
  const lambdaZ = parseLambdaZ(options.lambdaZ);
  if (options.dose !== undefined && options.doseCol !== undefined) throw new UsageError('give either --dose or --dose-col, not both');
  const dose = positiveNumber('--dose', options.dose);
  const duration = positiveNumber('--duration', options.duration);
  if (route === 'iv-infusion' && duration === undefined) throw new UsageError('--route iv-infusion needs --duration');
  await checkVolumeOption(options.volumeUnit);

  const columns = { subject: options.subject, time: options.time, conc: options.conc, dose: options.doseCol };
  const rows = await readTable(file, [columns.subject, columns.time, columns.conc, ...(columns.dose ? [columns.dose] : [])]);
  const { ncaByGroup } = await import('../../nca/group.js');
  const results = ncaByGroup(
    rows,
    columns,
    {
      dose,
      doseUnit: options.doseUnit,
      timeUnit: options.timeUnit,
      concUnit: options.concUnit,
      volumeUnit: options.volumeUnit,
      route,
      duration,
    },
    { aucMethod, lambdaZ },
  );
  const text = format === 'csv' ? formatCsv(results, route) : formatJson(results);
  if (options.out) await writeFile(options.out, text);
  else process.stdout.write(text);
  const failed = results.filter((r) => r.error !== null);
  for (const r of failed) process.stderr.write(`pkdb nca: ${r.error}\n`);
  setExit(failed.length > 0 ? 1 : 0);
}

export function register(program: Command, setExit: (code: number) => void): void {
  program
    .command('nca')
    .description('non-compartmental analysis (WinNonlin-conformant standard profile) per subject of a CSV table')
    .argument('<file>', 'CSV with one row per sample')
    .option('--subject <col>', 'subject column', 'subject')
    .option('--time <col>', 'time column', 'time')
    .option('--conc <col>', 'concentration column', 'conc')
    .option('--dose <n>', 'dose given at time 0, the same for every subject')
    .option('--dose-col <col>', 'per-subject dose column')
    .option('--dose-unit <unit>', 'dose unit', 'mg')
    .option('--time-unit <unit>', 'time unit', 'h')
    .option('--conc-unit <unit>', 'concentration unit', 'mg/L')
    .option('--volume-unit <unit>', 'unit of volumes (clearances: per time unit) when dose/conc converts to a volume', 'L')
    .option('--route <route>', ROUTES.join(' | '), 'extravascular')
    .option('--duration <h>', 'infusion duration in time units (iv-infusion)')
    .option('--auc-method <method>', AUC_METHODS.join(' | '), 'linear')
    .option('--lambda-z <sel>', 'best-fit | FIRST:LAST (time range)', 'best-fit')
    .option('--format <fmt>', 'csv | json', 'csv')
    .option('--out <file>', 'write here instead of stdout')
    .action((file: string, options: NcaCliOptions) => run(file, options, setExit));
}
