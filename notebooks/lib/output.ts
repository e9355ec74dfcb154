/**
 * What a notebook leaves behind: CSV tables (through arquero, the DataFrame
 * library the notebooks print with) and figures as Vega-Lite spec, SVG and PNG
 * (the plots module's headless renderers), all in one output directory.
 * Every file written is listed at the end of the run, so the narrative tells
 * the reader where to look.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as aq from 'arquero';
import type { TopLevelSpec } from 'vega-lite';
import { renderPng, renderSvg } from '../../src/plots/render.js';

type Table = ReturnType<typeof aq.from>;

export class NotebookOutput {
  readonly written: string[] = [];

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  private write(name: string, content: string | Buffer): string {
    const path = join(this.dir, name);
    writeFileSync(path, content);
    this.written.push(path);
    return path;
  }

  /** A table as `<name>.csv`; plain row objects are turned into a DataFrame first. */
  csv(name: string, table: Table | readonly object[]): string {
    const frame = Array.isArray(table) ? aq.from(table as object[]) : (table as Table);
    return this.write(`${name}.csv`, frame.toCSV()); // toCSV ends with a newline
  }

  json(name: string, value: unknown): string {
    return this.write(`${name}.json`, `${JSON.stringify(value, null, 2)}\n`);
  }

  /** A figure as `<name>.vl.json` (to open in the Vega editor), `<name>.svg` and `<name>.png`. */
  async figure(name: string, spec: TopLevelSpec): Promise<string[]> {
    return [
      this.write(`${name}.vl.json`, `${JSON.stringify(spec)}\n`),
      this.write(`${name}.svg`, await renderSvg(spec)),
      this.write(`${name}.png`, await renderPng(spec)),
    ];
  }

  /** The closing lines of a notebook: every file written, relative to the working directory. */
  listing(): string {
    return this.written.map((path) => `  ${relative(process.cwd(), path)}`).join('\n');
  }
}

/** Narrative for the reader of the console: a paragraph, wrapped at 100 columns. */
export function say(text: string): void {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    if (line && line.length + word.length + 1 > 100) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  console.log(`\n${lines.join('\n')}`);
}

/** A section heading in the console, mirroring the notebook's markdown cells. */
export function heading(text: string): void {
  console.log(`\n## ${text}`);
}

/** Numbers cut to 4 significant digits for the console; the CSV files keep full precision. */
function forDisplay(row: Record<string, unknown>): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    shown[key] = typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value) ? Number(value.toPrecision(4)) : value;
  }
  return shown;
}

/** Prints a DataFrame (first `limit` rows). */
export function show(table: Table | readonly object[], limit = 12): void {
  const frame = Array.isArray(table) ? aq.from(table as object[]) : (table as Table);
  const rows = frame.objects({ limit, grouped: false }) as Record<string, unknown>[];
  console.log(`${frame.numRows()} rows × ${frame.numCols()} columns${frame.numRows() > limit ? `, first ${limit} shown` : ''}`);
  console.table(rows.map(forDisplay));
}
