/**
 * A PK-DB filter download read into dataset tables: the client fetches the
 * zip's bytes (`PkdbClient.filterDownload`, bounded by its `maxResponseBytes`),
 * the export reader types them. The reading lives here, in the data layer, so
 * that the client (the source layer) does not import the layer above it.
 */
import type { FilterDownload } from '../../api/client.js';
import type { FilterQuery } from '../../api/filter.js';
import { readExport, type ExportReadResult, type ReadExportOptions } from './read.js';

/** The part of a client this needs (a `PkdbClient`, or a stand-in in tests). */
export interface FilterDownloader {
  filterDownload(query?: FilterQuery): Promise<FilterDownload>;
}

/**
 * GET /filter/?download=true, read by the export reader: the result's tables
 * and the rows it had to skip, each problem naming the request, file, line and column.
 */
export async function downloadExport(
  client: FilterDownloader,
  query: FilterQuery = {},
  options: Omit<ReadExportOptions, 'name'> = {},
): Promise<ExportReadResult> {
  const { bytes, source } = await client.filterDownload(query);
  return readExport(bytes, { ...options, name: source });
}
