import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BATCH_INTERRUPT_BUDGET, tuneForBatch, V8_DEFAULT_INTERRUPT_BUDGET } from '../../src/cli/batch-tuning.js';

const MODULE = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'cli', 'batch-tuning.ts')).href;

describe('batch tuning', () => {
  it('is 16 × V8 default budget of 66 KiB of bytecode', () => {
    expect(V8_DEFAULT_INTERRUPT_BUDGET).toBe(67_584);
    expect(BATCH_INTERRUPT_BUDGET).toBe(1_081_344);
  });
  it('leaves a process that is not a one-shot command (this test worker) alone', () => {
    expect(tuneForBatch()).toBe(false);
  });
  it('tunes a one-shot process once, without a warning from V8', () => {
    const script = `const m = await import(${JSON.stringify(MODULE)}); m.oneShotProcess(); console.log(m.tuneForBatch(), m.tuneForBatch());`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).not.toMatch(/unrecognized flag/);
    expect(run.stdout.trim()).toBe('true true');
  });
});
