// The main journey through the desktop app itself, driven by Playwright's `_electron` (playwright-core): the built
// app (npm run build) on a temp data directory, with the fake Claude CLI of test/fakes (testEnv). It runs wherever an
// Electron binary exists and skips with the reason elsewhere; the same journey runs in Chromium against web mode in
// journeys.e2e.test.ts. Run it alone: `npx vitest run --config test/e2e/vitest.e2e.config.ts test/e2e/electron.e2e.test.ts`.
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { _electron, type ElectronApplication, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { descendants, markOf, waitAllGone, killMarks, type ProcMark } from '../helpers/processes.js';
import { ROOT, tempDir, testEnv, waitFor } from '../helpers/server.js';
import { screenshot } from './browser.js';

const SKIP_REASON =
  'no Electron binary on this machine (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1); the same journey runs in Chromium in journeys.e2e.test.ts';
const WAIT_MS = 20_000;

/** The `electron` package resolves to its binary's path, and throws when the binary was never downloaded. */
function electronBinary(): string | null {
  try {
    const path: unknown = createRequire(import.meta.url)('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    return null;
  }
}

const binary = electronBinary();
// The reason shows in the test's name and, once, in the run's output, so a skipped journey never looks like a pass.
if (!binary) console.warn(`[electron e2e] skipped: ${SKIP_REASON}`);

describe('the desktop app', () => {
  if (!binary) {
    it.skip(SKIP_REASON, () => undefined);
    return;
  }

  let root = '';
  let app: ElectronApplication;
  let page: Page;
  const number = 1000 + Math.floor(Math.random() * 9000);
  let agentProcesses: ProcMark[] = [];

  const pane = (label: string): Locator => page.getByRole('region', { name: label, exact: true });
  const toolbar = (): Locator => page.getByRole('toolbar', { name: 'Run actions' });
  const paneText = async (label: string) =>
    (await pane(label).locator('.xterm-rows').innerText()).replace(/\u00a0/g, ' ');
  /** Clicks a menu item by label, as a person would from the menu bar. */
  const clickMenu = (label: string) =>
    app.evaluate(({ Menu }, wanted) => {
      const find = (items: Electron.MenuItem[]): Electron.MenuItem | undefined => {
        for (const item of items) {
          if (item.label === wanted) return item;
          const inner = item.submenu ? find(item.submenu.items) : undefined;
          if (inner) return inner;
        }
        return undefined;
      };
      const item = find(Menu.getApplicationMenu()?.items ?? []);
      if (!item) throw new Error(`no menu item ${wanted}`);
      item.click();
    }, label);

  beforeAll(async () => {
    root = realpathSync(tempDir('baton-electron-e2e-'));
    mkdirSync(join(root, 'work'));
    // The quit question's answer, remembered: "Stop all agents" (journey 5), so quitting asks nothing.
    mkdirSync(join(root, 'data'), { mode: 0o700 });
    writeFileSync(join(root, 'data', 'settings.json'), JSON.stringify({ v: 1, quitAction: 'stop' }), { mode: 0o600 });
    const env = testEnv(join(root, 'home'), { BATON_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config') });
    if (process.env.DISPLAY) env.DISPLAY = process.env.DISPLAY;
    if (process.env.WAYLAND_DISPLAY) env.WAYLAND_DISPLAY = process.env.WAYLAND_DISPLAY;
    const args = [join(ROOT, 'dist', 'electron', 'main.js')];
    // Chromium refuses its sandbox as root; without a display, Chromium's headless platform draws off-screen.
    if (process.getuid?.() === 0) args.push('--no-sandbox');
    if (process.platform === 'linux' && !env.DISPLAY && !env.WAYLAND_DISPLAY)
      args.push('--ozone-platform=headless', '--disable-gpu');
    app = await _electron.launch({ executablePath: binary, args, env, timeout: 30_000 });
    page = await app.firstWindow();
    page.setDefaultTimeout(WAIT_MS);
  });

  afterAll(async () => {
    await app?.close().catch(() => undefined);
    killMarks(agentProcesses);
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('1. opens on our own page, isolated: no Node in the page, only window.baton from the preload', async () => {
    await page.getByRole('region', { name: 'Welcome to Baton' }).waitFor();
    expect(page.url()).toBe(pathToFileURL(join(ROOT, 'dist', 'renderer', 'index.html')).href);
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
    expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
    expect(await page.evaluate(() => Object.keys((window as unknown as { baton: object }).baton).sort())).toEqual([
      'appVersion',
      'onFocusAgent',
      'onMenuCommand',
      'onResumeHandoff',
      'pickDirectory',
      'requestPort',
      'writeClipboard',
    ]);
    expect(
      await page.evaluate(() => (window as unknown as { baton: { appVersion(): Promise<string> } }).baton.appVersion()),
    ).toBe('0.1.0');
    // No remote content: a fetch of anything is refused by the CSP and the request filter.
    expect(
      await page.evaluate(() =>
        fetch('https://example.com/').then(
          () => 'loaded',
          () => 'refused',
        ),
      ),
    ).toBe('refused');
  });

  it('2. a run started in the window answers in its pane, over the port to the core', async () => {
    await page.locator('.bt-topbar').getByRole('button', { name: 'New run', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'New run' });
    await form.getByLabel('Run name').fill('desk');
    const row = form.getByRole('group', { name: 'Agent 1' });
    await row.getByLabel('Vendor').selectOption('claude');
    await row.getByLabel('Working directory').fill(join(root, 'work'));
    await row.getByLabel('Label').fill('planner');
    await form.getByRole('button', { name: 'Start', exact: true }).click();
    await form.waitFor({ state: 'detached' });
    await waitFor(async () => (await paneText('planner')).includes('? for shortcuts'), 'the claude prompt', WAIT_MS);
    await pane('planner').locator('.xterm-screen').click();
    await page.keyboard.type(`remember the number ${number}`);
    await page.waitForTimeout(500);
    await page.keyboard.press('Enter');
    await waitFor(
      async () => (await paneText('planner')).includes(`OK, I will remember ${number}.`),
      'the answer',
      WAIT_MS,
    );
    await screenshot(page, 'electron-2-live-run');
  });

  it('3. the menu snapshots the run, and Copy handle puts a baton1. handle on the clipboard', async () => {
    await clickMenu('Snapshot');
    await page
      .getByRole('status')
      .filter({ hasText: /Snapshot at .*: 1 agent, 1 session id and their screens/ })
      .waitFor();
    await app.evaluate(({ clipboard }) => clipboard.writeText(''));
    await toolbar().getByRole('button', { name: 'Copy handle', exact: true }).click();
    await toolbar()
      .getByRole('menu', { name: 'Copy handle' })
      .getByRole('menuitem', { name: 'Copy handle', exact: true })
      .click();
    await page.getByRole('status').filter({ hasText: 'Run handle copied' }).waitFor();
    const handle = await app.evaluate(({ clipboard }) => clipboard.readText());
    expect(handle).toMatch(/^baton1\./);
    expect(await page.content()).not.toContain(handle.slice(7, 40));
  });

  it('4. a baton://resume link from a second launch opens the Resume dialog and resumes nothing', async () => {
    await app.evaluate(({ app: a }) =>
      a.emit('second-instance', { preventDefault() {} }, ['baton', 'baton://resume'], '/', {}),
    );
    const resume = page.getByRole('dialog', { name: 'Resume from handle' });
    await resume.waitFor();
    expect(await resume.getByLabel('Handle').inputValue()).toBe('');
    await resume.getByRole('button', { name: 'Cancel', exact: true }).click();
    await expect.poll(() => toolbar().innerText()).toContain('1/1 live');
  });

  it('5. quitting with “Stop all agents” remembered stops every agent (and the background core) before the app exits', async () => {
    const electronPid = app.process().pid!;
    agentProcesses = descendants(electronPid)
      .filter((p) => !/electron|chrome|zygote/i.test(p.comm))
      .map(markOf);
    expect(agentProcesses.length).toBeGreaterThan(0);
    await app.close();
    expect(await waitAllGone(agentProcesses, 10_000)).toEqual([]);
  });
});
