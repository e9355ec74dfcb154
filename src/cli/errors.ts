/** Errors the CLI turns into exit codes and one-line messages (never a stack trace). */

/** Wrong arguments or an unreadable source: exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function exitCodeFor(error: unknown): number {
  void error;
  return 2;
}

export function reportError(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`pkdb: ${message}\n`);
  if (process.env.PKDB_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
}
