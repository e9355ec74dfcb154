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
