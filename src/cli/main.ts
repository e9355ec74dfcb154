/**
 * The `pkdb` command line. This file only wires sub-commands; each lives in
 * `src/cli/commands/<name>.ts`, exports `register(program, setExit)` and is
 * listed in COMMANDS. Heavy work belongs in the action's own dynamic imports, so
 * that `pkdb nca` does not pay for loading the server.
 */
import { Command, CommanderError } from 'commander';
import { pathToFileURL } from 'node:url';
import { oneShotProcess } from './batch-tuning.js';
import { UsageError, exitCodeFor, reportError, secretsInArgs } from './errors.js';

type CommandModule = { register(program: Command, setExit: (code: number) => void): void };

/** Sub-commands, in the order `--help` lists them; each entry loads its module. */
const COMMANDS: Record<string, () => Promise<CommandModule>> = {
  serve: () => import('./commands/serve.js'),
  pull: () => import('./commands/pull.js'),
  summary: () => import('./commands/summary.js'),
  nca: () => import('./commands/nca.js'),
  qa: () => import('./commands/qa.js'),
  diff: () => import('./commands/diff.js'),
};

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
  for (const load of Object.values(COMMANDS)) {
    (await load()).register(program, (code) => {
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
    reportError(error, secretsInArgs(argv));
    return exitCodeFor(error);
  }
}

export { UsageError, oneShotProcess };

/**
 * A reader that stops early (`pkdb qa --json | head`) closes the pipe: what is left to print is dropped, and the
 * command still finishes its files and ends with its own exit code, not a stack trace from an unhandled EPIPE.
 */
export function ignoreClosedPipes(stream: NodeJS.WriteStream): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  oneShotProcess();
  ignoreClosedPipes(process.stdout);
  ignoreClosedPipes(process.stderr);
  process.exitCode = await main(process.argv.slice(2));
}
