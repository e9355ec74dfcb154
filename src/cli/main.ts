/**
 * The `pkdb` command line. This file only wires sub-commands; each lives in
 * `src/cli/commands/<name>.ts` and exports `register(program)`. Commands are
 * imported lazily so that `pkdb nca` does not pay for loading the server.
 */
import { Command, CommanderError } from 'commander';
import { pathToFileURL } from 'node:url';
import { UsageError, exitCodeFor, reportError } from './errors.js';

/** Sub-commands, in the order `--help` lists them. */
const COMMANDS = ['summary', 'qa', 'nca', 'serve', 'pull'] as const;

export type CommandName = (typeof COMMANDS)[number];

export function buildProgram(): Command {
  const program = new Command('pkdb');
  program
    .description('PK-DB toolkit: data access, local server, units, NCA and QA reports')
    .version('0.1.0')
    .showHelpAfterError()
    .exitOverride();
  return program;
}

/** Runs the CLI and resolves to the process exit code (0 ok, 1 findings, 2 usage or source error). */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  let exitCode = 0;
  for (const name of COMMANDS) {
    const mod = (await import(`./commands/${name}.js`).catch((error: unknown) => {
      if (isMissingModule(error)) return undefined;
      throw error;
    })) as { register(program: Command, setExit: (code: number) => void): void } | undefined;
    mod?.register(program, (code) => {
      exitCode = code;
    });
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end through here with exit code 0.
      return error.exitCode === 0 ? 0 : 2;
    }
    reportError(error);
    return exitCodeFor(error);
  }
}

function isMissingModule(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === 'ERR_MODULE_NOT_FOUND' && String((error as Error).message).includes('/commands/');
}

export { UsageError };

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
