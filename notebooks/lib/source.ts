/**
 * The dataset a notebook works on: an export zip (--export), a PK-DB API
 * crawl (--base-url), or the bundled fixtures. Same three sources as the
 * `pkdb` commands, so a notebook and `pkdb qa` on the same flags see the same data.
 */
import { PkdbClient } from '../../src/api/client.js';
import { Dataset } from '../../src/data/dataset.js';
import { readExport } from '../../src/data/export/read.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import { crawlDataset } from '../../src/data/from-api.js';
import { NotebookUsageError, type NotebookArgs } from './args.js';

/** Loads the notebook's source; an unreadable one is a NotebookUsageError naming it. */
export async function loadNotebookDataset(args: NotebookArgs): Promise<Dataset> {
  if (args.export) {
    try {
      const { tables, problems } = await readExport(args.export);
      if (problems.length > 0) console.warn(`${args.export}: ${problems.length} malformed rows skipped`);
      return Dataset.fromTables(tables, { kind: 'export', location: args.export });
    } catch (error) {
      throw new NotebookUsageError((error as Error).message);
    }
  }
  if (args.baseUrl) {
    let client: PkdbClient;
    try {
      client = new PkdbClient({ baseUrl: args.baseUrl, username: args.user, password: args.password });
    } catch (error) {
      throw new NotebookUsageError(`--base-url: ${(error as Error).message}`);
    }
    try {
      // One study is all notebook 03 needs; crawling only it keeps a run against pk-db.com short.
      return await crawlDataset(client, args.study ? { studies: [args.study] } : {});
    } catch (error) {
      throw new NotebookUsageError(`crawling ${client.baseUrl} failed: ${(error as Error).message}`);
    } finally {
      await client.close();
    }
  }
  return loadFixtures();
}

/** One line saying where the data came from, for the narrative. */
export function describeSource(dataset: Dataset): string {
  const { kind, location } = dataset.source;
  return kind === 'fixtures' ? `the bundled synthetic fixtures (${location})` : kind === 'export' ? `the export ${location}` : `the API at ${location}`;
}
