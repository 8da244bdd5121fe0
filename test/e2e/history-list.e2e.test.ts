// The run history as a user reads it in Chromium, with more runs than a screen holds (the list renders only the rows
// in view): every run can be scrolled to, a search shows exactly the runs that match, and the keyboard walks the list
// (ArrowDown from the search box, ArrowUp/ArrowDown, Home/End to rows not rendered yet, Enter opens the run).
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, tempDir, testEnv, type ServerProcess } from '../helpers/server.js';
import { writeStoredRuns } from '../helpers/stored-runs.js';
import { launchBrowser, skipUnlessChromium, type BrowserSession } from './browser.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';

const skipReason = skipUnlessChromium();
const STORED_RUNS = 300;

let root = '';
let server: ServerProcess;
let session: BrowserSession | null = null;
let page: Page;
let names: string[] = [];

/** Newest first, as the history lists them (run i was changed i minutes after the first). */
const newestFirst = (all: string[]) => [...all].reverse();

describe.skipIf(skipReason !== null)(`the run history list${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    root = realpathSync(tempDir('baton-history-'));
    const work = join(root, 'work');
    mkdirSync(work, { recursive: true });
    names = writeStoredRuns(join(root, 'data'), STORED_RUNS, work);
    server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
    session = await launchBrowser();
    page = session.page;
    page.setDefaultTimeout(30_000);
    await page.goto(`${server.url}/#token=${server.token}`);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    await endServerAndRemove(server, root);
  });

  const search = () => page.getByRole('searchbox', { name: 'Search runs' });
  const list = () => page.getByRole('list', { name: 'Runs' });
  const focusedRun = () =>
    page.evaluate(() => {
      const el = document.activeElement;
      return el?.classList.contains('bt-run-select') ? el.getAttribute('aria-label') : el?.tagName.toLowerCase();
    });

  /** Every run name the list shows, read by scrolling its scroller from top to bottom a screen at a time. */
  const scrollThrough = () =>
    list().evaluate(async (ul) => {
      let scroller = ul.parentElement;
      while (scroller && !['auto', 'scroll'].includes(getComputedStyle(scroller).overflowY))
        scroller = scroller.parentElement;
      const seen: string[] = [];
      const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      for (let top = 0; ; top += scroller!.clientHeight / 2) {
        scroller!.scrollTop = top;
        await frame();
        for (const b of ul.querySelectorAll('.bt-run-select')) {
          const name = b.getAttribute('aria-label')!;
          if (!seen.includes(name)) seen.push(name);
        }
        if (top >= scroller!.scrollHeight - scroller!.clientHeight) break;
      }
      scroller!.scrollTop = 0;
      return seen;
    });

  it('renders a screenful of rows, and every run is there to scroll to, in order', async () => {
    await expect.poll(() => list().getAttribute('aria-rowcount')).toBe(String(STORED_RUNS));
    expect(await list().getByRole('listitem').count()).toBeLessThan(60);
    expect(await scrollThrough()).toEqual(newestFirst(names));
  });

  it('a search shows exactly the runs that match, and clearing it shows them all again', async () => {
    await search().fill('history-001');
    const matching = newestFirst(names.filter((n) => n.includes('history-001')));
    expect(matching).toHaveLength(100);
    await expect.poll(() => list().getAttribute('aria-rowcount')).toBe('100');
    expect(await scrollThrough()).toEqual(matching);
    // Narrowed to fewer runs than a screen: the same list, every one of them.
    await search().fill('history-0029');
    await expect.poll(() => list().getAttribute('aria-rowcount')).toBe('10');
    expect(await scrollThrough()).toEqual(newestFirst(names.filter((n) => n.includes('history-0029'))));
    await search().fill('');
    await expect.poll(() => list().getAttribute('aria-rowcount')).toBe(String(STORED_RUNS));
    expect(await scrollThrough()).toEqual(newestFirst(names));
  });

  it('walks the list with the keyboard, to rows not rendered yet, and Enter opens the run', async () => {
    await search().fill('history-001');
    await expect.poll(() => list().getAttribute('aria-rowcount')).toBe('100');
    await search().press('ArrowDown');
    expect(await focusedRun()).toBe('history-00199');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    expect(await focusedRun()).toBe('history-00196');
    // The last of 100 rows is far below the rendered ones: the list scrolls to it and focuses it.
    await page.keyboard.press('End');
    await expect.poll(focusedRun).toBe('history-00100');
    const last = list().getByRole('button', { name: 'history-00100', exact: true });
    expect(await last.isVisible()).toBe(true);
    const inView = await last.evaluate((b) => {
      const r = b.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    });
    expect(inView).toBe(true);
    await page.keyboard.press('ArrowUp');
    expect(await focusedRun()).toBe('history-00101');
    await page.keyboard.press('Home');
    await expect.poll(focusedRun).toBe('history-00199');
    // Up from the first run: back to the search box.
    await page.keyboard.press('ArrowUp');
    expect(await focusedRun()).toBe('input');
    await search().press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => list().getByRole('button', { name: 'history-00198', exact: true }).getAttribute('aria-current'))
      .toBe('true');
  });
});
