import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { describeShared, SHARED_NCA_DIR } from '../helpers/shared.js';

/** Parses the command's CSV (no quoted cells in these tests) into subject -> code -> cell. */
function parseCsv(text: string): Map<string, Record<string, string>> {
  const [header, ...lines] = text.trim().split('\n');
  const names = header.split(',');
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
