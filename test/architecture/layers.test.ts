/**
 * The layering of docs/architecture.md, checked on the sources: every
 * `import`/`export … from`/`import()` of a relative module in `src/**\/*.ts`
 * (found by the TypeScript compiler's own pre-processor, so comments and
 * strings do not count; type-only imports count, as they tie the modules'
 * designs together all the same) must point to the same layer or a lower one,
 * and the module graph must have no cycle.
 *
 *   api -> data -> units -> nca -> qa -> plots -> report, then server, then cli
 *
 * (`src/index.ts`, the package's entry point, re-exports every layer.) Within
 * `src/api`, the zod schemas are the source of every type, so `api/schemas`
 * imports nothing of the rest of `src/api` but its error type.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

/** The layers from the bottom up; a module may import its own layer and those before it. */
const LAYERS = ['api', 'data', 'units', 'nca', 'qa', 'plots', 'report', 'server', 'cli', 'index.ts'] as const;

/** What `src/api/schemas` may import besides itself and packages. */
const SCHEMAS_MAY_IMPORT = ['api/errors.ts'];

/**
 * Imports that break a rule (an upward import, or an edge closing a cycle)
 * until a change in another area lands, as `from -> to` (paths under src/),
 * each with its reason. The checks ignore these edges; the test fails when one
 * is no longer in the sources, so the list cannot go stale.
 */
const KNOWN_EXCEPTIONS: { edge: string; why: string }[] = [];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The src-relative `.ts` files a module imports (relative specifiers only; packages are not layers). */
function importsOf(file: string): string[] {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return importedFiles
    .map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => relative(SRC, resolve(dirname(file), spec.replace(/\.js$/, '.ts'))));
}

function layerOf(path: string): number {
  const top = path.split('/')[0];
  const rank = (LAYERS as readonly string[]).indexOf(top);
  if (rank < 0) throw new Error(`src/${path} is in no layer of docs/architecture.md (add it to LAYERS)`);
  return rank;
}

const files = sourceFiles(SRC).map((f) => relative(SRC, f)).sort();
const graph = new Map(files.map((f) => [f, importsOf(join(SRC, f))] as const));
const edgeName = (from: string, to: string) => `${from} -> ${to}`;
const known = new Set(KNOWN_EXCEPTIONS.map((e) => e.edge));
/** The graph without the known exceptions. */
const checked = new Map([...graph].map(([from, to]) => [from, to.filter((t) => !known.has(edgeName(from, t)))] as const));

/** Strongly connected components with more than one module, or a module importing itself (Tarjan). */
function cycles(edges: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (edges.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Every import breaking the layer order or the schemas' rule, as `from -> to`. */
function violations(edges: Map<string, string[]>): string[] {
  const bad: string[] = [];
  for (const [from, targets] of edges) {
    for (const to of targets) {
      if (layerOf(to) > layerOf(from)) bad.push(edgeName(from, to));
      else if (from.startsWith('api/schemas/') && !to.startsWith('api/schemas/') && !SCHEMAS_MAY_IMPORT.includes(to)) {
        bad.push(edgeName(from, to));
      }
    }
  }
  return bad.sort();
}

describe('layers of docs/architecture.md', () => {
  it('finds the sources and their imports', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(graph.get('cli/main.ts')?.length).toBeGreaterThan(0);
    // Every relative import resolves to a source file (a typo would escape the checks below).
    const dangling = [...graph].flatMap(([from, to]) => to.filter((t) => !graph.has(t)).map((t) => `${from} -> ${t}`));
    expect(dangling).toEqual([]);
  });

  it('no module imports a higher layer', () => {
    expect(violations(checked)).toEqual([]);
  });

  it('the module graph has no cycle', () => {
    expect(cycles(checked)).toEqual([]);
  });

  it('every known exception is still in the sources (or it should leave the list)', () => {
    const edges = new Set([...graph].flatMap(([from, to]) => to.map((t) => edgeName(from, t))));
    expect(KNOWN_EXCEPTIONS.filter((e) => !edges.has(e.edge))).toEqual([]);
    for (const exception of KNOWN_EXCEPTIONS) expect(exception.why).not.toBe('');
  });

  it('the checks catch what they are for', () => {
    const planted = new Map([
      ['api/client.ts', ['data/export/read.ts']],
      ['data/export/read.ts', ['api/client.ts']],
      ['units/parse.ts', ['units/parse.ts']],
      ['api/schemas/common.ts', ['api/client.ts']],
      ['server/app.ts', ['data/model.ts']],
    ]);
    expect(violations(planted)).toEqual(['api/client.ts -> data/export/read.ts', 'api/schemas/common.ts -> api/client.ts']);
    expect(cycles(planted)).toEqual([['api/client.ts', 'data/export/read.ts'], ['units/parse.ts']]);
  });
});
