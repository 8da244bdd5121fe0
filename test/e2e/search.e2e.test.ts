// The search journey in a real browser (Chromium via playwright-core) against a real `baton serve` with the fake
// Claude Code CLI: a conversation had outside Baton is found by its words, opened at the match, and resumed into a
// new run whose agent answers from it. Every step is what a person would do; every check is what they would read.
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pty, { type IPty } from 'node-pty';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FAKES, randomNumber, startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { launchBrowser, screenshot, skipUnlessChromium, type BrowserSession } from './browser.js';

const skipReason = skipUnlessChromium();
if (skipReason) console.warn(`[e2e] ${skipReason}`);

const WAIT_MS = 20_000;

let root = '';
let server: ServerProcess | null = null;
let session: BrowserSession | null = null;
let page: Page;
const ptys: IPty[] = [];
const number = randomNumber();
let work = '';

const dialog = (name: string | RegExp): Locator => page.getByRole('dialog', { name });

/** A conversation with the fake claude in a terminal of the user's own: no Baton involved. */
async function conversationOutsideBaton(cwd: string, env: Record<string, string>): Promise<void> {
  const proc = pty.spawn(process.execPath, [join(FAKES, 'claude.mjs')], { name: 'xterm-256color', cwd, env });
  ptys.push(proc);
  let screen = '';
  let exited = false;
  proc.onData((d) => (screen += d));
  proc.onExit(() => (exited = true));
  await waitFor(() => screen.includes('? for shortcuts'), 'the fake claude prompt');
  proc.write(`remember the number ${number}`);
  await new Promise((r) => setTimeout(r, 200));
  proc.write('\r');
  await waitFor(() => screen.includes(`OK, I will remember ${number}.`), 'the fake claude answer');
  proc.write('/exit');
  await new Promise((r) => setTimeout(r, 200));
  proc.write('\r');
  await waitFor(() => exited, 'the fake claude to exit');
}

describe.skipIf(skipReason !== null)(`search journey in Chromium${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    root = realpathSync(tempDir('baton-e2e-search-'));
    work = join(root, 'tidepool');
    mkdirSync(work, { recursive: true });
    const env = testEnv(join(root, 'home'));
    await conversationOutsideBaton(work, env);
    server = await startServer(join(root, 'data'), env);
    session = await launchBrowser();
    page = session.page;
    page.setDefaultTimeout(WAIT_MS);
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && session) await screenshot(page, 'failed-search').catch(() => undefined);
  });

  afterAll(async () => {
    await session?.close();
    for (const p of ptys.splice(0)) {
      try {
        p.kill('SIGKILL');
      } catch {
        /* gone */
      }
    }
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('type words → results → open one at the match → resume it in a new run that remembers', async () => {
    // Opening the dashboard does not start the index (its worker would take a core from the page's first seconds): the
    // index tells its progress to every client once it starts, and says nothing until the search is opened.
    const watcher = await server!.connect();
    const progress: string[] = [];
    watcher.on('search.progress', (s) => progress.push(s.state));
    await page.goto(`${server!.url}/#token=${server!.token}`);
    await page.getByRole('region', { name: 'Welcome to Baton' }).waitFor();
    await page.waitForTimeout(1500);
    expect(progress).toEqual([]);

    // The shortcut opens the search, which starts the index and says how far it is before a word is typed; the
    // words find the conversation, outside Baton, the number highlighted.
    await page.keyboard.press('Alt+Shift+G');
    const search = dialog('Search every conversation');
    await search.waitFor();
    await search.getByRole('status').filter({ hasText: '1 conversation indexed' }).waitFor();
    expect(progress).toContain('ready');
    watcher.close();
    await search.getByLabel('Words').fill(`number ${number}`);
    const result = search.getByRole('listitem').filter({ hasText: 'outside Baton' });
    await result.waitFor();
    expect(await result.innerText()).toContain(work);
    await expect.poll(() => result.locator('mark').allInnerTexts()).toContain(String(number));
    await screenshot(page, 'search-results');

    // Opened at the match: the user's turn is marked as the match, the answer follows it.
    await result.getByRole('button', { name: /at this user message/ }).click();
    const view = dialog(/claude conversation · outside Baton/);
    await view.waitFor();
    const hit = view.locator('li[aria-current="true"]');
    expect(await hit.innerText()).toContain(`remember the number ${number}`);
    expect(await hit.locator('mark').allInnerTexts()).toEqual(['number', String(number)]);
    expect(await view.getByRole('list', { name: 'The conversation, oldest first' }).innerText()).toContain(
      `OK, I will remember ${number}.`,
    );

    // Resumed into a new run: the run is created, and its agent answers from the old conversation.
    await view.getByLabel('Run name').fill('found again');
    await view.getByRole('button', { name: 'Resume this conversation' }).click();
    await view.getByText('Run found again now continues this conversation').waitFor();
    expect(await view.getByRole('table').innerText()).toMatch(/resumed/);
    await screenshot(page, 'search-resumed');
    await view.getByRole('button', { name: 'Show the run' }).click();
    await view.waitFor({ state: 'detached' });
    const pane = page.getByRole('region', { name: 'claude', exact: true });
    await pane.locator('.xterm-screen').click();
    await page.keyboard.type('what number did I ask you to remember');
    await page.waitForTimeout(500);
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await pane.locator('.xterm-rows').innerText()).replace(/\u00a0/g, ' '), { timeout: WAIT_MS })
      .toContain(`The number is ${number}.`);
  });
});
