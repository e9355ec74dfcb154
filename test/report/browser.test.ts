/**
 * Opens report.html in Debian's Chromium (playwright-core, no downloaded
 * browsers) from a file:// URL: every chart draws, nothing is logged as an
 * error, nothing is fetched, and the findings table filters.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFixtures } from '../../src/data/fixtures.js';
import { runQa } from '../../src/qa/run.js';
import { writeQaOutputs } from '../../src/report/write.js';

const CHROMIUM = '/usr/bin/chromium';

/** The part of a DOM table row the sort test reads (the project compiles without the DOM lib). */
type Row = { cells: { dataset: { sort?: string } }[] };
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

const available = existsSync(CHROMIUM);
if (!available && process.env.CI) throw new Error(`${CHROMIUM} is required in CI (apt-get install chromium)`);
if (!available) console.warn(`[skip] report in the browser: ${CHROMIUM} not found (apt-get install chromium)`);

describe.skipIf(!available)('report.html in Chromium', () => {
  let dir: string;
  let browser: Browser;
  let page: Page;
  const consoleErrors: string[] = [];
  const requests: string[] = [];
  let reportUrl: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pkdb-report-'));
    await writeQaOutputs(runQa(await loadFixtures()), dir, { html: true, png: false });
    reportUrl = pathToFileURL(join(dir, 'report.html')).href;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await browser.newPage();
    page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    page.on('request', (r) => r.url() !== reportUrl && !r.url().startsWith('data:') && requests.push(r.url()));
    // Anything besides the report itself is aborted (and recorded above).
    await page.route('**/*', (route) => (route.request().url() === reportUrl ? route.continue() : route.abort()));
    await page.goto(reportUrl, { waitUntil: 'load' });
  });

  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('draws every chart', async () => {
    const charts = await page.locator('[data-chart]').count();
    expect(charts).toBeGreaterThanOrEqual(3);
    await page.waitForFunction("[...document.querySelectorAll('[data-chart]')].every((el) => el.querySelector('svg, canvas'))", undefined, {
      timeout: 30_000,
    });
    const drawn = await page.$$eval('[data-chart]', (els) => els.map((el) => el.querySelectorAll('svg path, svg line, svg rect, canvas').length));
    expect(drawn.every((marks) => marks > 0)).toBe(true);
  });

  it('logs no errors and fetches nothing', () => {
    expect(consoleErrors).toEqual([]);
    expect(requests).toEqual([]);
  });

  it('filters a findings table as the user types', async () => {
    const table = page.locator('table.findings').first();
    const rows = table.locator('tbody tr');
    const total = await rows.count();
    expect(await table.locator('tbody tr:visible').count()).toBe(total);
    // Filter by the measurement type of the first row: some rows must stay, some must go.
    const column = await table.locator('th[data-col="measurement_type"]').evaluate((th) => (th as unknown as { cellIndex: number }).cellIndex);
    const term = ((await rows.first().locator('td').nth(column).textContent()) ?? '').trim().toLowerCase();
    expect(term.length).toBeGreaterThan(0);
    const expected = await rows.evaluateAll((trs, t) => trs.filter((tr) => (tr.textContent ?? '').toLowerCase().includes(t)).length, term);
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(total);
    const filter = page.locator('input.filter').first();
    await filter.fill(term);
    await expect.poll(() => table.locator('tbody tr:visible').count()).toBe(expected);
    await filter.fill('no-such-finding-text');
    await expect.poll(() => table.locator('tbody tr:visible').count()).toBe(0);
    await filter.fill('');
    await expect.poll(() => table.locator('tbody tr:visible').count()).toBe(total);
  });

  it('sorts a findings table by a clicked column', async () => {
    const table = page.locator('table.findings').first();
    const header = table.locator('th[data-col="ratio"]');
    const column = await header.evaluate((th) => (th as unknown as { cellIndex: number }).cellIndex);
    await header.click();
    const ratios = await table.locator('tbody tr').evaluateAll(
      (trs, index) => trs.map((tr) => (tr as unknown as Row).cells[index].dataset.sort).filter((v) => v !== undefined).map(Number),
      column,
    );
    expect(ratios.length).toBeGreaterThan(1);
    expect(ratios).toEqual([...ratios].sort((a, b) => a - b));
    await header.click();
    const descending = await table.locator('tbody tr').evaluateAll(
      (trs, index) => trs.map((tr) => (tr as unknown as Row).cells[index].dataset.sort).filter((v) => v !== undefined).map(Number),
      column,
    );
    expect(descending).toEqual([...ratios].reverse());
  });
});
