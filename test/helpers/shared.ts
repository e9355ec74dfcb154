/**
 * Access to ../shared (the real PK-DB export and reference tables). Tests that
 * need it use `describeShared`, which skips with a printed reason when the
 * folder is absent (a user's fresh clone) and always runs in CI.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'vitest';

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const SHARED_DIR = process.env.PKDB_SHARED_DIR ?? resolve(PROJECT_ROOT, '..', 'shared');
export const SHARED_EXPORT = join(SHARED_DIR, 'data', 'pkdb-export-2020-10-16-shared.zip');
export const SHARED_NCA_DIR = join(SHARED_DIR, 'reference', 'nca');
export const SHARED_API_EXAMPLES = join(SHARED_DIR, 'reference', 'pkdb-api', 'examples');

export function sharedAvailable(path = SHARED_DIR): boolean {
  return existsSync(path);
}

/** `describe` that needs a path under ../shared; skipped with a printed reason when missing. */
export function describeShared(name: string, path: string, fn: () => void): void {
  if (sharedAvailable(path)) {
    describe(name, fn);
    return;
  }
  if (process.env.CI) throw new Error(`${path} is required in CI but missing`);
  const reason = `${path} not found (../shared is absent in this checkout)`;
  console.warn(`[skip] ${name}: ${reason}`);
  // The body is not run at all: suites may read their data while being collected.
  describe(name, () => {
    it.skip(`needs ${reason}`, () => undefined);
  });
}
