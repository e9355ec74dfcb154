import { describe, expect, it } from 'vitest';
import { intOption, parseBenchArgs, selectBenches } from '../../bench/lib/args.js';

describe('parseBenchArgs', () => {
  it('separates file words from --name value options', () => {
    const args = parseBenchArgs(['qa-recall', '--copies', '3', '--seed=7', 'nca', '--verbose']);
    expect(args.words).toEqual(['qa-recall', 'nca']);
    expect([...args.options]).toEqual([['copies', '3'], ['seed', '7'], ['verbose', 'true']]);
  });

  it('reads integers from the command line, else the environment, else the default', () => {
    const args = parseBenchArgs(['--copies', '3']);
    expect(intOption(args, 'copies', 9, { PKDB_BENCH_COPIES: '5' })).toBe(3);
    expect(intOption(args, 'per-copy', 40, { PKDB_BENCH_PER_COPY: '12' })).toBe(12);
    expect(intOption(args, 'seed', 1, {})).toBe(1);
    expect(() => intOption(parseBenchArgs(['--seed', 'x']), 'seed', 1, {})).toThrow(/--seed must be a non-negative integer, got 'x'/);
  });
});

describe('selectBenches', () => {
  const files = ['qa.bench.ts', 'qa-recall.bench.ts', 'qa-parts.bench.ts', 'nca.bench.ts', 'README.md'];
  it('takes a word that names a benchmark as that one, any other as a part of names; no words, all', () => {
    expect(selectBenches(files, ['qa'])).toEqual(['qa.bench.ts']);
    expect(selectBenches(files, ['recall', 'nca'])).toEqual(['nca.bench.ts', 'qa-recall.bench.ts']);
    expect(selectBenches(files, ['qa-'])).toEqual(['qa-parts.bench.ts', 'qa-recall.bench.ts']);
    expect(selectBenches(files, [])).toEqual(['nca.bench.ts', 'qa-parts.bench.ts', 'qa-recall.bench.ts', 'qa.bench.ts']);
    expect(selectBenches(files, ['nothing'])).toEqual([]);
  });
});
