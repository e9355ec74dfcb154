/**
 * The minified browser builds of vega, vega-lite and vega-embed, read from
 * node_modules so the report can inline them and work offline. Package
 * exports hide their build/ folders, so each is located from its entry point.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** UMD builds in load order: vega-embed expects the globals `vega` and `vegaLite`. */
const BUILDS = [
  ['vega', 'vega.min.js'],
  ['vega-lite', 'vega-lite.min.js'],
  ['vega-embed', 'vega-embed.min.js'],
] as const;

let cached: { name: string; source: string }[] | null = null;

export function vendorScripts(): { name: string; source: string }[] {
  cached ??= BUILDS.map(([name, file]) => {
    const buildDir = dirname(require.resolve(name));
    return { name, source: readFileSync(join(buildDir, file), 'utf8') };
  });
  return cached;
}

/**
 * The three builds as one file (report/assets/vendor.js), loaded once by
 * relative path from every page: each build on its own line after a `;`, so
 * a build without a trailing semicolon cannot run into the next.
 */
export function vendorBundle(): string {
  return vendorScripts()
    .map((v) => `/* ${v.name} */\n${v.source}\n;`)
    .join('\n');
}
