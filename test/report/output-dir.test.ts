import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTarget, commitTemp, makeTempSibling, OutputDirError, pruneTemp, spareOf, targetState } from '../../src/report/output-dir.js';

describe('report output folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'pkdb-outdir-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let n = 0;
  const folder = (entries: Record<string, string> = {}) => {
    const dir = join(root, `case-${n++}`);
    mkdirSync(dir);
    for (const [name, text] of Object.entries(entries)) {
      mkdirSync(join(dir, name, '..'), { recursive: true });
      writeFileSync(join(dir, name), text);
    }
    return dir;
  };
  const newReport = (dir: string, marker: string) => {
    const tmp = makeTempSibling(dir);
    mkdirSync(join(tmp, 'plots'));
    writeFileSync(join(tmp, 'findings.csv'), marker);
    writeFileSync(join(tmp, 'plots', 'timecourse-1.vl.json'), marker);
    return tmp;
  };

  it('tells absent, empty, previous report and foreign folders apart; a file is an error', () => {
    expect(targetState(join(root, 'nope'))).toBe('absent');
    expect(targetState(folder())).toBe('empty');
    expect(targetState(folder({ 'findings.csv': 'x', 'plots/a.vl.json': '{}', 'report/index.html': '' }))).toBe('report');
    expect(targetState(folder({ 'findings.csv': 'x', 'thesis.docx': '' }))).toBe('foreign');
    writeFileSync(join(root, 'file'), '');
    expect(() => targetState(join(root, 'file'))).toThrow(/is a file, not a folder/);
  });

  it('refuses a foreign folder without force, naming what it holds', () => {
    const dir = folder({ 'thesis.docx': '', 'data.csv': '' });
    expect(() => checkTarget(dir, false)).toThrow(OutputDirError);
    expect(() => checkTarget(dir, false)).toThrow(/not empty and not a previous report \(it holds data\.csv, thesis\.docx\)/);
    expect(checkTarget(dir, true)).toBe('foreign');
  });

  it('replaces a previous report whole, so stale plots are gone, and leaves no temporary folder', () => {
    const dir = folder({ 'findings.csv': 'old', 'plots/timecourse-2.vl.json': 'stale', 'report.html': 'old page' });
    commitTemp(newReport(dir, 'new'), dir, false);
    expect(readdirSync(dir).sort()).toEqual(['findings.csv', 'plots']);
    expect(readdirSync(join(dir, 'plots'))).toEqual(['timecourse-1.vl.json']);
    expect(readFileSync(join(dir, 'findings.csv'), 'utf8')).toBe('new');
    expect(readdirSync(root).filter((e) => e.includes('.pkdb-qa-tmp-'))).toEqual([]);
  });

  it('with force, replaces only the report entries of a foreign folder and keeps the rest', () => {
    const dir = folder({ 'notes.txt': 'mine', 'plots/timecourse-9.vl.json': 'stale' });
    commitTemp(newReport(dir, 'new'), dir, true);
    expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(readdirSync(join(dir, 'plots'))).toEqual(['timecourse-1.vl.json']);
  });

  it('moves into an absent folder, and removes leftovers of runs that died', () => {
    const dir = join(root, 'fresh');
    // A leftover of a killed run: a process id that cannot exist.
    mkdirSync(join(root, '.fresh.pkdb-qa-tmp-999999999'));
    const tmp = newReport(dir, 'new');
    expect(existsSync(join(root, '.fresh.pkdb-qa-tmp-999999999'))).toBe(false);
    commitTemp(tmp, dir, false);
    expect(readFileSync(join(dir, 'findings.csv'), 'utf8')).toBe('new');
    expect(existsSync(tmp)).toBe(false);
  });

  it('keeps the replaced report as the spare and writes the next one into it: its files reused, the unwritten ones pruned', () => {
    const dir = folder({ 'findings.csv': 'first', 'plots/timecourse-1.vl.json': 'first', 'plots/timecourse-2.vl.json': 'stale', 'report/index.html': 'page' });
    commitTemp(newReport(dir, 'second'), dir, false);
    // The first report is now the spare, beside the target and hidden.
    expect(readFileSync(join(spareOf(dir), 'findings.csv'), 'utf8')).toBe('first');
    const reused = statSync(join(spareOf(dir), 'plots', 'timecourse-1.vl.json')).ino;
    const tmp = makeTempSibling(dir);
    expect(existsSync(spareOf(dir))).toBe(false);
    expect(readdirSync(tmp).sort()).toEqual(['findings.csv', 'plots', 'report']);
    writeFileSync(join(tmp, 'findings.csv'), 'third');
    writeFileSync(join(tmp, 'plots', 'timecourse-1.vl.json'), 'third');
    pruneTemp(tmp, ['findings.csv', join('plots', 'timecourse-1.vl.json')]);
    commitTemp(tmp, dir, false);
    expect(readdirSync(dir).sort()).toEqual(['findings.csv', 'plots']);
    expect(readdirSync(join(dir, 'plots'))).toEqual(['timecourse-1.vl.json']);
    expect(readFileSync(join(dir, 'plots', 'timecourse-1.vl.json'), 'utf8')).toBe('third');
    expect(statSync(join(dir, 'plots', 'timecourse-1.vl.json')).ino).toBe(reused);
    expect(readFileSync(join(spareOf(dir), 'findings.csv'), 'utf8')).toBe('second');
  });

  it('removes anything but files and folders from a claimed spare, so a write never goes through a link', () => {
    const dir = folder({ 'findings.csv': 'x' });
    const outside = join(root, 'outside.txt');
    writeFileSync(outside, 'keep');
    mkdirSync(spareOf(dir));
    symlinkSync(outside, join(spareOf(dir), 'findings.json'));
    const tmp = makeTempSibling(dir);
    expect(readdirSync(tmp)).toEqual([]);
    writeFileSync(join(tmp, 'findings.json'), 'new');
    expect(readFileSync(outside, 'utf8')).toBe('keep');
  });
});
