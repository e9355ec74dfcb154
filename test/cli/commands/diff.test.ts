import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pkdb } from '../../helpers/cli.js';
import { DIFF_COLUMNS } from '../../../src/report/diff.js';
import { SLIP_OUTPUT, plantedReleases } from '../../helpers/planted-release.js';

describe('pkdb diff', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pkdb-diff-cli-'));
  const oldZip = join(dir, 'old.zip');
  const newZip = join(dir, 'new.zip');
  beforeAll(async () => {
    const planted = await plantedReleases();
    writeFileSync(oldZip, planted.oldZip);
    writeFileSync(newZip, planted.newZip);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('exits 1 with the planted changes and writes diff.json, diff.csv and diff.html', async () => {
    const out = join(dir, 'out');
    const run = await pkdb(['diff', oldZip, newZip, '--out', out]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('studies: 1 added, 0 removed, 2 changed');
    expect(run.stdout).toMatch(/findings \(minor and major\): 2 resolved, \d+ introduced, 0 changed, \d+ unchanged/);
    for (const file of ['diff.json', 'diff.csv', 'diff.html']) expect(existsSync(join(out, file)), file).toBe(true);
    const csv = readFileSync(join(out, 'diff.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe(DIFF_COLUMNS.join(','));
    const slip = csv.find((line) => line.startsWith('record,changed,outputs,SYN0002,'));
    expect(slip).toContain(`,${SLIP_OUTPUT},${SLIP_OUTPUT},value,`);
    expect(slip).toContain('×1000 (milli/micro prefix slip');
    expect(csv.some((line) => line.startsWith('study,added,studies,SYN0099,'))).toBe(true);
    expect(csv.some((line) => line.startsWith('record,removed,outputs,SYN0004,'))).toBe(true);
    const json = JSON.parse(readFileSync(join(out, 'diff.json'), 'utf8')) as { differences: boolean; studies: { added: string[] } };
    expect(json).toMatchObject({ differences: true, studies: { added: ['SYN0099'] } });
    expect(readFileSync(join(out, 'diff.html'), 'utf8')).toContain('Findings resolved (2)');
  });

  it('exits 0 for identical releases; --json prints the diff; --study narrows both sides', async () => {
    const same = await pkdb(['diff', oldZip, oldZip, '--json', '--no-qa']);
    expect(same.code).toBe(0);
    expect(JSON.parse(same.stdout)).toMatchObject({ differences: false, findings: null, records: [] });
    const syn5 = await pkdb(['diff', oldZip, newZip, '--study', 'Synthetic2020e', '--json']);
    expect(syn5.code).toBe(0);
  });

  it('takes a --study only one release has (one added since), and refuses one neither has', async () => {
    const added = await pkdb(['diff', oldZip, newZip, '--study', 'Copy2021', '--json']);
    expect(added.code).toBe(1);
    expect(JSON.parse(added.stdout)).toMatchObject({ studies: { added: ['SYN0099'], removed: [], changed: [] } });
    const nobody = await pkdb(['diff', oldZip, newZip, '--study', 'Nobody1999']);
    expect(nobody.code).toBe(2);
    expect(nobody.stderr.trim()).toBe('pkdb: unknown study Nobody1999 in both releases');
  });

  it('exits 2 with one line for a missing side or an unreadable zip', async () => {
    const missing = await pkdb(['diff', oldZip]);
    expect(missing.code).toBe(2);
    expect(missing.stderr.trim()).toBe('pkdb: NEW is missing: give an export zip or --new-base-url');
    const both = await pkdb(['diff', oldZip, newZip, '--old-base-url', 'http://127.0.0.1:1/api/v1/']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/OLD as a zip or --old-base-url, not both/);
    const bad = await pkdb(['diff', oldZip, join(dir, 'nope.zip')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/nope\.zip/);
  });
});
