/** Errors the CLI turns into exit codes and one-line messages (never a stack trace, never a password). */
import { redactUrlText } from '../api/auth.js';

/** Wrong arguments or an unreadable source: exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export function exitCodeFor(error: unknown): number {
  void error;
  return 2;
}

/** Options whose value is a secret. */
const SECRET_OPTIONS = ['--password', '--token'];

/**
 * The secrets on a command line: values of `--password`/`--token` (`--password x`
 * or `--password=x`) and the password of any URL with user info, raw and
 * percent-decoded. Messages are scrubbed of them as a last line of defence
 * (the client already keeps credentials out of its errors).
 */
export function secretsInArgs(argv: readonly string[]): string[] {
  const secrets = new Set<string>();
  argv.forEach((arg, index) => {
    for (const option of SECRET_OPTIONS) {
      if (arg === option && index + 1 < argv.length) secrets.add(argv[index + 1]);
      if (arg.startsWith(`${option}=`)) secrets.add(arg.slice(option.length + 1));
    }
    const userInfo = /^[a-z][a-z0-9+.-]*:\/\/([^/?#\s]*)@/i.exec(arg)?.[1];
    const password = userInfo?.includes(':') ? userInfo.slice(userInfo.indexOf(':') + 1) : undefined;
    if (password) {
      secrets.add(password);
      try {
        secrets.add(decodeURIComponent(password));
      } catch {
        // A malformed escape: the raw form is enough.
      }
    }
  });
  secrets.delete('');
  return [...secrets].sort((a, b) => b.length - a.length);
}

/** `text` with URL user info removed and every secret replaced by `***`. */
export function redactMessage(text: string, secrets: readonly string[] = []): string {
  let out = redactUrlText(text);
  for (const secret of secrets) out = out.split(secret).join('***');
  return out;
}

export function reportError(error: unknown, secrets: readonly string[] = []): void {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`pkdb: ${redactMessage(message, secrets)}\n`);
  if (process.env.PKDB_DEBUG && error instanceof Error && error.stack) process.stderr.write(`${redactMessage(error.stack, secrets)}\n`);
}
