import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.js';
import { describeShared, PROJECT_ROOT, SHARED_NCA_DIR } from '../../helpers/shared.js';

/** Parses the command's CSV (no quoted cells in these tests) into subject -> code -> cell; `CODE [unit]` headers keyed by code. */
function parseCsv(text: string): Map<string, Record<string, string>> {
  const [header, ...lines] = text.trim().split('\n');
  const names = header.split(',').map((n) => n.replace(/ \[.*\]$/, ''));
  return new Map(lines.map((line) => {
    const cells = line.split(',');
    return [cells[0], Object.fromEntries(names.map((n, i) => [n, cells[i]]))];
  }));
}

let stderr: string[] = [];
const writeErr = process.stderr.write.bind(process.stderr);
beforeEach(() => {
  stderr = [];
  process.stderr.write = ((chunk: string) => (stderr.push(String(chunk)), true)) as typeof process.stderr.write;
});
afterEach(() => {
  process.stderr.write = writeErr;
});

describe('pkdb nca', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pkdb-nca-'));
  const input = join(dir, 'profiles.csv');
  writeFileSync(
    input,
    ['id,t,c', 'A,0,0', 'A,1,4', 'A,2,6', 'A,4,3', 'A,6,1.5', 'A,8,0.75', 'B,0,0', 'B,1,2', 'B,1,3'].join('\n'),
  );

  it('writes one CSV row per subject, empty cells for a subject that failed, and exits 1', async () => {
    const out = join(dir, 'out.csv');
    const code = await main(['nca', input, '--subject', 'id', '--time', 't', '--conc', 'c', '--dose', '100', '--out', out]);
    expect(code).toBe(1);
    expect(stderr.join('')).toContain('subject B: duplicate time 1');
    const rows = parseCsv(readFileSync(out, 'utf8'));
    const a = rows.get('A')!;
    // (0 + 4)/2 + 5 + 9 + 4.5 + 2.25; λz over 3, 1.5, 0.75 (halving every 2 h)
    expect(Number(a.AUCLST)).toBe(22.75);
    expect(Number(a.LAMZ)).toBeCloseTo(Math.LN2 / 2, 14);
    expect(Number(a.CLFO)).toBeCloseTo(100 / (22.75 + 0.75 / (Math.LN2 / 2)), 12);
    expect(rows.get('B')!.CMAX).toBe('');
  });

  it('writes JSON with units, λz points and notes', async () => {
    const out = join(dir, 'out.json');
    await main(['nca', input, '--subject', 'id', '--time', 't', '--conc', 'c', '--format', 'json', '--out', out, '--lambda-z', '3:9']);
    const [a, b] = JSON.parse(readFileSync(out, 'utf8'));
    expect(a.parameters.AUCLST).toEqual({ value: 22.75, unit: 'h*mg/L' });
    expect(a.lambdaZ.times).toEqual([4, 6, 8]);
    expect(a.notes.CLFO).toBe('no dose given');
    expect(b.error).toContain('duplicate time');
  });

  it('reports volumes and clearances in --volume-unit mL', async () => {
    const args = ['nca', input, '--subject', 'id', '--time', 't', '--conc', 'c', '--dose', '100', '--format', 'json'];
    const litres = join(dir, 'litres.json');
    const millilitres = join(dir, 'millilitres.json');
    await main([...args, '--out', litres]);
    await main([...args, '--volume-unit', 'mL', '--out', millilitres]);
    const [l] = JSON.parse(readFileSync(litres, 'utf8'));
    const [ml] = JSON.parse(readFileSync(millilitres, 'utf8'));
    expect(l.parameters.CLFO.unit).toBe('L/h');
    expect(ml.parameters.CLFO.unit).toBe('mL/h');
    expect(ml.parameters.VZFO.unit).toBe('mL');
    // 1 mg/(mg/L) = 1 L = 1000 mL
    expect(ml.parameters.CLFO.value / l.parameters.CLFO.value).toBeCloseTo(1000, 10);
    expect(ml.parameters.VZFO.value).toBeCloseTo(1000 * (100 / (22.75 + 0.75 / (Math.LN2 / 2)) / (Math.LN2 / 2)), 8);
    expect(ml.parameters.AUCLST).toEqual({ value: 22.75, unit: 'h*mg/L' });
  });

  it('exits 2 on a --volume-unit that is not a volume', async () => {
    expect(await main(['nca', input, '--subject', 'id', '--time', 't', '--conc', 'c', '--volume-unit', 'kg'])).toBe(2);
    expect(stderr.join('')).toContain('--volume-unit');
  });

  it('exits 2 on a usage error', async () => {
    expect(await main(['nca', input, '--route', 'oral'])).toBe(2);
    expect(await main(['nca', join(dir, 'absent.csv')])).toBe(2);
    expect(await main(['nca', input, '--subject', 'id', '--time', 't', '--conc', 'nope'])).toBe(2);
    expect(stderr.join('')).toContain('no column "nope"');
  });
});

describeShared('pkdb nca on Theoph vs WinNonlin', SHARED_NCA_DIR, () => {
  it('reproduces WinNonlin AUClast and Lambda_z (log-down) through the command', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'pkdb-nca-')), 'theoph.csv');
    const code = await main(['nca', join(SHARED_NCA_DIR, 'theoph.csv'), '--dose', '320', '--auc-method', 'lin-up-log-down', '--out', out]);
    expect(code).toBe(0);
    const ours = parseCsv(readFileSync(out, 'utf8'));
    const reference = parseCsv(readFileSync(join(SHARED_NCA_DIR, 'theoph_winnonlin_log.csv'), 'utf8'));
    expect(ours.size).toBe(12);
    for (const [subject, ref] of reference) {
      expect(Math.abs(Number(ours.get(subject)!.AUCLST) / Number(ref.AUClast) - 1)).toBeLessThan(1e-6);
      expect(Math.abs(Number(ours.get(subject)!.LAMZ) / Number(ref.Lambda_z) - 1)).toBeLessThan(1e-6);
      expect(Number(ours.get(subject)!.CMAX)).toBe(Number(ref.Cmax));
    }
  });
});

describe('pkdb nca: units, intervals, the shipped example', () => {
  const example = join(PROJECT_ROOT, 'docs', 'examples', 'nca-profiles.csv');
  const dir = mkdtempSync(join(tmpdir(), 'pkdb-nca-glue-'));

  it('refuses unknown or wrong-kind unit spellings (exit 2, naming the option)', async () => {
    for (const [option, unit] of [['--dose-unit', 'mgg'], ['--time-unit', 'mg'], ['--conc-unit', 'h'], ['--dose-unit', 'L']]) {
      stderr = [];
      expect(await main(['nca', example, option, unit])).toBe(2);
      expect(stderr.join('')).toContain(`${option}:`);
    }
    expect(await main(['nca', example, '--dose-col', 'dose', '--dose-unit', 'ug', '--conc-unit', 'ng/mL', '--out', join(dir, 'ok.csv')])).toBe(0);
  });

  it('prints units in the CSV header: CODE [unit], ratios bare; ug with ng/mL gives volumes in L', async () => {
    const out = join(dir, 'units.csv');
    expect(await main(['nca', example, '--dose-col', 'dose', '--dose-unit', 'ug', '--conc-unit', 'ng/mL', '--time-unit', 'min', '--out', out])).toBe(0);
    const header = readFileSync(out, 'utf8').split('\n')[0].split(',');
    expect(header).toEqual(expect.arrayContaining(['CMAX [ng/mL]', 'AUCLST [min*ng/mL]', 'LAMZ [1/min]', 'VZFO [L]', 'CLFO [L/min]', 'R2', 'AUCPEO [%]']));
  });

  it('--interval START:END and an interval file give one row per subject and interval (AUCINT 0–12 = AUCLST of the 12-h data)', async () => {
    const file = join(dir, 'intervals.csv');
    writeFileSync(file, 'start,end,parameters\n0,12,AUCINT CMAX\n');
    const out = join(dir, 'iv.csv');
    expect(await main(['nca', example, '--dose-col', 'dose', '--interval', '0:24', '--intervals', file, '--out', out])).toBe(0);
    const [header, ...lines] = readFileSync(out, 'utf8').trim().split('\n');
    expect(header.startsWith('subject,start,end,dose_time,CMAX [mg/L]')).toBe(true);
    expect(lines.map((l) => l.split(',').slice(0, 3).join(','))).toEqual(['S01,0,24', 'S01,0,12', 'S02,0,24', 'S02,0,12']);
    const col = header.split(',').indexOf('AUCINT [h*mg/L]');
    // S01 to 12 h, linear trapezoids: 0.5·(0+5.37)/2 + 0.5·(5.37+7.47)/2 + (7.47+7.96)/2 + (7.96+7.09)/2 + (7.09+6.06)/2 + (6.06+4.34) + (4.34+3.09) + 2·(3.09+1.56)
    expect(Number(lines[1].split(',')[col])).toBeCloseTo(1.3425 + 3.21 + 7.715 + 7.525 + 6.575 + 10.4 + 7.43 + 9.3, 10);
    expect(await main(['nca', example, '--interval', '5:1'])).toBe(2);
    writeFileSync(file, 'start,stop\n0,12\n');
    expect(await main(['nca', example, '--intervals', file])).toBe(2);
  });
});
