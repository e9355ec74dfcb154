import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pkdb } from '../../helpers/cli.js';
import { FINDING_COLUMNS } from '../../../src/qa/finding.js';
import { CALCULATED_COLUMNS } from '../../../src/qa/to-findings.js';
import { PROJECT_ROOT } from '../../helpers/shared.js';
import { cloneTables, renumberStudy } from '../../helpers/releases.js';
import { readExport } from '../../../src/data/export/read.js';
import { writeExport } from '../../../src/data/export/write.js';
import { FIXTURES_EXPORT, loadFixtures } from '../../../src/data/fixtures.js';
import { startServer } from '../../../src/server/app.js';
import { filterStudies } from '../../../src/data/select.js';

describe('pkdb qa', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pkdb-qa-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every output on the fixtures and exits 1 for their major findings', async () => {
    const out = join(dir, 'all');
    const { code, stdout } = await pkdb(['qa', '--out', out, '--format', 'summary']);
    expect(code).toBe(1);
    const summary = JSON.parse(stdout) as { by_severity: Record<string, number>; findings: number };
    expect(summary.by_severity.major).toBeGreaterThan(0);
    for (const file of ['findings.json', 'findings.csv', 'summary.json', 'calculated.csv', 'report/index.html', 'report/assets/vendor.js', 'report/studies/SYN0002.html']) {
      expect(existsSync(join(out, file)), file).toBe(true);
    }
    expect(readFileSync(join(out, 'findings.csv'), 'utf8').split('\n')[0]).toBe([...FINDING_COLUMNS, 'review'].join(','));
    expect(FINDING_COLUMNS[0]).toBe('id');
    expect(readFileSync(join(out, 'calculated.csv'), 'utf8').split('\n')[0]).toBe(CALCULATED_COLUMNS.join(','));
    const findings = JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { id: string }[];
    expect(findings).toHaveLength(summary.findings);
    for (const f of findings) expect(f.id).toMatch(/^F-[0-9a-f]{12}$/);
    // findings.csv carries the same ids in the same order.
    const csvIds = readFileSync(join(out, 'findings.csv'), 'utf8').trim().split('\n').slice(1).map((line) => line.split(',')[0]);
    expect(csvIds).toEqual(findings.map((f) => f.id));
    expect(readdirSync(join(out, 'plots')).filter((f) => f.endsWith('.vl.json')).length).toBeGreaterThanOrEqual(3);
  });

  it('exits 0 with --fail-on never, skips HTML with --no-html and renders PNG with --png', async () => {
    const out = join(dir, 'quiet');
    const { code } = await pkdb(['qa', '--out', out, '--fail-on', 'never', '--no-html', '--png', '--study', 'SYN0002']);
    expect(code).toBe(0);
    expect(existsSync(join(out, 'report'))).toBe(false);
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

  it('takes study names as well as sids for --study', async () => {
    const byName = await pkdb(['qa', '--out', join(dir, 'named'), '--study', 'Synthetic2020b', '--no-html', '--format', 'summary']);
    const bySid = await pkdb(['qa', '--out', join(dir, 'sid'), '--study', 'SYN0002', '--no-html', '--format', 'summary']);
    expect(byName.code).toBe(1);
    expect(bySid.code).toBe(1);
    const a = JSON.parse(byName.stdout) as { studies: number; by_study: Record<string, unknown> };
    expect(a.studies).toBe(1);
    expect(Object.keys(a.by_study)).toEqual(['SYN0002']);
    expect(readFileSync(join(dir, 'named', 'findings.json'), 'utf8')).toBe(readFileSync(join(dir, 'sid', 'findings.json'), 'utf8'));
  });

  it('checks a --study study against every other study: its reference-range major stays, the pages are its own', async () => {
    const out = join(dir, 'syn12');
    const { code, stdout } = await pkdb(['qa', '--out', out, '--study', 'SYN0012', '--format', 'summary']);
    expect(code).toBe(1);
    const summary = JSON.parse(stdout) as { studies: number; by_study: Record<string, { major: number }> };
    expect(summary.studies).toBe(1);
    expect(Object.keys(summary.by_study)).toEqual(['SYN0012']);
    // The planted caffeine Cmax per dose ×1000 (fixtures/EXPECTED_FINDINGS.md) is told by the five other studies only.
    const findings = JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { kind: string; severity: string; study_sid: string }[];
    expect(findings.filter((f) => f.kind === 'reference-range' && f.severity === 'major')).toHaveLength(1);
    expect(new Set(findings.map((f) => f.study_sid))).toEqual(new Set(['SYN0012']));
    expect(readdirSync(join(out, 'report', 'studies'))).toEqual(['SYN0012.html']);
    expect(readFileSync(join(out, 'report', 'index.html'), 'utf8')).toContain('1 studies (set against 20 other studies)');
  });

  it('checks the studies of a small export against a --reference release, whose pks it may share', async () => {
    // SYN0012 as a curation server exports it: alone, renumbered onto pks the release uses for other studies.
    const { tables } = await readExport(FIXTURES_EXPORT);
    const own = cloneTables(filterStudies(tables, ['SYN0012']));
    renumberStudy(own, 'SYN0012', 1 - Math.min(...own.outputs.map((o) => o.pk), ...own.groups.map((g) => g.pk), ...own.interventions.map((i) => i.pk)));
    const zip = join(dir, 'syn12.zip');
    writeFileSync(zip, writeExport(own));
    const majors = (out: string) =>
      (JSON.parse(readFileSync(join(out, 'findings.json'), 'utf8')) as { kind: string; severity: string }[]).filter((f) => f.kind === 'reference-range' && f.severity === 'major');
    const alone = await pkdb(['qa', '--export', zip, '--out', join(dir, 'alone'), '--no-html', '--fail-on', 'never']);
    expect(alone.code).toBe(0);
    expect(majors(join(dir, 'alone'))).toEqual([]);
    const joined = await pkdb(['qa', '--export', zip, '--reference', FIXTURES_EXPORT, '--out', join(dir, 'joined'), '--no-html', '--format', 'summary']);
    expect(joined.code).toBe(1);
    expect(JSON.parse(joined.stdout)).toMatchObject({ studies: 1, reference_studies: 20, by_study: { SYN0012: expect.anything() } });
    expect(Object.keys((JSON.parse(joined.stdout) as { by_study: object }).by_study)).toEqual(['SYN0012']);
    expect(majors(join(dir, 'joined'))).toHaveLength(1);
    // From a server, --study crawls that study alone: said on stderr; --reference gives it the others back.
    const server = await startServer({ dataset: await loadFixtures(), port: 0 });
    try {
      const crawled = await pkdb(['qa', '--base-url', server.url, '--study', 'SYN0012', '--out', join(dir, 'crawled'), '--no-html', '--fail-on', 'never']);
      expect(crawled.code).toBe(0);
      expect(crawled.stderr).toMatch(/--study crawls only those studies .* --reference/);
      expect(majors(join(dir, 'crawled'))).toEqual([]);
      const referenced = await pkdb(['qa', '--base-url', server.url, '--study', 'SYN0012', '--reference', FIXTURES_EXPORT, '--out', join(dir, 'ref'), '--no-html', '--fail-on', 'never']);
      expect(referenced.stderr).not.toMatch(/--study crawls only/);
      expect(majors(join(dir, 'ref'))).toHaveLength(1);
      expect(referenced.stdout).toMatch(/^1 studies \(set against 20 other studies\), /);
    } finally {
      await server.close();
    }
    const missing = await pkdb(['qa', '--export', zip, '--reference', join(dir, 'none.zip'), '--out', join(dir, 'x2')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--reference: .*none\.zip/);
    // Not a zip: one line naming the option, nothing written.
    const notZip = join(dir, 'not-a-zip.zip');
    writeFileSync(notZip, 'studies,groups\n1,2\n');
    const malformed = await pkdb(['qa', '--export', zip, '--reference', notZip, '--out', join(dir, 'x3')]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr.trim().split('\n')).toHaveLength(1);
    expect(malformed.stderr).toMatch(/--reference: .*not-a-zip\.zip/);
    expect(existsSync(join(dir, 'x3'))).toBe(false);
  });
});

describe('pkdb qa --accepted and --accept-all-to', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pkdb-qa-accepted-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const accepted = join(dir, 'accepted.json');

  it('writes the major findings as a starting file, refuses to overwrite it without --force', async () => {
    const first = await pkdb(['qa', '--out', join(dir, 'r1'), '--no-html', '--accept-all-to', accepted, '--who', 'jdoe', '--why', 'reviewed in test']);
    expect(first.code).toBe(1);
    const file = JSON.parse(readFileSync(accepted, 'utf8')) as { accepted: { id: string; who: string; why: string; seen: object }[] };
    const majors = (JSON.parse(readFileSync(join(dir, 'r1', 'findings.json'), 'utf8')) as { id: string; severity: string }[]).filter((f) => f.severity === 'major');
    expect(file.accepted.map((e) => e.id)).toEqual(majors.map((f) => f.id));
    expect(file.accepted[0]).toMatchObject({ who: 'jdoe', why: 'reviewed in test' });
    const again = await pkdb(['qa', '--out', join(dir, 'r1b'), '--no-html', '--accept-all-to', accepted]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/accepted\.json exists; give --force/);
    expect((await pkdb(['qa', '--out', join(dir, 'r1c'), '--no-html', '--accept-all-to', accepted, '--who', 'jdoe', '--force'])).code).toBe(1);
  });

  it('with every major finding accepted exits 0; the summary counts them apart and lists stale entries', async () => {
    const file = JSON.parse(readFileSync(accepted, 'utf8')) as { accepted: Record<string, unknown>[] };
    file.accepted.push({ id: 'F-000000000000', who: 'jdoe', when: '2024-01-01', why: 'old', seen: { reported: null, recomputed: null, ratio: null } });
    writeFileSync(accepted, JSON.stringify(file));
    const run = await pkdb(['qa', '--out', join(dir, 'r2'), '--no-html', '--accepted', accepted]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/accepted in .*accepted\.json: \d+; re-opened \(values changed\): 0; open: 0 major/);
    expect(run.stdout).toMatch(/stale accepted entries \(id no longer found\): F-000000000000/);
    const summary = JSON.parse(readFileSync(join(dir, 'r2', 'summary.json'), 'utf8')) as { by_severity: { major: number }; review: { accepted: number; stale: { id: string }[] } };
    expect(summary.review.accepted).toBe(summary.by_severity.major);
    expect(summary.review.stale.map((s) => s.id)).toEqual(['F-000000000000']);
    const findings = JSON.parse(readFileSync(join(dir, 'r2', 'findings.json'), 'utf8')) as { severity: string; accepted?: { who: string } }[];
    for (const f of findings) expect(Boolean(f.accepted)).toBe(f.severity === 'major');
    expect(readFileSync(join(dir, 'r2', 'findings.csv'), 'utf8')).toMatch(/,accepted\n/);
  });

  it('re-opens an accepted finding whose values changed and fails again', async () => {
    const file = JSON.parse(readFileSync(accepted, 'utf8')) as { accepted: { seen: { reported: number | null } }[] };
    file.accepted[0].seen.reported = 12345;
    writeFileSync(accepted, JSON.stringify(file));
    const run = await pkdb(['qa', '--out', join(dir, 'r3'), '--no-html', '--accepted', accepted, '--format', 'summary']);
    expect(run.code).toBe(1);
    const summary = JSON.parse(run.stdout) as { review: { reopened: number; open_by_severity: { major: number } } };
    expect(summary.review).toMatchObject({ reopened: 1, open_by_severity: { major: 1 } });
  });

  it('exits 2 naming the file, entry and field of a malformed accepted file', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ accepted: [{ id: 'F-0123456789ab', who: 'x', when: '2024-01-01', seen: { reported: 1, recomputed: 1, ratio: 1 } }] }));
    const run = await pkdb(['qa', '--out', join(dir, 'r4'), '--no-html', '--accepted', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(`pkdb: ${bad}: entry 0 (F-0123456789ab): field 'why': missing`);
  });
});

describe('pkdb qa output handling', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pkdb-qa-out-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  /** Names in `dir` that are temporary folders of a run. */
  const leftovers = () => readdirSync(dir).filter((name) => name.includes('.pkdb-qa-tmp-'));

  it('--json prints the findings as findings.json has them, --format csv as findings.csv; an unknown format is a usage error', async () => {
    const out = join(dir, 'formats');
    const json = await pkdb(['qa', '--out', out, '--json', '--no-html']);
    expect(json.code).toBe(1);
    expect(json.stdout).toBe(readFileSync(join(out, 'findings.json'), 'utf8'));
    expect((JSON.parse(json.stdout) as { id: string }[]).length).toBeGreaterThan(0);
    const csv = await pkdb(['qa', '--out', out, '--format', 'csv', '--no-html']);
    expect(csv.stdout).toBe(readFileSync(join(out, 'findings.csv'), 'utf8'));
    const bad = await pkdb(['qa', '--out', out, '--format', 'xml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--format must be one of json, csv, summary, got "xml"/);
    expect((await pkdb(['qa', '--out', out, '--json', '--format', 'csv'])).code).toBe(2);
  });

  it('refuses a folder that is not a previous report unless --force, which keeps the other files', async () => {
    const out = join(dir, 'foreign');
    mkdirSync(out);
    writeFileSync(join(out, 'notes.txt'), 'my notes');
    const refused = await pkdb(['qa', '--out', out, '--no-html']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/foreign is not empty and not a previous report \(it holds notes\.txt\); .*--force/);
    expect(readdirSync(out)).toEqual(['notes.txt']);
    const forced = await pkdb(['qa', '--out', out, '--no-html', '--force']);
    expect(forced.code).toBe(1);
    expect(readFileSync(join(out, 'notes.txt'), 'utf8')).toBe('my notes');
    expect(existsSync(join(out, 'findings.csv'))).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it('replaces a previous report whole: no stale plot or page survives', async () => {
    const out = join(dir, 'again');
    expect((await pkdb(['qa', '--out', out])).code).toBe(1);
    writeFileSync(join(out, 'plots', 'timecourse-999999.vl.json'), '{}');
    writeFileSync(join(out, 'report', 'studies', 'GONE0001.html'), '<p>old</p>');
    const second = await pkdb(['qa', '--out', out, '--study', 'SYN0002']);
    expect(second.code).toBe(1);
    expect(existsSync(join(out, 'plots', 'timecourse-999999.vl.json'))).toBe(false);
    expect(readdirSync(join(out, 'report', 'studies'))).toEqual(['SYN0002.html']);
    expect(leftovers()).toEqual([]);
  });

  it('Ctrl-C while writing leaves the previous report intact, says so and exits 130', async () => {
    const out = join(dir, 'interrupted');
    expect((await pkdb(['qa', '--out', out, '--no-html'])).code).toBe(1);
    const before = readFileSync(join(out, 'findings.json'), 'utf8');
    const listing = readdirSync(join(out, 'plots')).sort();
    // A child process: the signal handler is the one a user's Ctrl-C reaches. --png keeps it writing long enough.
    const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'src', 'cli', 'main.ts'), 'qa', '--out', out, '--png', '--study', 'SYN0002'], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const tmp = join(dir, `.interrupted.pkdb-qa-tmp-${child.pid}`);
    const deadline = Date.now() + 60_000;
    while (!existsSync(tmp) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    expect(existsSync(tmp)).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/interrupted before the report was complete; .*interrupted is left as it was/);
    expect(readFileSync(join(out, 'findings.json'), 'utf8')).toBe(before);
    expect(readdirSync(join(out, 'plots')).sort()).toEqual(listing);
    expect(leftovers()).toEqual([]);
  }, 90_000);
});
