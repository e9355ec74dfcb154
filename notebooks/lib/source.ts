/**
 * The dataset a notebook works on, through the CLI's own `loadSource`: an
 * export zip (--export), a PK-DB API crawl (--base-url), or the bundled
 * fixtures. A notebook and `pkdb qa` given the same flags see the same data.
 */
import { loadSource } from '../../src/cli/source.js';
import { UsageError } from '../../src/cli/errors.js';
import type { Dataset } from '../../src/data/dataset.js';
import { NotebookUsageError, type NotebookArgs } from './args.js';

/** Loads the notebook's source; an unreadable one is a NotebookUsageError with loadSource's one-line reason. */
export async function loadNotebookDataset(args: NotebookArgs): Promise<Dataset> {
  try {
    return await loadSource({
      export: args.export,
      baseUrl: args.baseUrl,
      user: args.user,
      password: args.password,
      // Only a crawl gains from narrowing to one study; local sources stay whole so notebooks can compare studies.
      study: args.baseUrl && args.study ? [args.study] : undefined,
    });
  } catch (error) {
    if (error instanceof UsageError) throw new NotebookUsageError(error.message);
    throw error;
  }
}

/** One line saying where the data came from, for the narrative. */
export function describeSource(dataset: Dataset): string {
  const { kind, location } = dataset.source;
  return kind === 'fixtures' ? `the bundled synthetic fixtures (${location})` : kind === 'export' ? `the export ${location}` : `the API at ${location}`;
}
