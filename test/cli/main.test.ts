import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

describe('pkdb CLI', () => {
  it('prints help and exits 0', async () => {
    const chunks: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => {
      chunks.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    try {
      expect(await main(['--help'])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    expect(chunks.join('')).toContain('Usage: pkdb');
  });

  it('exits 2 on an unknown option', async () => {
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = (() => true) as typeof process.stderr.write;
    try {
      expect(await main(['--no-such-option'])).toBe(2);
    } finally {
      process.stderr.write = write;
    }
  });
});

describe('pkdb CLI in a pipeline', () => {
  it('finishes with its own exit code when the reader closes the pipe early (`pkdb … --json | true`)', () => {
    const bin = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'bin', 'pkdb.js');
    const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures', 'pkdb-fixtures.zip');
    const run = spawnSync('bash', ['-c', 'set -o pipefail; "$0" "$1" summary --export "$2" --json | true; echo "exit ${PIPESTATUS[0]}" >&2', process.execPath, bin, fixtures], {
      encoding: 'utf8',
    });
    expect(run.stderr).not.toMatch(/EPIPE|Unhandled/);
    expect(run.stderr).toMatch(/exit 0/);
  });
});
