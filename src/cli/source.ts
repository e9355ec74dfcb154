/**
 * The data source of a CLI command: `--export FILE.zip`, `--base-url URL`
 * (with optional `--user`/`--password` or `--token`, credentials.ts), or the bundled fixtures when neither
 * is given; `--study SID|NAME...` keeps only those studies (or, for `pkdb qa`, names them: loadSourceAndStudies). Any failure to load is
 * a UsageError with a one-line reason (exit code 2).
 */
import { Dataset } from '../data/dataset.js';
import { filterStudies, resolveStudies } from '../data/select.js';
import { clientCredentials, type ClientCredentials, type CredentialOptions } from './credentials.js';
import { UsageError } from './errors.js';

export interface SourceOptions extends CredentialOptions {
  export?: string;
  baseUrl?: string;
  study?: string[];
  /**
   * A `--study` value that names no study of the source: a usage error (default), or reported in `unknown` for a
   * caller that looks in two sources (`pkdb diff`: a study added or removed between releases).
   */
  unknownStudies?: 'error' | 'report';
}

export async function loadSource(opts: SourceOptions): Promise<Dataset> {
  const { dataset, studies } = await loadSourceAndStudies(opts);
  return studies ? Dataset.fromTables(filterStudies(dataset.tables, studies), dataset.source) : dataset;
}

/**
 * The whole source and the sids `--study` names (undefined without --study), for a command that sets those
 * studies against all the others (`pkdb qa`). A server is crawled for the named studies only: its other studies
 * are not fetched, so there the dataset holds those alone.
 */
export async function loadSourceAndStudies(opts: SourceOptions): Promise<{ dataset: Dataset; studies?: string[]; unknown?: string[] }> {
  if (opts.export && opts.baseUrl) throw new UsageError('give either --export or --base-url, not both');
  const credentials = clientCredentials(opts, opts.baseUrl !== undefined);
  const dataset = opts.export ? await fromExport(opts.export) : opts.baseUrl ? await fromApi(opts, credentials) : await fromFixtures();
  if (!opts.study?.length) return { dataset };
  // --study takes sids and names (`Volak2013`).
  const { sids, unknown } = resolveStudies(dataset.tables.studies, opts.study);
  if (unknown.length > 0 && opts.unknownStudies !== 'report') throw new UsageError(`unknown study ${unknown.join(', ')} in ${dataset.source.location}`);
  return { dataset, studies: sids, unknown };
}

/**
 * `--reference FILE.zip`: a release to check the source's studies against (data/join-reference.ts). The joined
 * dataset, and the sids to report: those of `--study`, else every study of the source (none of the reference's).
 */
export async function withReference(source: { dataset: Dataset; studies?: string[] }, referencePath: string): Promise<{ dataset: Dataset; studies: string[] }> {
  const [reference, { joinReference }] = await Promise.all([fromExport(referencePath, '--reference'), import('../data/join-reference.js')]);
  const { tables } = joinReference(source.dataset.tables, reference.tables);
  return { dataset: Dataset.fromTables(tables, source.dataset.source), studies: source.studies ?? source.dataset.tables.studies.map((s) => s.sid) };
}

/** Skipped malformed rows are not silent: their number and the first one go to stderr. */
async function fromExport(path: string, option = '--export'): Promise<Dataset> {
  const { formatProblem } = await import('../data/export/read.js');
  let loaded: Awaited<ReturnType<typeof Dataset.fromExport>>;
  try {
    loaded = await Dataset.fromExport(path);
  } catch (error) {
    throw new UsageError(option === '--export' ? (error as Error).message : `${option}: ${(error as Error).message}`);
  }
  const [first] = loaded.problems;
  if (first) {
    const n = loaded.problemCount;
    process.stderr.write(`pkdb: warning: ${path}: skipped ${n} malformed row${n === 1 ? '' : 's'}, first ${formatProblem(first)}\n`);
  }
  return loaded.dataset;
}

async function fromApi(opts: SourceOptions, credentials: ClientCredentials): Promise<Dataset> {
  const baseUrl = opts.baseUrl!;
  const [{ PkdbClient }, { crawlDataset }] = await Promise.all([import('../api/client.js'), import('../data/from-api.js')]);
  let client: InstanceType<typeof PkdbClient>;
  try {
    client = new PkdbClient({ baseUrl, ...credentials });
  } catch (error) {
    // The client's message never holds the URL's password; the URL as given would.
    throw new UsageError(`--base-url: ${(error as Error).message}`);
  }
  const bar = await crawlProgress();
  try {
    // Names are resolved to sids on the server's study list first: the crawl filters by sid.
    const wanted = opts.study?.length ? resolveStudies(await client.list('studies', { pageSize: 1000 }), opts.study) : undefined;
    // client.baseUrl: the URL without its user info.
    if (wanted?.unknown.length && opts.unknownStudies !== 'report') throw new UsageError(`unknown study ${wanted.unknown.join(', ')} in ${client.baseUrl}`);
    return await crawlDataset(client, { studies: wanted?.sids, onProgress: bar.update });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`cannot load ${client.baseUrl}: ${firstLine((error as Error).message)}`);
  } finally {
    bar.stop();
    await client.close();
  }
}

async function fromFixtures(): Promise<Dataset> {
  const { loadFixtures } = await import('../data/fixtures.js');
  try {
    return await loadFixtures();
  } catch (error) {
    throw new UsageError(`cannot load the bundled fixtures: ${firstLine((error as Error).message)}`);
  }
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0];
}

/** A crawl progress bar on a terminal; nothing when stderr is redirected. */
async function crawlProgress(): Promise<{ update: (done: number, total: number, resource: string) => void; stop: () => void }> {
  if (!process.stderr.isTTY) return { update: () => {}, stop: () => {} };
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar({ format: 'crawl {resource} {bar} {value}/{total} pages', stream: process.stderr, clearOnComplete: true }, Presets.shades_classic);
  let current = '';
  return {
    update(done, total, resource) {
      if (resource !== current) {
        if (current !== '') bar.stop();
        bar.start(total, done, { resource });
        current = resource;
      } else {
        bar.setTotal(total);
        bar.update(done, { resource });
      }
    },
    stop: () => {
      if (current !== '') bar.stop();
    },
  };
}
