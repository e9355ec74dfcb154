/**
 * `pkdb nca` on broken input files (issue 10): each is exit 2 with a message
 * naming the file, the line and the column, quickly; a BOM just works;
 * negative concentrations are used and noted.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { numericCell } from '../../src/nca/group.js';

let stderr: string[] = [];
const writeErr = process.stderr.write.bind(process.stderr);
beforeEach(() => {
  stderr = [];
  process.stderr.write = ((chunk: string) => (stderr.push(String(chunk)), true)) as typeof process.stderr.write;
});
afterEach(() => {
  process.stderr.write = writeErr;
});

const dir = mkdtempSync(join(tmpdir(), 'pkdb-nca-hostile-'));
let files = 0;
const GOOD = ['subject,time,conc', 'A,0,0', 'A,1,4', 'A,2,6', 'A,4,3', 'A,6,1.5', 'A,8,0.75'];

function file(content: string | Uint8Array): string {
  const path = join(dir, `in${files++}.csv`);
  writeFileSync(path, content);
  return path;
}

/** Runs `pkdb nca` on `content`; exit code, stderr, output file text and wall time. */
async function nca(content: string | Uint8Array, ...args: string[]): Promise<{ code: number; err: string; out: string; ms: number; path: string }> {
  const path = file(content);
  const out = `${path}.out`;
  writeFileSync(out, '');
  stderr = [];
  const start = performance.now();
  const code = await main(['nca', path, '--out', out, ...args]);
  return { code, err: stderr.join(''), out: readFileSync(out, 'utf8'), ms: performance.now() - start, path };
}

describe('pkdb nca on hostile input', () => {
  it('names an empty file (0 bytes, blank lines, a BOM alone) and exits 2', async () => {
    for (const content of ['', '\n\n  \n', '\uFEFF']) {
      const { code, err, path, ms } = await nca(content);
      expect(code).toBe(2);
      expect(err).toBe(`pkdb: ${path}: empty file (expected a header line, then one row per sample)\n`);
      expect(ms).toBeLessThan(5000);
    }
  });

  it('reads a file with a UTF-8 BOM exactly like one without', async () => {
    const plain = await nca(GOOD.join('\n'));
    const bom = await nca(`\uFEFF${GOOD.join('\r\n')}\r\n`);
    expect([plain.code, bom.code]).toEqual([0, 0]);
    expect(bom.out).toBe(plain.out);
    expect(bom.out).toMatch(/^subject,/);
    expect(bom.out.split('\n')[1]).toMatch(/^A,/);
  });

  it('refuses an unbalanced quote instead of merging rows into a subject name', async () => {
    const open = await nca([...GOOD, '"B,0,0', 'B,1,2', 'B,2,1'].join('\n'));
    expect(open.code).toBe(2);
    expect(open.err).toBe(`pkdb: ${open.path} line 8, column subject: unterminated quoted field 1 (a quote opened on line 8 is never closed)\n`);
    const stray = await nca([...GOOD, 'B"x,0,0'].join('\n'));
    expect(stray.code).toBe(2);
    expect(stray.err).toBe(`pkdb: ${stray.path} line 8, column subject: stray quote in unquoted field 1 (at character 2 of the field)\n`);
    const after = await nca([...GOOD, '"B"x,0,0'].join('\n'));
    expect(after.err).toBe(`pkdb: ${after.path} line 8, column subject: unexpected text after a closing quote in field 1\n`);
  });

  it('refuses odd numerals, naming line, column and cell', async () => {
    const cases: [string, string][] = [
      ['A,0x4,1', 'column time: "0x4" is not a decimal number'],
      ['A,5,1e', 'column conc: "1e" is not a decimal number'],
      ['A,5,"4,5"', 'column conc: "4,5" is not a decimal number (a decimal comma? write a point)'],
      ['A,Infinity,1', 'column time: "Infinity" is not a decimal number'],
      ['A,5, ', 'column conc: a cell of spaces only (leave it empty or write NA for a missing value)'],
      ['A,1_000,1', 'column time: "1_000" is not a decimal number'],
      ['A,5,1e999', 'column conc: "1e999" is out of range'],
    ];
    for (const [row, message] of cases) {
      const { code, err, path, ms } = await nca([...GOOD, row].join('\n'));
      expect(code).toBe(2);
      expect(err).toBe(`pkdb: ${path} line 8, ${message}\n`);
      expect(ms).toBeLessThan(5000);
    }
    const comma = await nca([...GOOD, 'A,5,4,5'].join('\n'));
    expect(comma.err).toBe(`pkdb: ${comma.path} line 8: 4 cells, but the header has 3\n`);
  });

  it('refuses invalid UTF-8 and NUL bytes with line and character', async () => {
    const latin1 = Buffer.concat([Buffer.from(`${GOOD.join('\n')}\n`), Buffer.from([0x42, 0xb5, 0x2c]), Buffer.from('9,1\n')]);
    const bad = await nca(latin1);
    expect(bad.code).toBe(2);
    expect(bad.err).toBe(`pkdb: ${bad.path} line 8, character 2: invalid UTF-8 (save the file as UTF-8)\n`);
    const nul = await nca(`${GOOD.join('\n')}\nA,9\u0000,1\n`);
    expect(nul.code).toBe(2);
    expect(nul.err).toBe(`pkdb: ${nul.path} line 8, character 4: a NUL byte (not a text file?)\n`);
  });

  it('names a duplicated or missing column', async () => {
    const twice = await nca(['subject,time,conc,time', 'A,0,0,0'].join('\n'));
    expect(twice.err).toBe(`pkdb: ${twice.path}: column "time" appears twice in the header\n`);
    const missing = await nca(GOOD.join('\n'), '--conc', 'c');
    expect(missing.err).toBe(`pkdb: ${missing.path}: no column "c" in the header ("subject", "time", "conc")\n`);
  });

  it('keeps negative concentrations and notes them per subject, in JSON and on stderr', async () => {
    const rows = [...GOOD, 'B,0,0', 'B,1,4', 'B,2,-0.5', 'B,4,2', 'B,6,1'];
    const { code, err, out, path } = await nca(rows.join('\n'), '--format', 'json');
    expect(code).toBe(0);
    const [a, b] = JSON.parse(out);
    expect(a.inputNotes).toBeUndefined();
    expect(b.inputNotes).toEqual(['1 negative concentration, used as given: line 10 (-0.5)']);
    // Used as given: the linear trapezoids through -0.5 (0→1: 2, 1→2: 1.75, 2→4: 1.5, 4→6: 3).
    expect(b.parameters.AUCLST.value).toBeCloseTo(2 + 1.75 + 1.5 + 3, 12);
    expect(err).toBe(`pkdb nca: note: ${path}: subject B: 1 negative concentration, used as given: line 10 (-0.5)\n`);
  });

  it('reads a large well-formed file in bounded time', async () => {
    const lines = ['subject,time,conc'];
    for (let s = 0; s < 400; s++) for (let t = 0; t < 50; t++) lines.push(`S${s},${t},${(100 * Math.exp(-0.1 * t)).toFixed(4)}`);
    const { code, out, ms } = await nca(lines.join('\n'));
    expect(code).toBe(0);
    expect(out.trim().split('\n')).toHaveLength(401);
    expect(ms).toBeLessThan(30_000);
  });
});

describe('numericCell', () => {
  it('reads decimals and missing markers, and names anything else', () => {
    for (const [text, value] of [['4', 4], [' -0.5 ', -0.5], ['.5', 0.5], ['5.', 5], ['+1e-3', 0.001], ['2E2', 200]] as const) {
      expect(numericCell(text, 'x')).toBe(value);
    }
    for (const text of ['', 'NA', 'nan', '.', 'NULL']) expect(numericCell(text, 'x')).toBeNull();
    expect(numericCell(Infinity, 'x')).toBe(Infinity);
    for (const text of ['0x4', '0b1', '1e', 'e1', '--1', '1_000', 'Infinity', '-Infinity', '4,5', '1 2']) {
      expect(() => numericCell(text, 'row 3')).toThrow(/^row 3: ".*" is not a decimal number/);
    }
  });
});
