/**
 * The command line every notebook shares:
 *   npx tsx notebooks/NN-name.ts [--export FILE.zip | --base-url URL [--user U --password P]]
 *                                [--out DIR] [--study SID] [--substance NAME] [--include-special]
 * Without a source the bundled fixtures are used, so each notebook runs offline
 * as shipped. node:util's parseArgs is enough: notebooks take a handful of
 * flags and must fail with one clear line, not a stack trace.
 */
import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';

export interface NotebookArgs {
  export?: string;
  baseUrl?: string;
  user?: string;
  password?: string;
  /** Output directory (default notebooks/out/<notebook-name>). */
  out: string;
  /** Notebooks that look at one study (03) or one substance (05) read these. */
  study?: string;
  substance?: string;
  /** Notebook 02: analyse this long CSV table instead of the synthetic set. */
  csv?: string;
  /** Notebook 05: pool special populations and interaction arms with healthy subjects. */
  includeSpecial: boolean;
}

/** Raised for a bad command line; `runNotebook` prints its message alone and exits 2. */
export class NotebookUsageError extends Error {
  override name = 'NotebookUsageError';
}

export const NOTEBOOKS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const USAGE = `options:
  --export FILE.zip     a PK-DB export zip (default: the bundled fixtures)
  --base-url URL        a PK-DB API, e.g. http://127.0.0.1:8000/api/v1/ (with --user/--password if needed)
  --out DIR             where tables and figures go (default: notebooks/out/<notebook>)
  --study SID           the study to look at (notebooks 03, 06)
  --substance NAME      the substance to pool (notebook 05)
  --csv FILE            a long concentration-time table (notebook 02)
  --include-special     also pool ill subjects and interaction arms (notebook 05)`;

/** Parses `argv` (without node and script) for the notebook called `name`. */
export function notebookArgs(name: string, argv: readonly string[] = process.argv.slice(2)): NotebookArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        export: { type: 'string' },
        'base-url': { type: 'string' },
        user: { type: 'string' },
        password: { type: 'string' },
        out: { type: 'string' },
        study: { type: 'string' },
        substance: { type: 'string' },
        csv: { type: 'string' },
        'include-special': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new NotebookUsageError(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    process.stdout.write(`usage: npx tsx notebooks/${name}.ts [options]\n${USAGE}\n`);
    process.exit(0);
  }
  // Conflicting source flags are loadSource's to reject, with the same words as the pkdb commands.
  return {
    export: values.export,
    baseUrl: values['base-url'],
    user: values.user,
    password: values.password,
    out: resolve(values.out ?? join(NOTEBOOKS_DIR, 'out', name)),
    study: values.study,
    substance: values.substance,
    csv: values.csv,
    includeSpecial: values['include-special'] ?? false,
  };
}
