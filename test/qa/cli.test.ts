import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { FINDING_COLUMNS } from '../../src/qa/finding.js';
import { CALCULATED_COLUMNS } from '../../src/qa/to-findings.js';

/** Runs the CLI, capturing stdout and stderr. */
async function pkdb(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const write = { out: process.stdout.write.bind(process.stdout), err: process.stderr.write.bind(process.stderr) };
  process.stdout.write = ((chunk: string) => out.push(String(chunk)) > 0) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string) => err.push(String(chunk)) > 0) as typeof process.stderr.write;
  try {
    const code = await main(args);
    return { code, stdout: out.join(''), stderr: err.join('') };
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
  }
}

describe('pkdb qa', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pkdb-qa-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every output on the fixtures and exits 1 for their major findings', async () => {
    const out = join(dir, 'all');
    const { code, stdout } = await pkdb(['qa', '--out', out, '--json']);
    expect(code).toBe(1);
    const summary = JSON.parse(stdout) as { by_severity: Record<string, number>; findings: number };
    expect(summary.by_severity.major).toBeGreaterThan(0);
    for (const file of ['findings.json', 'findings.csv', 'summary.json', 'calculated.csv', 'report.html']) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
    expect(readFileSync(join(out, 'findings.csv'), 'utf8').split('\n')[0]).toBe(FINDING_COLUMNS.join(','));
    expect(readFileSync(join(out, 'calculated.csv'), 'utf8').split('\n')[0]).toBe(CALCULATED_COLUMNS.join(','));
    const findings = JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as unknown[];
    expect(findings).toHaveLength(summary.findings);
    expect(readdirSync(join(out, 'plots')).filter((f) => f.endsWith('.vl.json')).length).toBeGreaterThanOrEqual(3);
  });

  it('exits 0 with --fail-on never, skips HTML with --no-html and renders PNG with --png', async () => {
    const out = join(dir, 'quiet');
    const { code } = await pkdb(['qa', '--out', out, '--fail-on', 'never', '--no-html', '--png', '--study', 'SYN0002']);
    expect(code).toBe(0);
    expect(existsSync(join(out, 'report.html'))).toBe(false);
    const pngs = readdirSync(join(out, 'plots')).filter((f) => f.endsWith('.png'));
    expect(pngs.length).toBeGreaterThanOrEqual(2);
    expect(readFileSync(join(out, 'plots', pngs[0])).subarray(1, 4).toString('ascii')).toBe('PNG');
  });

  it('exits 2 with one line for a usage error or an unreadable source', async () => {
    const bad = await pkdb(['qa', '--out', join(dir, 'x'), '--fail-on', 'sometimes']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    const missing = await pkdb(['qa', '--out', join(dir, 'y'), '--export', join(dir, 'no-such.zip')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/no-such\.zip/);
    const study = await pkdb(['qa', '--out', join(dir, 'z'), '--study', 'NOPE0000']);
    expect(study.code).toBe(2);
    expect(study.stderr).toMatch(/NOPE0000/);
  });
});
