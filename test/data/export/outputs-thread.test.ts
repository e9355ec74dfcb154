import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { ExportError, ProblemLog } from '../../../src/data/export/cells.js';
import { readOutputs, readOutputsInWorker, useWorker, WORKER_MIN_BYTES } from '../../../src/data/export/outputs-thread.js';
import { readExport, type ReadExportOptions } from '../../../src/data/export/read.js';
import { openZip } from '../../../src/data/export/zip.js';
import { PROJECT_ROOT } from '../../helpers/shared.js';

const fixture = unzipSync(readFileSync(join(PROJECT_ROOT, 'fixtures', 'pkdb-fixtures.zip')));

/** JSON that tells -0 from 0 and keeps the infinities, in the objects' own key order. */
function exact(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'number' && (Object.is(v, -0) || !Number.isFinite(v)) ? `#${Object.is(v, -0) ? '-0' : v}` : v));
}

/** The result of a read, or the error it threw, as one comparable string. */
async function outcome(zip: Uint8Array, options: ReadExportOptions): Promise<string> {
  try {
    return exact(await readExport(zip, { name: 'z.zip', ...options }));
  } catch (error) {
    if (!(error instanceof ExportError)) throw error;
    return `ExportError ${error.message} ${exact(error.problem)}`;
  }
}

/** Edits of one outputs.csv line, each a defect the reader must report or a value it must read alike on both threads. */
const CELL_VALUES = ['', 'abc', 'nan', 'inf', '-0.0', '1e5', '6.0', '6.5', 'True', 'False', '"q"', 'x"y', '1.0000000000000002', '[1, 2]', 'µg'];
type Edit = { kind: 'cell'; column: number; value: string } | { kind: 'extra cell' | 'short' | 'repeat' | 'latin1' | 'open quote' };
const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('cell' as const), column: fc.nat(26), value: fc.constantFrom(...CELL_VALUES) }),
  fc.record({ kind: fc.constantFrom('extra cell' as const, 'short' as const, 'repeat' as const, 'latin1' as const, 'open quote' as const) }),
);

/** `lines` (a CSV, header first) with each edit applied to the data line its number picks. */
function edited(lines: string[], edits: [number, Edit][]): Uint8Array {
  const out: (string | Uint8Array)[] = [...lines];
  for (const [at, change] of edits) {
    const k = 1 + (at % (lines.length - 2));
    const cells = lines[k].split(',');
    if (change.kind === 'cell') cells[change.column % cells.length] = change.value;
    if (change.kind === 'extra cell') cells.push('x');
    if (change.kind === 'short') cells.pop();
    if (change.kind === 'open quote') cells[3] = `"${cells[3]}`;
    const line = cells.join(',');
    out[k] = change.kind === 'repeat' ? `${lines[k]}\n${line.replace(',True,', ',False,')}` : line;
    if (change.kind === 'latin1') out[k] = new Uint8Array([...strToU8(line.slice(0, 5)), 0xb5, ...strToU8(line.slice(5))]);
  }
  const parts = out.flatMap((part, i) => [typeof part === 'string' ? strToU8(part) : part, strToU8(i < out.length - 1 ? '\n' : '')]);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}

describe('useWorker', () => {
  it('reads on the calling thread unless a worker is asked for', () => {
    const large = WORKER_MIN_BYTES;
    expect([useWorker('always', 10), useWorker(true, 10), useWorker(true, large), useWorker(false, large)]).toEqual([true, false, true, false]);
    // 'auto' measured slower in a worker, cold or warm (outputs-thread.ts): every read of any size stays.
    expect([useWorker('auto', large - 1), useWorker('auto', large), useWorker('auto', large), useWorker('auto', 100 * large)]).toEqual([false, false, false, false]);
  });
});

describe('readOutputsInWorker', () => {
  it('reads the records and problems that the calling thread reads', async () => {
    const member = openZip(zipSync(fixture), 'f.zip').stored('outputs.csv');
    const log = new ProblemLog('f.zip', false);
    const here = readOutputs(member, log, 'f.zip');
    const there = await readOutputsInWorker(member, 'f.zip', 1000);
    expect(exact(there)).toBe(exact({ outputs: here, problems: log.problems, problemCount: log.count }));
    // One record per output pk (the fixtures' outputs.csv has no quoted commas: a plain split finds its column).
    const [header, ...rows] = strFromU8(fixture['outputs.csv']).trim().split('\n');
    const at = header.split(',').indexOf('output_pk');
    expect(there.outputs).toHaveLength(new Set(rows.map((row) => row.split(',')[at])).size);
  });

  it('throws the ExportError of a member it cannot read, as the calling thread does', async () => {
    const text = strFromU8(fixture['outputs.csv']).replace(',tissue,', ',tissue_x,');
    const member = openZip(zipSync({ ...fixture, 'outputs.csv': strToU8(text) }), 'f.zip').stored('outputs.csv');
    await expect(readOutputsInWorker(member, 'f.zip', 10)).rejects.toThrow(new ExportError('f.zip: outputs.csv lacks column(s) tissue'));
  });
});

describe('readExport with outputs.csv in a worker', () => {
  it('gives the same tables, problems (in order, cut at maxProblems) and counts as on one thread, whatever the defects', async () => {
    const lines = strFromU8(fixture['outputs.csv']).split('\n');
    const groups = strFromU8(fixture['groups.csv']).split('\n');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(), edit), { maxLength: 6 }),
        fc.array(fc.tuple(fc.nat(), edit), { maxLength: 2 }),
        fc.constantFrom(1, 3, 1000),
        async (outputEdits, groupEdits, maxProblems) => {
          const zip = zipSync({ ...fixture, 'outputs.csv': edited(lines, outputEdits), 'groups.csv': edited(groups, groupEdits) });
          const one = await outcome(zip, { worker: false, maxProblems });
          expect(await outcome(zip, { worker: 'always', maxProblems })).toBe(one);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('reads in parallel: concurrent reads each get a worker, and give what one thread gives', async () => {
    const zip = zipSync(fixture);
    const one = await outcome(zip, { worker: false });
    const many = await Promise.all(Array.from({ length: 3 }, () => outcome(zip, { worker: 'always' })));
    expect(many).toEqual([one, one, one]);
  });

  it('throws the error of outputs.csv first when other members fail too, as on one thread', async () => {
    const broken = (file: string, from: string) => strToU8(strFromU8(fixture[file]).replace(from, `${from}_x`));
    const zip = zipSync({ ...fixture, 'outputs.csv': broken('outputs.csv', ',tissue'), 'groups.csv': broken('groups.csv', ',group_name') });
    await expect(readExport(zip, { name: 'z.zip', worker: 'always' })).rejects.toThrow('z.zip: outputs.csv lacks column(s) tissue');
    const groupsOnly = zipSync({ ...fixture, 'groups.csv': broken('groups.csv', ',group_name') });
    await expect(readExport(groupsOnly, { name: 'z.zip', worker: 'always' })).rejects.toThrow('z.zip: groups.csv lacks column(s) group_name');
  });

  it('reads a strict export on the calling thread, stopping at the first problem in file order', async () => {
    const lines = strFromU8(fixture['outputs.csv']).split('\n');
    lines[5] = lines[5].replace(',True,', ',Maybe,');
    const zip = zipSync({ ...fixture, 'outputs.csv': strToU8(lines.join('\n')) });
    await expect(readExport(zip, { name: 'z.zip', worker: 'always', strict: true })).rejects.toThrow(
      'z.zip: outputs.csv line 6, column normed: expected True or False, found "Maybe"',
    );
  });
});
