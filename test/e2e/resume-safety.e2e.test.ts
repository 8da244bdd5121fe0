// Resuming a pasted handle safely, in a real browser against a real `baton serve`: the Resume dialog shows where
// each agent will really run and which directories are new here, refuses a directory others can write with the
// reason, and a shell agent from a handle starts only once its own box is checked (docs/architecture.md §10).
import { chmodSync, mkdirSync, realpathSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { agentByLabel, startServer, tempDir, testEnv, type ServerProcess } from '../helpers/server.js';
import { launchBrowser, screenshot, skipUnlessChromium, type BrowserSession } from './browser.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';

const skipReason = skipUnlessChromium();
if (skipReason) console.warn(`[e2e] ${skipReason}`);

const WAIT_MS = 20_000;
const id = (prefix: string) => `${prefix}_${Array.from(randomBytes(16), (b) => (b % 36).toString(36)).join('')}`;

interface Agent {
  id: string;
  label: string;
  vendor: string;
  sessionId: string | null;
  cwd: string;
}
const handleOf = (run: { name: string; id: string }, agents: Agent[]) =>
  `baton1.${Buffer.from(JSON.stringify({ v: 1, run, createdAt: new Date().toISOString(), agents }), 'utf8').toString('base64url')}`;

let root = '';
let server: ServerProcess | null = null;
let client: RpcClient | null = null;
let session: BrowserSession | null = null;
let page: Page;
const pageErrors: string[] = [];
const dir = (name: string, mode = 0o755) => {
  const d = join(root, name);
  mkdirSync(d);
  chmodSync(d, mode);
  return d;
};

const dialog = (): Locator => page.getByRole('dialog', { name: 'Resume from handle' });
const previewRow = (label: string): Locator =>
  dialog()
    .getByRole('table', { name: 'What resume will do per agent' })
    .locator('tbody tr', { has: page.getByRole('rowheader', { name: label, exact: true }) });
const outcomeRow = (label: string): Locator =>
  dialog()
    .getByRole('table', { name: 'Resume outcome per agent' })
    .locator('tbody tr', { has: page.getByRole('rowheader', { name: label, exact: true }) });
const shellBoxName = (label: string) => ({ name: new RegExp(`^Start shell agent ${label}:`) });
const shellBox = (label: string): Locator => dialog().getByRole('checkbox', shellBoxName(label));
const resumeButton = (): Locator => dialog().getByRole('button', { name: 'Resume', exact: true });
const text = async (l: Locator) => (await l.innerText()).replace(/\s+/g, ' ').trim();

async function openWith(handle: string): Promise<void> {
  await page.locator('.bt-topbar').getByRole('button', { name: 'Resume from handle', exact: true }).click();
  await dialog().getByLabel('Handle').fill(handle);
}

describe.skipIf(skipReason !== null)(`resume safety in Chromium${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    root = realpathSync(tempDir('baton-e2e-safety-'));
    server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
    client = await server.connect();
    session = await launchBrowser();
    page = session.page;
    page.setDefaultTimeout(WAIT_MS);
    page.on('pageerror', (err) => pageErrors.push(err.message));
    await page.goto(`${server.url}/#token=${server.token}`);
    await page.locator('.bt-topbar').waitFor();
  });

  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && session)
      await screenshot(page, `failed-resume-safety-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(
        () => undefined,
      );
  });

  afterAll(async () => {
    await session?.close();
    client?.close();
    await endServerAndRemove(server, root);
  });

  it('a shell agent from a pasted handle starts only once its own box is checked; the preview shows real and new directories', async () => {
    const alphaDir = dir('alpha-dir');
    const betaDir = dir('beta-dir');
    const run = { name: 'safety', id: id('run') };
    const alpha: Agent = { id: id('agt'), label: 'alpha', vendor: 'shell', sessionId: null, cwd: alphaDir };
    const beta: Agent = { id: id('agt'), label: 'beta', vendor: 'shell', sessionId: null, cwd: betaDir };
    await openWith(handleOf(run, [alpha, beta]));

    await dialog().getByText('not in this Baton store').waitFor();
    for (const [label, cwd] of [
      ['alpha', alphaDir],
      ['beta', betaDir],
    ] as const) {
      expect(await text(previewRow(label).getByRole('cell').nth(1))).toBe(`${cwd} new directory`);
      // Each shell agent has its own box, unchecked, naming what it runs and where.
      expect(await shellBox(label).isChecked()).toBe(false);
      expect(await text(dialog().locator('label', { has: page.getByRole('checkbox', shellBoxName(label)) }))).toBe(
        `Start shell agent ${label}: runs /bin/bash in ${cwd} (a new directory)`,
      );
    }
    // Nothing checked: nothing would start, and Resume says so by being unavailable.
    expect(await resumeButton().isDisabled()).toBe(true);
    await dialog().getByText('Every agent of this handle is a shell agent: check the ones to start.').waitFor();
    await screenshot(page, 'resume-safety-1-unconfirmed');

    await shellBox('beta').check();
    await expect.poll(() => resumeButton().isEnabled()).toBe(true);
    await resumeButton().click();
    await outcomeRow('beta').waitFor();
    expect(await text(outcomeRow('alpha'))).toMatch(
      /^alpha shell failed: not started: .*starts only once you confirm it$/,
    );
    expect(await text(outcomeRow('beta'))).toMatch(/^beta shell fresh/);
    // Only beta is in the run and running; alpha was neither added nor started.
    const after = await client!.call('run.get', { run: 'safety' });
    expect(after.agents.map((a) => [a.label, a.status])).toEqual([['beta', 'running']]);
    await dialog().getByRole('button', { name: 'Close', exact: true }).click();

    // The same run again, its handle now naming another directory for beta: the preview shows where beta really
    // runs (its recorded directory, no longer new), and alpha still waits for its box.
    const elsewhere = dir('elsewhere');
    await openWith(handleOf(run, [alpha, { ...beta, cwd: elsewhere }]));
    await dialog().getByText('known here').waitFor();
    expect(await text(previewRow('beta').getByRole('cell').nth(1))).toBe(betaDir);
    expect(await text(previewRow('alpha').getByRole('cell').nth(1))).toBe(`${alphaDir} new directory`);
    expect(await shellBox('alpha').isChecked()).toBe(false);
    expect(await shellBox('beta').isChecked()).toBe(false);
    await shellBox('alpha').check();
    await resumeButton().click();
    await outcomeRow('alpha').waitFor();
    expect(await text(outcomeRow('alpha'))).toMatch(/^alpha shell fresh/);
    expect(await text(outcomeRow('beta'))).toBe('beta shell resumed: already running');
    const both = await client!.call('run.get', { run: 'safety' });
    expect(agentByLabel(both.agents, 'alpha')).toMatchObject({ status: 'running', cwd: alphaDir });
    expect(agentByLabel(both.agents, 'beta')).toMatchObject({ status: 'running', cwd: betaDir });
    await screenshot(page, 'resume-safety-2-confirmed');
    await dialog().getByRole('button', { name: 'Close', exact: true }).click();
    await client!.call('run.stop', { run: 'safety' });
  });

  it('a directory others can write is refused in the preview with its reason, and Resume stays unavailable', async () => {
    const open = dir('open-dir', 0o777);
    const handle = handleOf({ name: 'opened', id: id('run') }, [
      {
        id: id('agt'),
        label: 'planner',
        vendor: 'claude',
        sessionId: '3f9d2c1e-4b5a-4c3d-9e8f-0a1b2c3d4e5f',
        cwd: open,
      },
    ]);
    await openWith(handle);
    const cells = previewRow('planner').getByRole('cell');
    await expect
      .poll(() =>
        cells
          .nth(3)
          .innerText()
          .catch(() => ''),
      )
      .toBe('directory refused → cannot start');
    expect(await text(cells.nth(1))).toMatch(
      new RegExp(
        `^${open.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} new directory directory is writable by other users \\(mode 0777\\)`,
      ),
    );
    expect(await resumeButton().isDisabled()).toBe(true);
    expect(await text(dialog().getByRole('status').filter({ hasText: 'cannot start' }))).toMatch(
      /^Agent planner cannot start in its directory \(the reason is above\)/,
    );
    await screenshot(page, 'resume-safety-3-refused-directory');
    await dialog().getByRole('button', { name: 'Cancel', exact: true }).click();
    expect((await client!.call('run.list', {})).map((r) => r.name)).not.toContain('opened');
    expect(pageErrors).toEqual([]);
  });
});
