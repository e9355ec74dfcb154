/**
 * `pkdb nca FILE.csv`: the standard NCA profile per subject of a long table
 * (one row per sample). CSV output: `subject,` then the route's PPTESTCD codes
 * with their units (`CMAX [mg/L]`; unitless ratios bare),
 * one row per subject, empty where a parameter is missing. JSON: per subject
 * every code as {value, unit}, the λz points and the notes on missing values.
 * Volumes and clearances come in --volume-unit (default L, per time unit for
 * clearances) when dose/conc converts to a volume (see src/nca/units.ts).
 * The input is read strictly (../profile-table.ts): exit 2, naming line and
 * column, for input that is not clean CSV with decimal numbers. Negative
 * concentrations are used as given and noted (stderr; `inputNotes` in JSON).
 * Exit 1 when a subject could not be analysed (its row stays empty).
 */
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { UsageError } from '../errors.js';
import { negativeNotes, readProfile } from '../profile-table.js';
import { AUC_METHODS, ROUTES, type AucMethod, type Route } from '../../nca/codes.js';
import { codesForRoute } from '../../nca/parameters.js';
import type { GroupResult } from '../../nca/group.js';
import type { IntervalResult } from '../../nca/intervals.js';
import { parseDoseTimes, parseIntervalOption, readIntervalTable } from '../interval-table.js';
import type { LambdaZSelection } from '../../nca/select-lambda-z.js';
import { BLQ_PRESETS, BLQ_RULES, type BlqPreset, type BlqRule, type BlqRules } from '../../nca/blq.js';

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
  lloq?: string;
  lloqCol?: string;
  blq: string;
  interval: string[];
  intervals?: string;
  doseTimes: string;
  tau?: string;
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

/** `pknca` | `missing` | `zero`, or FIRST,MIDDLE,LAST rules (drop, zero, lloq/2, lloq, keep). */
export function parseBlq(text: string): BlqRules | BlqPreset {
  if (text in BLQ_PRESETS) return text as BlqPreset;
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length !== 3 || !parts.every((p) => (BLQ_RULES as readonly string[]).includes(p))) {
    throw new UsageError(`--blq must be ${Object.keys(BLQ_PRESETS).join(' | ')} or FIRST,MIDDLE,LAST each one of ${BLQ_RULES.join(', ')}, got "${text}"`);
  }
  const [first, middle, last] = parts as BlqRule[];
  return { first, middle, last };
}

function csvCell(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** `CODE [unit]` (the code alone for unitless ratios), so that a CSV row carries its units. */
export function headerCell(code: string, unit: string | undefined): string {
  return csvCell(unit ? `${code} [${unit}]` : code);
}

/** Interval mode: one row per subject and interval, `subject,start,end,dose_time`, then the route's interval codes with units. */
export function formatIntervalCsv(
  results: readonly ({ subject: string; result: { intervals: IntervalResult[] } | null; error: string | null })[],
  route: Route,
  units: Readonly<Record<string, string>>,
): string {
  const codes = codesForRoute(route, 'interval');
  const lines = [['subject', 'start', 'end', 'dose_time', ...codes.map((c) => headerCell(c, units[c]))].join(',')];
  for (const { subject, result } of results) {
    for (const iv of result?.intervals ?? []) {
      const cells = codes.map((code) => {
        const value = iv.parameters[code]?.value;
        return value === null || value === undefined ? '' : String(value);
      });
      lines.push([csvCell(subject), iv.start, iv.end, iv.doseTime ?? '', ...cells].join(','));
    }
  }
  return `${lines.join('\n')}\n`;
}

export function formatCsv(results: GroupResult[], route: Route, units: Readonly<Record<string, string>> = {}): string {
  const codes = codesForRoute(route);
  const lines = [['subject', ...codes.map((c) => headerCell(c, units[c]))].join(',')];
  for (const { subject, result } of results) {
    const cells = codes.map((code) => {
      const value = result?.parameters[code]?.value;
      return value === null || value === undefined ? '' : String(value);
    });
    lines.push([csvCell(subject), ...cells].join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** `inputNotes`: per subject, notes on the input rows (negative concentrations), listed with the subject. */
export function formatJson(results: GroupResult[], inputNotes: ReadonlyMap<string, string> = new Map()): string {
  const subjects = results.map(({ subject, result, error }) => {
    const notes = inputNotes.has(subject) ? { inputNotes: [inputNotes.get(subject)!] } : {};
    return result
      ? { subject, parameters: result.parameters, lambdaZ: result.lambdaZ, notes: result.notes, excluded: result.excluded, ...notes }
      : { subject, error, ...notes };
  });
  return `${JSON.stringify(subjects, null, 2)}\n`;
}

/** A bad unit option is a usage error once, not a failure of every subject (`--dose-unit mgg` is refused). */
async function checkUnitOptions(options: NcaCliOptions): Promise<void> {
  const { checkInputUnit, checkVolumeUnit } = await import('../../nca/units.js');
  const { NcaInputError } = await import('../../nca/clean.js');
  const checks: [string, () => void][] = [
    ['--dose-unit', () => checkInputUnit('dose', options.doseUnit)],
    ['--time-unit', () => checkInputUnit('time', options.timeUnit)],
    ['--conc-unit', () => checkInputUnit('conc', options.concUnit)],
    ['--volume-unit', () => checkVolumeUnit(options.volumeUnit)],
  ];
  for (const [option, check] of checks) {
    try {
      check();
    } catch (e) {
      if (e instanceof NcaInputError) throw new UsageError(`${option}: ${e.message}`);
      throw e;
    }
  }
}

async function run(file: string, options: NcaCliOptions, setExit: (code: number) => void): Promise<void> {
  const route = oneOf('--route', options.route, ROUTES);
  const aucMethod = oneOf<AucMethod>('--auc-method', options.aucMethod, AUC_METHODS);
  const format = oneOf('--format', options.format, ['csv', 'json'] as const);
  const lambdaZ = parseLambdaZ(options.lambdaZ);
  const blq = parseBlq(options.blq);
  if (options.lloq !== undefined && options.lloqCol !== undefined) throw new UsageError('give either --lloq or --lloq-col, not both');
  const lloq = positiveNumber('--lloq', options.lloq);
  if (options.dose !== undefined && options.doseCol !== undefined) throw new UsageError('give either --dose or --dose-col, not both');
  const dose = positiveNumber('--dose', options.dose);
  const duration = positiveNumber('--duration', options.duration);
  if (route === 'iv-infusion' && duration === undefined) throw new UsageError('--route iv-infusion needs --duration');
  await checkUnitOptions(options);

  const columns = { subject: options.subject, time: options.time, conc: options.conc, dose: options.doseCol, lloq: options.lloqCol };
  const numeric = [columns.time, columns.conc, ...(columns.dose ? [columns.dose] : []), ...(columns.lloq ? [columns.lloq] : [])];
  const table = await readProfile(file, { subject: columns.subject, numeric, blq: [columns.conc] });
  const rows = table.rows;
  const { bySubject } = await import('../../nca/group.js');
  const { nca } = await import('../../nca/nca.js');
  const profileInput = {
    dose,
    doseUnit: options.doseUnit,
    timeUnit: options.timeUnit,
    concUnit: options.concUnit,
    volumeUnit: options.volumeUnit,
    route,
    duration,
    ...(lloq !== undefined ? { lloq } : {}),
  };
  const notes = negativeNotes(table, columns.subject, columns.conc);
  const finish = async (text: string, outcome: readonly { error: string | null }[], inputNotes: ReadonlyMap<string, string>) => {
    if (options.out) await writeFile(options.out, text);
    else process.stdout.write(text);
    for (const [subject, note] of inputNotes) process.stderr.write(`pkdb nca: note: ${file}: subject ${subject}: ${note}\n`);
    const failed = outcome.filter((r) => r.error !== null);
    for (const r of failed) process.stderr.write(`pkdb nca: ${r.error}\n`);
    setExit(failed.length > 0 ? 1 : 0);
  };
  const { parameterUnits } = await import('../../nca/units.js');
  const { units } = parameterUnits({ time: options.timeUnit, conc: options.concUnit, dose: options.doseUnit, volume: options.volumeUnit });
  const specs = [...options.interval.map(parseIntervalOption), ...(options.intervals ? await readIntervalTable(options.intervals) : [])];
  if (specs.length > 0) {
    const { ncaIntervals } = await import('../../nca/intervals.js');
    const doses = parseDoseTimes(options.doseTimes).map((time) => ({ time }));
    const tau = positiveNumber('--tau', options.tau);
    const byInterval = bySubject(rows, columns, profileInput, (input) => ncaIntervals(input, { doses, intervals: specs, aucMethod, lambdaZ, ...(tau ? { tau } : {}) }));
    const text = format === 'csv' ? formatIntervalCsv(byInterval, route, units) : `${JSON.stringify(byInterval, null, 2)}\n`;
    await finish(text, byInterval, notes);
    return;
  }
  const results: GroupResult[] = bySubject(rows, columns, profileInput, (input) => nca(input, { aucMethod, lambdaZ, blq }));
  const text = format === 'csv' ? formatCsv(results, route, units) : formatJson(results, notes);
  await finish(text, results, notes);
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
    .option('--lloq <n>', 'limit of quantification: values below it are BLQ')
    .option('--lloq-col <col>', 'per-row LLOQ column')
    .option('--blq <rules>', 'BLQ cells (BLQ, <0.1) by position: pknca (first keep as 0, middle drop, last keep as 0) | missing | zero | FIRST,MIDDLE,LAST of drop, zero, lloq/2, lloq, keep', 'pknca')
    .option('--interval <start:end>', 'an interval (repeatable): one row per subject and interval with AUCINT, CMIN, CAVG, …', (v: string, all: string[]) => [...all, v], [])
    .option('--intervals <file>', 'CSV of intervals: start,end[,parameters]')
    .option('--dose-times <list>', 'comma-separated dose times for intervals', '0')
    .option('--tau <n>', 'dosing interval τ for the last dose')
    .option('--format <fmt>', 'csv | json', 'csv')
    .option('--out <file>', 'write here instead of stdout')
    .action((file: string, options: NcaCliOptions) => run(file, options, setExit));
}
