// End-to-end journey with an agent on a remote host (docs/hosts.md), through the dashboard in Chromium against a real
// `baton serve` and a real sshd on 127.0.0.1 (test/helpers/sshd.ts): the Hosts dialog connects the host (installing
// Baton's core there), New run puts one agent here and one on the host, and the remote pane answers typing; a host's
// leftover worktree is listed with its host and cleaned up there; the resume preview shows a remote worktree's state.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../electron/cli/connect.js';
import { sshdAvailable, startSshd, type TestSshd } from '../helpers/sshd.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { launchBrowser, screenshot, skipUnlessChromium, type BrowserSession } from './browser.js';

const skipReason = skipUnlessChromium() ?? (sshdAvailable() ? null : 'no sshd (openssh-server) on this machine');
if (skipReason) console.warn(`[e2e] ${skipReason}`);

const WAIT_MS = 30_000;
let root = '';
let sshd: TestSshd | null = null;
let server: ServerProcess | null = null;
let session: BrowserSession | null = null;
let page: Page;

const pane = (label: string): Locator => page.getByRole('region', { name: label, exact: true });
const dialog = (name: string): Locator => page.getByRole('dialog', { name });

async function paneText(label: string): Promise<string> {
  const rows = pane(label).locator('.xterm-rows');
  if ((await rows.count()) === 0) return '';
  return (await rows.innerText()).replace(/\u00a0/g, ' ');
}

describe.skipIf(skipReason !== null)(
  `an agent on a remote host, in Chromium${skipReason ? ` — ${skipReason}` : ''}`,
  () => {
    beforeAll(async () => {
      root = tempDir('baton-e2e-hosts-');
      // The agents there commit: git needs a name on that host.
      sshd = await startSshd({
        env: {
          GIT_AUTHOR_NAME: 'Agent',
          GIT_AUTHOR_EMAIL: 'agent@example.com',
          GIT_COMMITTER_NAME: 'Agent',
          GIT_COMMITTER_EMAIL: 'agent@example.com',
        },
      });
      mkdirSync(join(root, 'here'), { mode: 0o700 });
      mkdirSync(join(sshd.remoteHome, 'there'), { mode: 0o700 });
      // A git checkout on the host: the remote agent gets a worktree of its own there, as a local one would.
      const git = (...args: string[]) =>
        execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
          cwd: join(sshd!.remoteHome, 'there'),
        });
      git('init', '-q', '-b', 'main');
      git('commit', '-q', '--allow-empty', '-m', 'first');
      server = await startServer(
        join(root, 'data'),
        testEnv(join(root, 'home'), { BATON_SSH_CONFIG: sshd.configFile }),
      );
      session = await launchBrowser();
      page = session.page;
      page.setDefaultTimeout(WAIT_MS);
      await page.goto(`${server.url}/#token=${server.token}`);
    });

    afterEach(async (ctx) => {
      if (ctx.task.result?.state === 'fail' && session)
        await screenshot(page, `failed-hosts-${ctx.task.name.split('.')[0]}`).catch(() => undefined);
    });

    afterAll(async () => {
      await session?.close();
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await Promise.race([server.exited, new Promise((r) => setTimeout(r, 15_000).unref())]);
      }
      if (sshd) {
        try {
          const info = JSON.parse(readFileSync(join(sshd.remoteHome, '.baton', 'server.json'), 'utf8')) as {
            socket: string;
            token: string;
          };
          const remote = await connect(info);
          await remote.call('core.shutdown', { resumeOnStart: false }).catch(() => undefined);
          remote.close();
        } catch {
          // No remote core was started.
        }
        sshd.stop();
      }
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it('1. the Hosts dialog lists the ssh config’s hosts and connects one, installing Baton there', async () => {
      await page.getByRole('button', { name: 'Hosts', exact: true }).click();
      const hosts = dialog('Hosts');
      const row = hosts.locator('tr[data-host="devbox"]');
      await row.waitFor();
      expect(await row.innerText()).toContain('not connected');
      expect(await hosts.locator('tr[data-host="local"]').innerText()).toContain('This machine');
      await row.getByRole('button', { name: 'Connect to devbox' }).click();
      await row.getByText('connected', { exact: true }).waitFor({ timeout: 120_000 });
      await screenshot(page, 'hosts-list');
      await hosts.getByRole('button', { name: 'Close' }).last().click();
      await hosts.waitFor({ state: 'detached' });
    }, 150_000);

    it('2. New run puts one agent here and one on devbox; the remote pane shows its host and answers', async () => {
      await page.locator('.bt-topbar').getByRole('button', { name: 'New run', exact: true }).click();
      const form = dialog('New run');
      await form.getByLabel('Run name').fill('mixed');
      const first = form.getByRole('group', { name: 'Agent 1' });
      await first.getByLabel('Vendor').selectOption('shell');
      await first.getByLabel('Working directory').fill(join(root, 'here'));
      await first.getByLabel('Label').fill('here');
      await form.getByRole('button', { name: 'Add agent' }).click();
      const second = form.getByRole('group', { name: 'Agent 2' });
      await second.getByLabel('Host').selectOption('devbox');
      // The folder picker lists devbox's folders (its own core reads them), from the field's path (copied from the
      // first agent's) or its home.
      await second.getByRole('button', { name: 'Browse folders on devbox for agent 2' }).click();
      const folders = second.getByRole('group', { name: 'Folders on devbox' });
      await folders.getByRole('button', { name: 'Use this folder' }).waitFor({ timeout: WAIT_MS });
      await folders.getByRole('button', { name: 'Home' }).click();
      await folders.getByText(sshd!.remoteHome, { exact: true }).waitFor({ timeout: WAIT_MS });
      await folders.getByRole('button', { name: 'there/', exact: true }).click();
      await folders.getByText(join(sshd!.remoteHome, 'there'), { exact: true }).waitFor({ timeout: WAIT_MS });
      await screenshot(page, 'hosts-folder-picker');
      await folders.getByRole('button', { name: 'Use this folder' }).click();
      await folders.waitFor({ state: 'detached' });
      expect(await second.getByLabel('Working directory on devbox').inputValue()).toBe(join(sshd!.remoteHome, 'there'));
      await second.getByLabel('Label').fill('there');
      // devbox's core found the checkout there: the agent gets its own worktree on devbox, the dialog's default.
      await second.getByRole('radio', { name: 'Own worktree' }).waitFor({ timeout: WAIT_MS });
      expect(await second.getByRole('radio', { name: 'Own worktree' }).isChecked()).toBe(true);
      await form.getByRole('button', { name: 'Start', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Run “mixed” started with 2 agents' }).waitFor();
      await form.waitFor({ state: 'detached' });
      await pane('there').waitFor();
      expect(await pane('there').locator('header').innerText()).toContain('devbox');
      expect(await pane('here').locator('header').innerText()).not.toContain('devbox');
      // Its branch, named after this run, in the worktree devbox's core made for it.
      await pane('there').locator('.bt-branch').getByText('baton/mixed/there').waitFor({ timeout: WAIT_MS });
      await pane('there').locator('.xterm-screen').click();
      await page.keyboard.type('echo "remote home is $HOME, in $(git branch --show-current)"');
      await page.keyboard.press('Enter');
      await waitFor(
        async () => (await paneText('there')).includes(`remote home is ${sshd!.remoteHome}, in baton/mixed/there`),
        'the remote pane to answer',
        WAIT_MS,
      );
      await screenshot(page, 'hosts-mixed-run');
    }, 90_000);

    it('3. what the remote agent commits is counted and diffed on devbox, and merges into main there', async () => {
      await pane('there').locator('.xterm-screen').click();
      await page.keyboard.type('echo remote > made.txt && git add made.txt && git commit -qm "remote work"');
      await page.keyboard.press('Enter');
      await expect
        .poll(() => pane('there').locator('header').innerText(), { timeout: WAIT_MS })
        .toContain('1 changed file');
      await pane('there').getByRole('button', { name: 'Changes', exact: true }).click();
      const view = dialog('Changes of there');
      const patch = view.getByRole('region', { name: 'Patch' });
      await expect.poll(() => patch.innerText().catch(() => ''), { timeout: WAIT_MS }).toContain('+remote');
      expect(await view.innerText()).toContain('baton/mixed/there');
      expect(await view.innerText()).toContain('Worktree on devbox');
      await screenshot(page, 'hosts-remote-changes');
      // The merge target is devbox's checkout's branch, and the merge happens there.
      await view.getByRole('button', { name: 'Merge into main' }).click();
      await view.getByRole('status').filter({ hasText: 'Merged' }).waitFor();
      const log = execFileSync('git', ['log', '--format=%s', 'main'], { cwd: join(sshd!.remoteHome, 'there') });
      expect(log.toString()).toContain('remote work');
      await page.keyboard.press('Escape');
      await view.waitFor({ state: 'detached' });
    }, 60_000);

    it('4. a run deleted without its worktrees leaves one on devbox: Leftover worktrees lists it with its host and removes it there', async () => {
      const path = join(sshd!.remoteHome, '.baton', 'worktrees', 'there', 'mixed-there');
      const client = await server!.connect();
      await client.call('run.stop', { run: 'mixed' });
      await client.call('run.delete', { run: 'mixed' });
      client.close();
      expect(existsSync(path), 'deleted without its worktrees: it stays on devbox').toBe(true);

      await page.getByRole('button', { name: 'Leftover worktrees' }).click();
      const leftovers = dialog('Leftover worktrees');
      const choose = leftovers.getByRole('checkbox', { name: `Choose devbox:${path}` });
      await choose.check();
      expect(await leftovers.getByRole('row').filter({ hasText: path }).innerText()).toContain('devbox');
      await screenshot(page, 'hosts-leftover-worktrees');
      await leftovers.getByRole('button', { name: 'Clean up' }).click();
      const results = leftovers.getByRole('status', { name: 'Clean-up results' });
      await results.waitFor();
      expect(await results.innerText()).toContain(`devbox:${path}: removed`);
      expect(existsSync(path)).toBe(false);
      await page.keyboard.press('Escape');
      await leftovers.waitFor({ state: 'detached' });
    }, 60_000);

    it('5. the resume preview shows a remote agent’s worktree as devbox finds it, and says when devbox is out of reach', async () => {
      const client = await server!.connect();
      const run = await client.call('run.start', {
        name: 'kept',
        agents: [
          {
            vendor: 'shell',
            label: 'far',
            cwd: join(sshd!.remoteHome, 'there'),
            command: ['/bin/bash', '--noprofile', '--norc'],
            host: 'devbox',
            worktree: 'new',
          },
        ],
      });
      expect(run.agents[0]!.status).toBe('running');
      await client.call('run.stop', { run: 'kept' });
      const { handle } = await client.call('run.handle', { run: 'kept' });
      client.close();

      await page.locator('.bt-topbar').getByRole('button', { name: 'Resume from handle', exact: true }).click();
      const resume = dialog('Resume from handle');
      await resume.getByLabel('Handle').fill(handle);
      const row = resume.locator('tbody tr', { has: page.getByRole('rowheader', { name: 'far', exact: true }) });
      await expect.poll(() => row.innerText().catch(() => ''), { timeout: WAIT_MS }).toContain('existing');
      expect(await row.innerText()).toContain('baton/kept/far');
      await screenshot(page, 'hosts-resume-worktree');
      // Mapped to an address where nothing answers: the row says it was not checked, and why.
      await resume.getByLabel('devbox is reached here as').fill('127.0.0.1:1');
      await expect.poll(() => row.innerText().catch(() => ''), { timeout: WAIT_MS }).toContain('not checked');
      expect(await row.innerText()).toContain('127.0.0.1:1 cannot be reached now');
      await resume.getByRole('button', { name: 'Cancel', exact: true }).click();
      await resume.waitFor({ state: 'detached' });
    }, 90_000);
  },
);
