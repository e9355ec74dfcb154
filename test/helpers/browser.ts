/**
 * Opening a written QA report in Debian's Chromium (playwright-core, no
 * downloaded browsers) from file:// URLs, with every request that is not a
 * local file aborted and recorded, console errors collected, the JS heap read
 * over the DevTools protocol, and the record ids of the finding cards read
 * back for comparison with findings.csv.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { parseCsv } from '../../src/data/export/csv.js';
import { studyFileName } from '../../src/report/pages.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const chromiumAvailable = existsSync(CHROMIUM);

export interface ReportBrowser {
  browser: Browser;
  page: Page;
  cdp: CDPSession;
  consoleErrors: string[];
  /** Every request that was not for a local file (all aborted). */
  requests: string[];
}

export async function openBrowser(): Promise<ReportBrowser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const consoleErrors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    requests.push(url);
    return route.abort();
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  return { browser, page, cdp, consoleErrors, requests };
}

/**
 * The page's JS heap in use, in MB (DevTools Performance.getMetrics). With
 * `gc`, after a full collection (HeapProfiler.collectGarbage): what the page
 * really holds, not the garbage V8 has not yet collected.
 */
export async function jsHeapMb(cdp: CDPSession, gc = false): Promise<number> {
  if (gc) await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const used = metrics.find((m) => m.name === 'JSHeapUsedSize');
  if (!used) throw new Error('no JSHeapUsedSize metric');
  return used.value / 2 ** 20;
}

/** The record-id columns a card shows, as findings.csv has them ('' when empty). */
export const ID_FIELDS = ['output_pk', 'subset_pk', 'intervention_pk'] as const;
export type CardIds = { id: string } & Record<(typeof ID_FIELDS)[number], string>;

/** The cards of the open study page: each finding id with the record ids shown (the text a curator reads). */
export async function cardIds(page: Page): Promise<CardIds[]> {
  return page.$$eval(
    'article.finding',
    (cards, fields) =>
      cards.map((card) => {
        const row: Record<string, string> = { id: card.getAttribute('data-finding-id') ?? '' };
        for (const field of fields) row[field] = card.querySelector(`.rec[data-field="${field}"] b`)?.textContent ?? '';
        return row as CardIds;
      }),
    [...ID_FIELDS],
  );
}

/** findings.csv's ids, by study page file. */
export function expectedIds(dir: string): Map<string, CardIds[]> {
  const { header, rows } = parseCsv(readFileSync(join(dir, 'findings.csv'), 'utf8'));
  const col = (name: string) => header.indexOf(name);
  const byFile = new Map<string, CardIds[]>();
  for (const { cells } of rows) {
    const sid = cells[col('study_sid')] || null;
    const file = studyFileName(sid);
    const row = { id: cells[col('id')] } as CardIds;
    for (const field of ID_FIELDS) row[field] = cells[col(field)];
    const list = byFile.get(file);
    if (list) list.push(row);
    else byFile.set(file, [row]);
  }
  return byFile;
}

/** Sorted copies, so a page's order (to review, info, accepted) and the CSV's compare. */
export function sortedIds(rows: readonly CardIds[]): CardIds[] {
  const key = (r: CardIds) => [r.id, ...ID_FIELDS.map((f) => r[f])].join('|');
  return [...rows].sort((a, b) => key(a).localeCompare(key(b)));
}

/** Scrolls every chart of the open page into view and waits until each has drawn marks. */
export async function drawCharts(page: Page, limit = Infinity): Promise<number[]> {
  // Folded groups (info, accepted) hold charts too.
  await page.$$eval('details', (ds) => ds.forEach((d) => d.setAttribute('open', '')));
  const charts = page.locator('[data-chart]');
  const n = Math.min(await charts.count(), limit);
  for (let i = 0; i < n; i++) {
    const el = charts.nth(i);
    await el.scrollIntoViewIfNeeded();
    await el.locator('svg').first().waitFor({ timeout: 30_000 });
  }
  return page.$$eval('[data-chart]', (els, max) => els.slice(0, max).map((el) => el.querySelectorAll('svg path, svg line, svg rect').length), n);
}
