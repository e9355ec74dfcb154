import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCsvLine, parseCsv } from '../../../src/data/export/csv.js';

describe('parseCsv', () => {
  it('handles quotes, doubled quotes, embedded newlines and CRLF, with starting line numbers', () => {
    const text = ',a,b\r\n0,"x, y","say ""hi"""\r\n1,"two\nlines",z\n2,,\n';
    const { header, rows } = parseCsv(text);
    expect(header).toEqual(['', 'a', 'b']);
    expect(rows.map((r) => r.cells)).toEqual([
      ['0', 'x, y', 'say "hi"'],
      ['1', 'two\nlines', 'z'],
      ['2', '', ''],
    ]);
    expect(rows.map((r) => r.line)).toEqual([2, 3, 5]);
  });

  it('skips blank lines, ignores a BOM and reads a last line without terminator', () => {
    const { header, rows } = parseCsv('\ufeffa,b\n\n1,2\n\n3,4');
    expect(header).toEqual(['a', 'b']);
    expect(rows).toEqual([
      { line: 3, cells: ['1', '2'] },
      { line: 5, cells: ['3', '4'] },
    ]);
  });

  it('keeps a lone CR as data and treats CRLF inside quotes as data', () => {
    const { rows } = parseCsv('a,b\n"1\r\n2",x\ry\n');
    expect(rows[0].cells).toEqual(['1\r\n2', 'x\ry']);
  });

  it('flags a quote inside an unquoted field, naming the field', () => {
    const { rows } = parseCsv('a,b\n1,x"y\n3,4\n');
    expect(rows[0]).toEqual({ line: 2, cells: ['1', 'x"y'], error: 'stray quote in unquoted field 2 (at character 2 of the field)', errorField: 1 });
    expect(rows[1]).toEqual({ line: 3, cells: ['3', '4'] });
  });

  it('flags a broken row but keeps reading', () => {
    const { rows } = parseCsv('a,b\n"1"x,2\n3,4\n"open,5\n6,7\n');
    expect(rows[0].error).toMatch(/after a closing quote in field 1/);
    expect(rows[1]).toEqual({ line: 3, cells: ['3', '4'] });
    expect(rows[2].error).toBe('unterminated quoted field 1 (a quote opened on line 4 is never closed)');
    expect(rows[2].errorField).toBe(0);
    expect(rows).toHaveLength(3);
  });

  it('reads rows wider than its cell arrays start (64), quoted or not', () => {
    const wide = Array.from({ length: 150 }, (_, i) => `c${i}`);
    const quoted = wide.map((cell, i) => (i % 7 === 0 ? `x,${cell}` : cell));
    const { header, rows } = parseCsv([wide, wide, quoted].map(formatCsvLine).join(''));
    expect(header).toEqual(wide);
    expect(rows.map((r) => r.cells)).toEqual([wide, quoted]);
  });

  it('round-trips arbitrary cells through formatCsvLine', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string(), { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 5 }), (table) => {
        const width = table[0].length;
        const rows = table.map((r) => [...r.slice(0, width), ...Array(Math.max(0, width - r.length)).fill('x')]);
        // A row of one empty cell is a blank line, which CSV cannot tell from nothing.
        fc.pre(rows.every((r) => r.some((c) => c !== '')));
        const text = formatCsvLine(Array.from({ length: width }, (_, i) => `h${i}`)) + rows.map(formatCsvLine).join('');
        expect(parseCsv(text).rows.map((r) => r.cells)).toEqual(rows);
      }),
    );
  });
});
