/**
 * The report in Chromium, on the fixtures (runs everywhere Chromium is) and on
 * the shared export (describeShared): the index loads and is usable at once,
 * a study page opens from it, its charts draw, the record ids on every study
 * page equal those in findings.csv, nothing is logged as an error, nothing is
 * fetched, and the JS heap stays small while visiting every study page.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { loadFixtures } from '../../src/data/fixtures.js';
import { STUDY_SIDS } from '../../fixtures/generator/studies.js';
import { runQa } from '../../src/qa/run.js';
import { writeQaOutputs } from '../../src/report/write.js';
import { cardIds, chromiumAvailable, CHROMIUM, drawCharts, expectedIds, jsHeapMb, openBrowser, sortedIds, type ReportBrowser } from '../helpers/browser.js';
import { SHARED_EXPORT, describeShared } from '../helpers/shared.js';

if (!chromiumAvailable && process.env.CI) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
if (!chromiumAvailable) console.warn(`[skip] report in the browser: ${CHROMIUM} not found (apt-get install chromium)`);

/** The part of a DOM table row the sort test reads (the project compiles without the DOM lib). */
type Row = { cells: { dataset: { sort?: string } }[] };

const fileUrl = (path: string) => pathToFileURL(path).href;

/**
 * Opens the index; resolves to the ms the browser took to load it (navigation
 * timing, start to the end of the load event) plus the ms its study filter
 * took to answer a search: the time until a curator can use it. Measured in
 * the page, so the test driver's own round trips do not count.
 */
async function openIndex(b: ReportBrowser, dir: string): Promise<number> {
  await b.page.goto(fileUrl(join(dir, 'report', 'index.html')), { waitUntil: 'load' });
  // Strings: the project compiles without the DOM lib.
  const loadMs = await b.page.evaluate<number>("performance.getEntriesByType('navigation')[0].loadEventEnd");
  const filterMs = await b.page.evaluate<number>(`(() => {
    const input = document.querySelector('input.filter[data-target="studies"]');
    const start = performance.now();
    input.value = 'zzz-no-such-study';
    input.dispatchEvent(new Event('input'));
    const visible = [...document.querySelectorAll('#studies tbody tr')].filter((tr) => !tr.hidden).length;
    const elapsed = performance.now() - start;
    input.value = '';
    input.dispatchEvent(new Event('input'));
    if (visible !== 0) throw new Error('filter left ' + visible + ' rows');
    return elapsed;
  })()`);
  return loadMs + filterMs;
}

/**
 * Visits every study page with findings in one tab, as a curator working down
 * the list would, checking its ids against findings.csv. Returns the largest
 * JS heap seen right after a page loaded (garbage included) and after a full
 * collection (sampled every `gcEvery` pages and at the end: what the pages hold).
 */
async function visitEveryStudy(b: ReportBrowser, dir: string, gcEvery = 20): Promise<{ pages: number; maxHeapMb: number; maxLiveHeapMb: number }> {
  const expected = expectedIds(dir);
  const files = readdirSync(join(dir, 'report', 'studies')).sort();
  expect(files.sort()).toEqual([...expected.keys()].sort());
  let maxHeapMb = 0;
  let maxLiveHeapMb = 0;
  for (let i = 0; i < files.length; i++) {
    const file = files[i];
    await b.page.goto(fileUrl(join(dir, 'report', 'studies', file)), { waitUntil: 'load' });
    expect(sortedIds(await cardIds(b.page)), file).toEqual(sortedIds(expected.get(file) ?? []));
    maxHeapMb = Math.max(maxHeapMb, await jsHeapMb(b.cdp));
    if ((i + 1) % gcEvery === 0 || i === files.length - 1) maxLiveHeapMb = Math.max(maxLiveHeapMb, await jsHeapMb(b.cdp, true));
  }
  return { pages: files.length, maxHeapMb, maxLiveHeapMb };
}

describe.skipIf(!chromiumAvailable)('the report in Chromium (fixtures)', () => {
  let dir: string;
  let b: ReportBrowser;
  /** Studies with at least one finding: each has a page. */
  let studiesWithFindings: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pkdb-report-'));
    const fixtures = await loadFixtures();
    const result = runQa(fixtures);
    studiesWithFindings = new Set(result.findings.map((f) => f.study_sid)).size;
    await writeQaOutputs(result, dir, { html: true, png: false, dataset: fixtures });
    b = await openBrowser();
  });

  afterAll(async () => {
    await b?.browser.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('loads the index in under 2 s and filters studies as the user types', async () => {
    expect(await openIndex(b, dir)).toBeLessThan(2000);
    const rows = b.page.locator('#studies tbody tr');
    expect(await rows.count()).toBe(STUDY_SIDS.length);
    await b.page.locator('input.filter[data-target="studies"]').fill('SYN0002');
    await expect.poll(() => b.page.locator('#studies tbody tr:visible').count()).toBe(1);
    await b.page.locator('input.filter[data-target="studies"]').fill('');
    await expect.poll(() => b.page.locator('#studies tbody tr:visible').count()).toBe(STUDY_SIDS.length);
  });

  it('sorts the studies by a clicked column', async () => {
    const header = b.page.locator('#studies th', { hasText: 'info' });
    const column = await header.evaluate((th) => (th as unknown as { cellIndex: number }).cellIndex);
    const read = () => b.page.locator('#studies tbody tr').evaluateAll((trs, i) => trs.map((tr) => Number((tr as unknown as Row).cells[i].dataset.sort)), column);
    await header.click();
    const ascending = await read();
    expect(ascending).toEqual([...ascending].sort((x, y) => x - y));
    expect(new Set(ascending).size).toBeGreaterThan(1);
    await header.click();
    expect(await read()).toEqual([...ascending].reverse());
  });

  it('opens a study page from the index; its charts draw', async () => {
    await b.page.goto(fileUrl(join(dir, 'report', 'index.html')));
    await b.page.locator('#studies a', { hasText: 'Synthetic2020b' }).click();
    await b.page.waitForURL(/studies\/SYN0002\.html$/);
    expect(await b.page.locator('h1').textContent()).toContain('Synthetic2020b');
    const marks = await drawCharts(b.page);
    expect(marks.length).toBeGreaterThanOrEqual(2);
    expect(marks.every((n) => n > 0)).toBe(true);
  });

  it('filters the findings of a study page', async () => {
    const cards = b.page.locator('article.finding');
    const total = await cards.count();
    await b.page.locator('input.filter[data-target="findings"]').fill('tmax');
    const shown = await b.page.locator('article.finding:visible').count();
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(total);
    await b.page.locator('input.filter[data-target="findings"]').fill('');
  });

  it('shows on every study page the ids findings.csv has, for every finding; stays small; logs no error and fetches nothing', async () => {
    const { pages, maxLiveHeapMb } = await visitEveryStudy(b, dir, 1);
    expect(pages).toBe(studiesWithFindings);
    expect(maxLiveHeapMb).toBeLessThan(300);
    expect(b.consoleErrors).toEqual([]);
    expect(b.requests).toEqual([]);
  });
});

describeShared('the report in Chromium (shared export)', SHARED_EXPORT, () => {
  let dir: string;
  let b: ReportBrowser;
  const figures: Record<string, number> = {};

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pkdb-report-shared-'));
    const out = join(dir, 'qa');
    const code = await main(['qa', '--export', SHARED_EXPORT, '--out', out, '--fail-on', 'never']);
    expect(code).toBe(0);
    dir = out;
    b = await openBrowser();
  }, 180_000);

  afterAll(async () => {
    await b?.browser.close();
    if (dir) rmSync(join(dir, '..'), { recursive: true, force: true });
    console.log(`[shared report] ${JSON.stringify(figures)}`);
  });

  it.skipIf(!chromiumAvailable)('loads the index in under 2 s', async () => {
    const size = (path: string): number => (statSync(path).isDirectory() ? readdirSync(path).reduce((n, e) => n + size(join(path, e)), 0) : statSync(path).size);
    figures.report_mb = +(size(join(dir, 'report')) / 2 ** 20).toFixed(1);
    figures.index_kb = +(statSync(join(dir, 'report', 'index.html')).size / 1024).toFixed(0);
    figures.index_ms = Math.round(await openIndex(b, dir));
    expect(figures.index_ms).toBeLessThan(2000);
  });

  it.skipIf(!chromiumAvailable)('opens the study with the most major findings from the index; its charts draw', async () => {
    const link = b.page.locator('#studies tbody tr').first().locator('a');
    const name = (await link.textContent()) ?? '';
    await link.click();
    await b.page.waitForURL(/studies\/[^/]+\.html$/);
    expect(await b.page.locator('h1').textContent()).toContain(name);
    const start = performance.now();
    const marks = await drawCharts(b.page, 6);
    figures.charts_drawn = marks.length;
    figures.chart_ms = Math.round(performance.now() - start);
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((n) => n > 0)).toBe(true);
  }, 60_000);

  it.skipIf(!chromiumAvailable)('every study page shows the ids of findings.csv; the JS heap stays under 300 MB; no error, no request', async () => {
    const start = performance.now();
    const { pages, maxHeapMb, maxLiveHeapMb } = await visitEveryStudy(b, dir);
    figures.study_pages = pages;
    figures.visit_all_ms = Math.round(performance.now() - start);
    figures.max_heap_before_gc_mb = Math.round(maxHeapMb);
    figures.max_live_heap_mb = Math.round(maxLiveHeapMb);
    expect(pages).toBeGreaterThan(100);
    expect(maxLiveHeapMb).toBeLessThan(300);
    expect(b.consoleErrors).toEqual([]);
    expect(b.requests).toEqual([]);
  }, 240_000);
});
