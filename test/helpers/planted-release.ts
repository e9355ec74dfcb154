/**
 * Two releases of the fixtures' export for the diff tests, with planted
 * changes: the ×1000 slip of output 139 (SYN0002 cmax) fixed, study SYN0003
 * copied as SYN0099 (added), SYN0004's reported thalf (output 312) removed, and
 * every pk of SYN0005 renumbered (a re-upload: nothing else changes).
 */
import { Dataset } from '../../src/data/dataset.js';
import { readExport } from '../../src/data/export/read.js';
import { writeExport } from '../../src/data/export/write.js';
import { FIXTURES_EXPORT } from '../../src/data/fixtures.js';
import { cloneTables, copyStudy, renumberStudy } from './releases.js';

export const SLIP_OUTPUT = 139;
export const REMOVED_OUTPUT = 312;
export const RENUMBER_OFFSET = 70_000;

export interface PlantedReleases {
  oldZip: Uint8Array;
  newZip: Uint8Array;
  oldDs: Dataset;
  newDs: Dataset;
}

export async function plantedReleases(): Promise<PlantedReleases> {
  const { tables } = await readExport(FIXTURES_EXPORT);
  const next = cloneTables(tables);
  const slip = next.outputs.find((o) => o.pk === SLIP_OUTPUT)!;
  slip.value = (slip.value as number) * 1000;
  copyStudy(next, 'SYN0003', 'SYN0099', 'Copy2021', 100_000);
  next.outputs = next.outputs.filter((o) => o.pk !== REMOVED_OUTPUT);
  renumberStudy(next, 'SYN0005', RENUMBER_OFFSET);
  const oldZip = writeExport(tables);
  const newZip = writeExport(next);
  const read = async (zip: Uint8Array, location: string) => Dataset.fromTables((await readExport(zip)).tables, { kind: 'export', location });
  return { oldZip, newZip, oldDs: await read(oldZip, 'old.zip'), newDs: await read(newZip, 'new.zip') };
}
