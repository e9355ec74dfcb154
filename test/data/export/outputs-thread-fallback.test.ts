/**
 * readExport where no worker thread can be had: `new Worker` throws (as in a
 * runtime without worker threads) or the worker dies before answering. The
 * calling thread then reads outputs.csv itself, with the same result.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PROJECT_ROOT } from '../../helpers/shared.js';

const behaviour = vi.hoisted(() => ({ mode: 'throw' as 'throw' | 'die' }));

vi.mock('node:worker_threads', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:worker_threads')>();
  class BrokenWorker extends real.Worker {
    constructor(...args: ConstructorParameters<typeof real.Worker>) {
      if (behaviour.mode === 'throw') throw new Error('no threads here');
      // A worker whose script exits at once, without answering.
      super('process.exit(3)', { eval: true });
      void args;
    }
  }
  return { ...real, Worker: BrokenWorker };
});

const zip = readFileSync(join(PROJECT_ROOT, 'fixtures', 'pkdb-fixtures.zip'));

describe('readExport without a worker', () => {
  afterEach(() => {
    behaviour.mode = 'throw';
  });

  it('reads outputs.csv on the calling thread when a worker cannot be started, or dies before answering', async () => {
    const { readExport } = await import('../../../src/data/export/read.js');
    const { readOutputsInWorker } = await import('../../../src/data/export/outputs-thread.js');
    const { openZip } = await import('../../../src/data/export/zip.js');
    const one = JSON.stringify(await readExport(zip, { worker: false }));
    for (const mode of ['throw', 'die'] as const) {
      behaviour.mode = mode;
      expect(JSON.stringify(await readExport(zip, { worker: 'always' }))).toBe(one);
      await expect(readOutputsInWorker(openZip(zip, 'f.zip').stored('outputs.csv'), 'f.zip', 10)).rejects.toThrow(
        mode === 'throw' ? 'cannot start a worker (no threads here)' : 'worker exited with code 3 before answering',
      );
    }
  });
});
