/**
 * Runs every notebook on the bundled fixtures, as a user would
 * (`node --import tsx notebooks/NN-name.ts --out DIR`), and checks that each
 * writes its tables and figures, with a few content checks that tie the
 * outputs to what the fixtures and the simulation contain.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import * as aq from 'arquero';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedFixtureFindings } from '../../src/data/fixtures.js';
import { PARAMETER } from '../../src/nca/index.js';
import { describeShared, PROJECT_ROOT, SHARED_EXPORT } from '../helpers/shared.js';

const run = promisify(execFile);

interface NotebookRun {
  out: string;
  stdout: string;
}

async function runNotebook(name: string, root: string, extra: string[] = []): Promise<NotebookRun> {
  const out = join(root, name);
  const { stdout } = await run(process.execPath, ['--import', 'tsx', join('notebooks', `${name}.ts`), '--out', out, ...extra], {
    cwd: PROJECT_ROOT,
    maxBuffer: 32 * 1024 * 1024,
  });
  return { out, stdout };
}

function nonEmpty(dir: string, file: string): number {
  return statSync(join(dir, file)).size;
}

function csv(dir: string, file: string) {
  return aq.fromCSV(readFileSync(join(dir, file), 'utf8'));
}

const figures = (...names: string[]) => names.flatMap((n) => [`${n}.vl.json`, `${n}.svg`, `${n}.png`]);

const EXPECTED_FILES: Record<string, string[]> = {
  '01-explore-dataset': ['counts.json', 'studies.csv', 'substances.csv', 'groups.csv', 'characteristica.csv', 'characteristica-wide.csv', 'outputs-per-substance.csv', ...figures('outputs-overview')],
  '02-nca-theophylline-like': [
    'theophylline-like.csv', 'auc-methods.csv', 'lambda-z.csv', 'nca-parameters.csv', 'nca-parameter-units.csv', 'nca-pp.csv', 'nca-summary.csv', 'nca-vs-truth.csv', 'dataset-nca.csv',
    ...figures('spaghetti', 'spaghetti-log', 'lambda-z-panels'),
  ],
  '03-qa-one-study': ['findings.csv', 'summary.json', 'comparisons.csv', 'planted-errors.csv', ...figures('reported-vs-recomputed', 'timecourse-4', 'timecourse-5')],
  '04-units': ['raw-vs-normed.csv', 'molar-vs-mass.csv', 'ratios.csv', 'normed-vs-raw-findings.csv', ...figures('unit-slip-ratios')],
  '05-half-life-meta-analysis': ['halflife-records.csv', 'halflife-arms.csv', 'halflife-pooled.csv', ...figures('halflife-forest')],
  '06-multiple-dose-and-urine': ['candidates.json'],
};

describe('notebooks on the bundled fixtures', () => {
  const root = mkdtempSync(join(tmpdir(), 'pkdb-notebooks-'));
  const runs = new Map<string, NotebookRun>();

  beforeAll(async () => {
    // Two at a time: the machine has two cores, and each notebook is one Node process.
    const names = Object.keys(EXPECTED_FILES);
    for (let i = 0; i < names.length; i += 2) {
      const batch = names.slice(i, i + 2);
      const results = await Promise.all(batch.map((name) => runNotebook(name, root)));
      batch.forEach((name, k) => runs.set(name, results[k]));
    }
  }, 120_000);

  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each(Object.entries(EXPECTED_FILES))('%s writes every table and figure, non-empty', (name, files) => {
    const { out } = runs.get(name)!;
    for (const file of files) expect(nonEmpty(out, file), `${name}/${file}`).toBeGreaterThan(0);
    for (const svg of files.filter((f) => f.endsWith('.svg'))) expect(readFileSync(join(out, svg), 'utf8')).toMatch(/^<svg[^>]*>/);
    for (const png of files.filter((f) => f.endsWith('.png'))) expect(readFileSync(join(out, png)).subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('01 counts the fixtures as the dataset counts them', async () => {
    const { loadFixtures } = await import('../../src/data/fixtures.js');
    const counts = JSON.parse(readFileSync(join(runs.get('01-explore-dataset')!.out, 'counts.json'), 'utf8'));
    expect(counts).toEqual((await loadFixtures()).counts());
    expect(csv(runs.get('01-explore-dataset')!.out, 'studies.csv').numRows()).toBe(counts.studies);
  });

  it('02 has one NCA row per simulated subject, with CMAX, and both AUC methods', () => {
    const { out } = runs.get('02-nca-theophylline-like')!;
    const input = csv(out, 'theophylline-like.csv');
    const subjects = new Set(input.array('subject') as string[]);
    expect(subjects.size).toBe(12);
    expect(input.numRows()).toBe(12 * 11);
    const nca = csv(out, 'nca-parameters.csv');
    expect(nca.numRows()).toBe(12);
    expect(nca.columnNames()).toEqual(expect.arrayContaining(['CMAX', 'AUCLST', 'AUCIFO', 'LAMZHL']));
    // CMAX is the largest observed concentration of each subject.
    const maxBySubject = input.groupby('subject').rollup({ m: aq.op.max('conc_mg_l') }).objects() as { subject: string; m: number }[];
    for (const { subject, m } of maxBySubject) expect(nca.filter(aq.escape((d: { subject: string }) => d.subject === subject)).get('CMAX', 0)).toBeCloseTo(m, 12);
    // Linear trapezoids overestimate a convex declining curve: never below lin-up/log-down.
    for (const row of csv(out, 'auc-methods.csv').objects() as { AUCLST_linear: number; AUCLST_linuplogdown: number }[]) {
      expect(row.AUCLST_linear).toBeGreaterThanOrEqual(row.AUCLST_linuplogdown);
    }
    const pp = csv(out, 'nca-pp.csv');
    expect(pp.columnNames()).toEqual(['USUBJID', 'PPTESTCD', 'PPTEST', 'PPORRES', 'PPORRESU', 'PPREASND']);
    expect(pp.filter((d: { PPTESTCD: string }) => d.PPTESTCD === 'AUCIFO').array('PPORRESU')).toEqual(Array(12).fill('h*mg/L'));
    // Test names come from the parameter table.
    for (const row of pp.objects() as { PPTESTCD: keyof typeof PARAMETER; PPTEST: string }[]) expect(row.PPTEST).toBe(PARAMETER[row.PPTESTCD].test);
  });

  it('03 reports the planted ×1000 slip of its study as major', async () => {
    const { out, stdout } = runs.get('03-qa-one-study')!;
    const slip = (await expectedFixtureFindings()).find((f) => f.error === 'unit-slip' && f.factor === 0.001)!;
    expect(stdout).toContain(`Study ${slip.study_sid}`);
    const findings = csv(out, 'findings.csv').objects() as { kind: string; severity: string; output_pk: number; ratio: number; suspected_cause: string }[];
    const hit = findings.find((f) => f.output_pk === slip.output_pk && f.kind === slip.kind);
    expect(hit?.severity).toBe('major');
    expect(hit?.ratio).toBeCloseTo(0.001, 6);
    expect(hit?.suspected_cause).toContain('1000');
    expect((csv(out, 'planted-errors.csv').array('severity') as string[]).every((s) => s === 'major')).toBe(true);
  });

  it('04 shows the planted normed-copy slip as a ratio of 1/1000', async () => {
    const { out } = runs.get('04-units')!;
    const planted = (await expectedFixtureFindings()).find((f) => f.kind === 'normed-vs-raw')!;
    const ratios = csv(out, 'ratios.csv').objects() as { record: string; check: string; ratio: number; verdict: string }[];
    const slip = ratios.find((r) => r.check === 'normed vs raw' && r.record === `output ${planted.output_pk}`);
    expect(slip?.verdict).toBe('unit slip');
    expect(slip?.ratio).toBeCloseTo(planted.factor!, 9);
    // Every other normed copy re-derives exactly.
    expect(ratios.filter((r) => r.check === 'normed vs raw' && r.verdict === 'unit slip')).toHaveLength(1);
  });

  it('05 pools each caffeine study once, within the range of its arms', () => {
    const { out } = runs.get('05-half-life-meta-analysis')!;
    const arms = csv(out, 'halflife-arms.csv').objects() as { study_sid: string; source: string; estimate: number }[];
    expect(new Set(arms.map((a) => a.study_sid))).toEqual(new Set(['SYN0001', 'SYN0005']));
    const pooled = csv(out, 'halflife-pooled.csv').objects() as { estimate_h: number; lower_h: number | null; upper_h: number | null }[];
    const estimates = arms.filter((a) => a.source === 'reported').map((a) => a.estimate);
    for (const p of pooled) {
      expect(p.estimate_h).toBeGreaterThanOrEqual(Math.min(...estimates));
      expect(p.estimate_h).toBeLessThanOrEqual(Math.max(...estimates));
    }
    expect(pooled[0].lower_h!).toBeLessThan(pooled[0].estimate_h);
    expect(pooled[0].upper_h!).toBeGreaterThan(pooled[0].estimate_h);
  });

  it('05 pools one value per arm: the reported one, the recomputed one only where nothing is reported', () => {
    const { out, stdout } = runs.get('05-half-life-meta-analysis')!;
    const arms = csv(out, 'halflife-arms.csv').objects() as { study_name: string; arm: string; source: string; pooled: boolean }[];
    const pooledArms = arms.filter((a) => a.pooled);
    expect(new Set(pooledArms.map((a) => `${a.study_name}|${a.arm}`)).size).toBe(pooledArms.length);
    for (const a of arms.filter((x) => x.source === 'recomputed')) {
      expect(a.pooled).toBe(!arms.some((r) => r.source === 'reported' && r.study_name === a.study_name && r.arm === a.arm));
    }
    expect(pooledArms.length).toBe(Number(csv(out, 'halflife-pooled.csv').get('arms', 1)));
    expect(stdout).toContain('Left out 0 of');
  });

  it('06 on the fixtures says they hold no multiple-dose or urine data and points at --export', () => {
    const { out, stdout } = runs.get('06-multiple-dose-and-urine')!;
    expect(JSON.parse(readFileSync(join(out, 'candidates.json'), 'utf8'))).toEqual([]);
    expect(stdout).toMatch(/No multiple-dose timecourse and no urine cumulative amount/);
    expect(stdout).toContain('--export');
  });

  it('a bad flag or an unknown study ends with one line and exit code 2', async () => {
    await Promise.all([
      expect(runNotebook('03-qa-one-study', root, ['--study', 'NOPE0000'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('unknown study "NOPE0000"') }),
      expect(runNotebook('01-explore-dataset', root, ['--export', join(root, 'missing.zip')])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('missing.zip') }),
    ]);
  });
});

describeShared('notebook 06 on the shared export', SHARED_EXPORT, () => {
  const root = mkdtempSync(join(tmpdir(), 'pkdb-notebook06-'));
  let result: NotebookRun;
  beforeAll(async () => {
    result = await runNotebook('06-multiple-dose-and-urine', root, ['--export', SHARED_EXPORT]);
  }, 90_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes the interval table, the superposition comparison, the urine parameters and both figures', () => {
    for (const file of ['multiple-dose-interval.csv', 'superposition-vs-observed.csv', 'superposition-profile.csv', 'urine-parameters.csv', 'urine-collections.csv', ...figures('multiple-dose', 'urine-cumulative')]) {
      expect(nonEmpty(result.out, file), file).toBeGreaterThan(0);
    }
  });

  it('analyses a regular multiple-dose regimen: AUCτ,ss near the predicted steady state, Cmin ≤ Cavg ≤ Cmax', () => {
    const candidates = JSON.parse(readFileSync(join(result.out, 'candidates.json'), 'utf8')) as { kind: string; doses: number; tau: number | null; single_dose_profile: number | null }[];
    const chosen = candidates.find((c) => c.kind === 'multiple dose')!;
    expect(chosen.doses).toBeGreaterThanOrEqual(2);
    expect(chosen.tau).toBeGreaterThan(0);
    expect(chosen.single_dose_profile).not.toBeNull();
    const p = Object.fromEntries((csv(result.out, 'multiple-dose-interval.csv').objects() as { PPTESTCD: string; value: number }[]).map((r) => [r.PPTESTCD, r.value]));
    expect(p.TAU).toBe(chosen.tau);
    expect(p.CMIN).toBeLessThanOrEqual(p.CAVG);
    expect(p.CAVG).toBeLessThanOrEqual(p.CMAX);
    expect(p.CAVG).toBeCloseTo(p.AUCTAU / p.TAU, 12);
    expect(p.AILAMZ).toBeGreaterThan(1);
    const cmp = Object.fromEntries((csv(result.out, 'superposition-vs-observed.csv').objects() as { quantity: string; observed: number; predicted_steady_state: number }[]).map((r) => [r.quantity.split(' ')[0], r]));
    // Linear kinetics: the observed AUCτ at steady state is the single-dose AUC∞ (within 20 % for a curated mean curve).
    expect(cmp['AUCτ'].observed / cmp['AUCτ'].predicted_steady_state).toBeGreaterThan(0.8);
    expect(cmp['AUCτ'].observed / cmp['AUCτ'].predicted_steady_state).toBeLessThan(1.25);
    expect(cmp.accumulation.predicted_steady_state).toBeGreaterThan(1);
  });

  it('gives Ae as the last cumulative amount, fe = Ae/dose in (0, 1), the peak excretion rate and a positive CLR', () => {
    const p = Object.fromEntries((csv(result.out, 'urine-parameters.csv').objects() as { code: string; value: number | null }[]).map((r) => [r.code, r.value]));
    const collections = csv(result.out, 'urine-collections.csv').objects() as { start: number; end: number; amount: number; rate: number; cumulative: number }[];
    expect(p.RCAMINT).toBeCloseTo(collections[collections.length - 1].cumulative, 12);
    expect(p.FREXINT).toBeGreaterThan(0);
    expect(p.FREXINT).toBeLessThan(1);
    expect(p.RCPCINT).toBeCloseTo(100 * p.FREXINT!, 9);
    expect(p.ERMAX).toBeCloseTo(Math.max(...collections.map((c) => c.amount / (c.end - c.start))), 12);
    expect(p.RENALCL).toBeGreaterThan(0);
    expect(result.stdout).toMatch(/fe [\d.]+ % of the dose/);
  });
});
