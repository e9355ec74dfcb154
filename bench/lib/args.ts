/**
 * Bench command lines: `npm run bench -- qa-recall --copies 3 --seed 7`.
 * Words select benchmark files (bench/run.ts); `--name value` (or
 * `--name=value`) are options a benchmark reads, also settable as
 * `PKDB_BENCH_<NAME>` in the environment (the command line wins).
 */
export interface BenchArgs {
  words: string[];
  options: Map<string, string>;
}

export function parseBenchArgs(argv: readonly string[]): BenchArgs {
  const words: string[] = [];
  const options = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      words.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) options.set(arg.slice(2, eq), arg.slice(eq + 1));
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) options.set(arg.slice(2), argv[++i]);
    else options.set(arg.slice(2), 'true');
  }
  return { words, options };
}

/** A non-negative integer option from the command line or the environment, else the default. */
export function intOption(args: BenchArgs, name: string, fallback: number, env: NodeJS.ProcessEnv = process.env): number {
  const text = args.options.get(name) ?? env[`PKDB_BENCH_${name.toUpperCase().replace(/-/g, '_')}`];
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a non-negative integer, got '${text}'`);
  return value;
}

/**
 * The benchmark files the words select, sorted: a word that names a benchmark exactly (`qa` → qa.bench.ts) selects
 * that one, any other word every file whose name contains it (`recall` → qa-recall.bench.ts); no words, all of them.
 */
export function selectBenches(files: readonly string[], words: readonly string[]): string[] {
  const benches = files.filter((f) => f.endsWith('.bench.ts'));
  if (words.length === 0) return [...benches].sort();
  const chosen = new Set<string>();
  for (const word of words) {
    const exact = `${word}.bench.ts`;
    if (benches.includes(exact)) chosen.add(exact);
    else for (const f of benches) if (f.includes(word)) chosen.add(f);
  }
  return [...chosen].sort();
}
