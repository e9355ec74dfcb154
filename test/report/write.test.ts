import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/data/dataset.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import { runQa, type QaResult } from '../../src/qa/run.js';
import { PLOTS_PER_TURN, writeQaOutputs, type WritePhase } from '../../src/report/write.js';

describe('writeQaOutputs', () => {
  const root = mkdtempSync(join(tmpdir(), 'pkdb-write-'));
  let dataset: Dataset;
  let result: QaResult;
  beforeAll(async () => {
    dataset = await loadFixtures();
    result = runQa(dataset);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('writes the data files, one plot per chart and the report folder, reporting progress by phase', async () => {
    const dir = join(root, 'all');
    const phases = new Map<WritePhase, [number, number]>();
    const written = await writeQaOutputs(result, dir, { html: true, png: false, dataset, onProgress: (phase, done, total) => phases.set(phase, [done, total]) });
    for (const file of ['findings.json', 'findings.csv', 'summary.json', 'calculated.csv', 'report/index.html', 'report/assets/vendor.js', 'report/assets/report.js', 'report/assets/report.css']) {
      expect(written).toContain(file);
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    const studies = new Set(result.findings.map((f) => f.study_sid));
    expect(readdirSync(join(dir, 'report', 'studies')).sort()).toEqual([...studies].map((s) => `${s}.html`).sort());
    const plots = readdirSync(join(dir, 'plots'));
    expect(phases.get('plots')).toEqual([plots.length, plots.length]);
    expect(phases.get('pages')).toEqual([studies.size, studies.size]);
    // The vendor builds are written once, not per page.
    for (const page of readdirSync(join(dir, 'report', 'studies'))) expect(readFileSync(join(dir, 'report', 'studies', page), 'utf8')).not.toContain('vega-embed');
  });

  it('writes every plot whole while the event loop turns between plots, reporting each in order', async () => {
    const dir = join(root, 'turns');
    const done: number[] = [];
    let turns = 0;
    const ticker = setInterval(() => turns++, 0);
    const written = await writeQaOutputs(result, dir, { html: false, png: false, onProgress: (phase, n) => phase === 'plots' && done.push(n) });
    clearInterval(ticker);
    const plots = written.filter((f) => f.startsWith('plots'));
    expect(plots.length).toBeGreaterThan(PLOTS_PER_TURN); // the fixtures give more plots than one turn holds
    expect(done).toEqual(plots.map((_, i) => i + 1));
    expect(turns).toBeGreaterThan(0); // timers ran while the plots were written
    for (const file of plots) expect(JSON.parse(readFileSync(join(dir, file), 'utf8')).$schema).toMatch(/vega-lite/);
  });

  it('an abort while writing leaves the previous report as it was and no temporary folder', async () => {
    const dir = join(root, 'abort');
    await writeQaOutputs(result, dir, { html: true, png: false, dataset });
    const before = readFileSync(join(dir, 'findings.json'), 'utf8');
    const listing = readdirSync(join(dir, 'report', 'studies'));
    const controller = new AbortController();
    const other = { ...result, findings: result.findings.filter((f) => f.study_sid === 'SYN0002') };
    const run = writeQaOutputs(other, dir, {
      html: true,
      png: false,
      signal: controller.signal,
      onProgress: (phase) => phase === 'pages' && controller.abort(new Error('stop')),
    });
    await expect(run).rejects.toThrow('stop');
    expect(readFileSync(join(dir, 'findings.json'), 'utf8')).toBe(before);
    expect(readdirSync(join(dir, 'report', 'studies'))).toEqual(listing);
    expect(readdirSync(root).filter((e) => e.includes('.pkdb-qa-tmp-'))).toEqual([]);
  });

  it('an abort with writes in flight waits for them before removing the temporary folder', async () => {
    // Removing the folder while a write was still creating a file left it behind (ENOTEMPTY): a flaky CI run.
    const dir = join(root, 'in-flight');
    for (let attempt = 0; attempt < 5; attempt++) {
      const controller = new AbortController();
      const run = writeQaOutputs(result, dir, {
        html: true,
        png: false,
        dataset,
        signal: controller.signal,
        onProgress: (phase, done) => phase === 'pages' && done === 1 && controller.abort(new Error('stop')),
      });
      await expect(run).rejects.toThrow('stop');
      expect(readdirSync(root).filter((e) => e.includes('.pkdb-qa-tmp-'))).toEqual([]);
    }
    expect(existsSync(dir)).toBe(false);
  });

  it('renders PNGs one at a time with their progress', async () => {
    const dir = join(root, 'png');
    const one = { ...result, findings: result.findings.filter((f) => f.study_sid === 'SYN0002') };
    const seen: number[] = [];
    await writeQaOutputs(one, dir, { html: false, png: true, onProgress: (phase, done) => phase === 'PNG' && seen.push(done) });
    const pngs = readdirSync(join(dir, 'plots')).filter((f) => f.endsWith('.png'));
    expect(pngs.length).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual(pngs.map((_, i) => i + 1));
    for (const png of pngs) expect(readFileSync(join(dir, 'plots', png)).subarray(1, 4).toString('ascii')).toBe('PNG');
  });
});
