/**
 * The first cell of every notebook: read the command line, load the data,
 * open the output directory. A bad flag or an unreadable source ends the run
 * with one line on stderr and exit code 2, as the `pkdb` commands do.
 */
import type { Dataset } from '../../src/data/dataset.js';
import { notebookArgs, NotebookUsageError, type NotebookArgs } from './args.js';
import { NotebookOutput } from './output.js';
import { describeSource, loadNotebookDataset } from './source.js';

export interface OpenNotebook {
  args: NotebookArgs;
  dataset: Dataset;
  out: NotebookOutput;
  /** e.g. "the bundled synthetic fixtures (…)". */
  sourceText: string;
}

/** Runs a setup step; a NotebookUsageError exits 2 with its message, anything else is a bug and propagates. */
export async function orExit<T>(step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof NotebookUsageError)) throw error;
    console.error(`error: ${error.message}`);
    process.exit(2);
  }
}

export async function openNotebook(name: string): Promise<OpenNotebook> {
  const args = await orExit(() => notebookArgs(name));
  const dataset = await orExit(() => loadNotebookDataset(args));
  return { args, dataset, out: new NotebookOutput(args.out), sourceText: describeSource(dataset) };
}
