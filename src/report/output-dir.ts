/**
 * Writing a report folder safely: everything goes into a temporary sibling
 * folder (same file system, so the final move is a rename), which replaces
 * the target only when complete. An interrupted or failed run removes its
 * temporary folder and leaves the previous report as it was.
 *
 * The target must be absent, empty, or a previous report (holding only the
 * names a report writes); anything else is refused unless `force`. A previous
 * report is replaced whole, so no stale plot survives; with `force`, only the
 * report's own names in a foreign folder are replaced and the other files
 * stay — a mistyped --out never deletes a user's files.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** Every top-level name a QA report writes (report.html: the single page of earlier versions). */
export const REPORT_ENTRIES: ReadonlySet<string> = new Set([
  'findings.json',
  'findings.csv',
  'summary.json',
  'calculated.csv',
  'plots',
  'report',
  'report.html',
]);

export class OutputDirError extends Error {
  override name = 'OutputDirError';
}

export type TargetState = 'absent' | 'empty' | 'report' | 'foreign';

/** What is at `dir` now; a file (not a folder) is an error. */
export function targetState(dir: string): TargetState {
  if (!existsSync(dir)) return 'absent';
  if (!statSync(dir).isDirectory()) throw new OutputDirError(`${dir} is a file, not a folder`);
  const entries = readdirSync(dir);
  if (entries.length === 0) return 'empty';
  return entries.every((e) => REPORT_ENTRIES.has(e)) ? 'report' : 'foreign';
}

/** Refuses a folder that holds other files than a report's, unless forced. */
export function checkTarget(dir: string, force: boolean): TargetState {
  const state = targetState(dir);
  if (state === 'foreign' && !force) {
    const other = readdirSync(dir).filter((e) => !REPORT_ENTRIES.has(e));
    throw new OutputDirError(
      `${dir} is not empty and not a previous report (it holds ${other.slice(0, 3).join(', ')}${other.length > 3 ? ', …' : ''}); choose another --out or give --force (only the report's own files are replaced)`,
    );
  }
  return state;
}

const TMP_TAG = '.pkdb-qa-tmp-';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A fresh temporary folder beside `dir`. Leftovers of runs that were killed
 * outright (SIGKILL, power loss) are recognised by name and a dead process id,
 * and removed.
 */
export function makeTempSibling(dir: string): string {
  const parent = dirname(resolve(dir));
  mkdirSync(parent, { recursive: true });
  const prefix = `.${basename(resolve(dir))}${TMP_TAG}`;
  for (const name of readdirSync(parent)) {
    const m = name.startsWith(prefix) ? /^(\d+)(-old)?$/.exec(name.slice(prefix.length)) : null;
    if (m && Number(m[1]) !== process.pid && !alive(Number(m[1]))) rmSync(join(parent, name), { recursive: true, force: true });
  }
  const tmp = join(parent, `${prefix}${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp);
  return tmp;
}

/** Moves the complete report in `tmp` to `dir` (see the header); `tmp` is gone afterwards. */
export function commitTemp(tmp: string, dir: string, force: boolean): void {
  const state = checkTarget(dir, force);
  if (state === 'absent') {
    renameSync(tmp, dir);
    return;
  }
  if (state === 'empty' || state === 'report') {
    // Two renames: the old report is set aside, the new one moved in, then the old one deleted.
    const old = `${tmp}-old`;
    rmSync(old, { recursive: true, force: true });
    renameSync(dir, old);
    try {
      renameSync(tmp, dir);
    } catch (error) {
      renameSync(old, dir);
      throw error;
    }
    rmSync(old, { recursive: true, force: true });
    return;
  }
  // A forced foreign folder: replace the report's names one by one, keep everything else.
  const old = `${tmp}-old`;
  mkdirSync(old, { recursive: true });
  for (const name of readdirSync(dir)) if (REPORT_ENTRIES.has(name)) renameSync(join(dir, name), join(old, name));
  for (const name of readdirSync(tmp)) renameSync(join(tmp, name), join(dir, name));
  rmSync(old, { recursive: true, force: true });
  rmSync(tmp, { recursive: true, force: true });
}

/** Removes a temporary folder (after an interruption or a failure). */
export function discardTemp(tmp: string): void {
  rmSync(tmp, { recursive: true, force: true });
}
