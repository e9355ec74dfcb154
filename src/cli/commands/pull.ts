/**
 * `pkdb pull`: crawls a PK-DB API v1 server (the real one or `pkdb serve`)
 * with the client and writes the data as an export zip in the real format.
 * With `--cache`, every fetched page is kept on disk, so an interrupted pull
 * resumes without fetching finished pages again.
 */
import type { Command } from 'commander';
import { clientCredentials, credentialOptions, type CredentialOptions } from '../credentials.js';
import { UsageError } from '../errors.js';

interface PullCliOptions extends CredentialOptions {
  baseUrl: string;
  out: string;
  cache?: string;
  concurrency: string;
  json?: boolean;
}

function concurrencyOf(text: string): number {
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > 64) throw new UsageError(`--concurrency must be an integer from 1 to 64, got "${text}"`);
  return n;
}

/** A pages-done/total bar per list on a TTY; silent otherwise. */
async function progress(enabled: boolean) {
  if (!enabled) return { update: (_done: number, _total: number, _resource: string) => {}, stop: () => {} };
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar({ format: 'pull {resource} {bar} {value}/{total} pages', stream: process.stderr }, Presets.shades_classic);
  let current: string | null = null;
  return {
    update(done: number, total: number, resource: string) {
      if (resource !== current) {
        if (current !== null) bar.stop();
        bar.start(total, 0, { resource });
        current = resource;
      }
      bar.setTotal(total);
      bar.update(done, { resource });
    },
    stop: () => current !== null && bar.stop(),
  };
}

async function pull(options: PullCliOptions): Promise<Record<string, number | string>> {
  const credentials = clientCredentials(options, true);
  const concurrency = concurrencyOf(options.concurrency);
  const { PkdbClient } = await import('../../api/client.js');
  const { crawlDataset } = await import('../../data/from-api.js');
  const { writeExport } = await import('../../data/export/write.js');
  const { writeFile } = await import('node:fs/promises');
  let client;
  try {
    client = new PkdbClient({ baseUrl: options.baseUrl, ...credentials, concurrency, cacheDir: options.cache });
  } catch (error) {
    throw new UsageError(`--base-url: ${error instanceof Error ? error.message : String(error)}`);
  }
  const bar = await progress(process.stderr.isTTY === true);
  try {
    const dataset = await crawlDataset(client, { onProgress: (done, total, resource) => bar.update(done, total, resource) });
    bar.stop();
    await writeFile(options.out, writeExport(dataset.tables));
    const t = dataset.tables;
    return {
      out: options.out,
      studies: t.studies.length,
      groups: t.groups.length,
      individuals: t.individuals.length,
      interventions: t.interventions.filter((i) => i.normed).length,
      outputs: t.outputs.filter((o) => o.normed).length,
      timecourses: t.timecourses.length,
      scatters: t.scatters.length,
    };
  } catch (error) {
    bar.stop();
    throw new UsageError(`pull from ${client.baseUrl} failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await client.close();
  }
}

export function register(program: Command, setExit: (code: number) => void): void {
  credentialOptions(program.command('pull'), '--base-url')
    .description('crawl a PK-DB API (the real one or pkdb serve) into an export zip')
    .requiredOption('--base-url <url>', 'API base URL, e.g. http://127.0.0.1:8000/api/v1/')
    .option('--out <file>', 'the export zip to write', 'pkdb-export.zip')
    .option('--cache <dir>', 'keep fetched pages here; a rerun resumes from them')
    .option('--concurrency <n>', 'pages fetched at once', '4')
    .option('--json', 'print the written counts as JSON')
    .action(async (options: PullCliOptions) => {
      const summary = await pull(options);
      if (options.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
      else process.stdout.write(`wrote ${summary.out}: ${summary.studies} studies, ${summary.outputs} outputs, ${summary.timecourses} timecourses\n`);
      setExit(0);
    });
}
