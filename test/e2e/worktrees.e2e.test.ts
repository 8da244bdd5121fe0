// End-to-end journey of agents in git worktrees of their own (docs/worktrees.md), through the dashboard in a real
// browser (Debian's Chromium via playwright-core) against a real `baton serve` and a real git repository made in a
// temp directory with one commit. Every step is what a person does (New run, typing into panes, the Changes view's
// buttons) and every check is what they see, plus what git then holds on disk.
// The steps build on each other, in order: two isolated shell agents → each writes a file → each header counts it →
// Changes shows each diff → merge the first → remove its worktree → delete the run, then clean up what it left →
// a resume preview of a run whose repository moved, pointed at its new place → removing uncommitted work asks twice.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { AgentView } from '../../shared/contract.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { launchBrowser, screenshot, skipUnlessChromium, type BrowserSession } from './browser.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';

const skipReason = skipUnlessChromium();
if (skipReason) console.warn(`[e2e] ${skipReason}`);

const WAIT_MS = 20_000;
const LABELS = ['one', 'two'] as const;

let root = '';
let repo = '';
let server: ServerProcess | null = null;
let client: RpcClient | null = null;
let session: BrowserSession | null = null;
let page: Page;
const pageErrors: string[] = [];

const git = (...args: string[]): string =>
  execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', env: { ...process.env, GIT_TERMINAL_PROMPT: '0' } });

// ---------- what a person sees ----------

const pane = (label: string): Locator => page.getByRole('region', { name: label, exact: true });
const header = async (label: string): Promise<string> =>
  (await pane(label).locator('header').innerText()).replace(/\s+/g, ' ');
const dialog = (name: string): Locator => page.getByRole('dialog', { name });

async function paneText(label: string): Promise<string> {
  const rows = pane(label).locator('.xterm-rows');
  if ((await rows.count()) === 0) return '';
  return (await rows.innerText())
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
}

async function typeInto(label: string, text: string): Promise<void> {
  await pane(label).locator('.xterm-screen').click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

async function agentsNow(run = 'wt'): Promise<AgentView[]> {
  return (await client!.call('run.get', { run })).agents;
}

async function openChanges(label: string): Promise<Locator> {
  await pane(label).getByRole('button', { name: 'Changes', exact: true }).click();
  const view = dialog(`Changes of ${label}`);
  await view.waitFor();
  return view;
}

// ---------- the journey ----------

describe.skipIf(skipReason !== null)(
  `agents in worktrees of their own, in Chromium${skipReason ? ` — ${skipReason}` : ''}`,
  () => {
    beforeAll(async () => {
      root = realpathSync(tempDir('baton-e2e-wt-'));
      repo = join(root, 'app');
      mkdirSync(repo, { mode: 0o700 });
      git('init', '-q', '-b', 'main');
      git('config', 'user.name', 'Baton Test');
      git('config', 'user.email', 'test@example.invalid');
      writeFileSync(join(repo, 'README.md'), '# app\n');
      // A setup command for new worktrees, which runs only once the user approved it (docs/worktrees.md).
      mkdirSync(join(repo, '.baton'));
      writeFileSync(join(repo, '.baton', 'setup.json'), JSON.stringify({ command: ['echo', 'setup ran'] }));
      git('add', 'README.md', '.baton/setup.json');
      git('commit', '-q', '-m', 'first');
      server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
      client = await server.connect();
      session = await launchBrowser();
      page = session.page;
      page.setDefaultTimeout(WAIT_MS);
      page.on('pageerror', (err) => pageErrors.push(err.message));
      await page.goto(`${server.url}/#token=${server.token}`);
    });

    afterEach(async (ctx) => {
      if (ctx.task.result?.state === 'fail' && session)
        await screenshot(page, `failed-wt-${ctx.task.name.split('.')[0]}`).catch(() => undefined);
    });

    afterAll(async () => {
      await session?.close();
      client?.close();
      await endServerAndRemove(server, root);
    });

    it('1. New run offers each agent in the repository its own worktree, and starts two isolated shells', async () => {
      await page.locator('.bt-topbar').getByRole('button', { name: 'New run', exact: true }).click();
      const form = dialog('New run');
      await form.getByLabel('Run name').fill('wt');
      const first = form.getByRole('group', { name: 'Agent 1' });
      await first.getByLabel('Vendor').selectOption('shell');
      await first.getByLabel('Working directory').fill(repo);
      await first.getByLabel('Label').fill('one');
      // Once the core says the directory is in a repository: own worktree by default, from the current branch.
      const isolation = first.getByRole('group', { name: 'Isolation' });
      await isolation.waitFor();
      expect(await isolation.getByRole('radio', { name: 'Own worktree' }).isChecked()).toBe(true);
      expect(await isolation.getByRole('radio', { name: 'Share the directory' }).isChecked()).toBe(false);
      expect(await isolation.getByLabel('Base branch').inputValue()).toBe('main');
      expect(await isolation.innerText()).toContain(repo);
      // The repository's setup command, word for word, with its approval unchecked until the user checks it.
      expect(await isolation.innerText()).toContain("echo 'setup ran'");
      const approve = isolation.getByRole('checkbox', { name: 'Approve and run it in new worktrees' });
      expect(await approve.isChecked()).toBe(false);
      await approve.check();
      await form.getByRole('button', { name: 'Add agent' }).click();
      const second = form.getByRole('group', { name: 'Agent 2' });
      expect(await second.getByLabel('Working directory').inputValue()).toBe(repo);
      await second.getByLabel('Label').fill('two');
      const secondIsolation = second.getByRole('group', { name: 'Isolation' });
      await secondIsolation.getByRole('radio', { name: 'Own worktree' }).waitFor();
      // One approval per repository: the other agent of the same repository shows it approved too.
      expect(
        await secondIsolation.getByRole('checkbox', { name: 'Approve and run it in new worktrees' }).isChecked(),
      ).toBe(true);
      await screenshot(page, 'wt-new-run');
      await form.getByRole('button', { name: 'Start', exact: true }).click();
      await page.getByRole('status').filter({ hasText: 'Run “wt” started with 2 agents' }).waitFor();
      await form.waitFor({ state: 'detached' });

      const agents = await agentsNow();
      const paths = agents.map((a) => a.worktree?.worktreePath);
      expect(
        paths.every((p) => p && p !== repo && existsSync(p)),
        'each agent has a worktree directory of its own',
      ).toBe(true);
      expect(new Set(paths).size).toBe(2);
      for (const label of LABELS) {
        const agent = agents.find((a) => a.label === label)!;
        expect(agent.worktree?.branch).toBe(`baton/wt/${label}`);
        await pane(label).waitFor();
        expect(await header(label)).toContain(`baton/wt/${label}`);
        await waitFor(async () => /[$#]$/m.test(await paneText(label)), `the shell prompt in ${label}`, WAIT_MS);
        expect(await paneText(label)).toContain('setup | setup ran');
      }
    });

    it('2. what each agent writes stays in its worktree, and its pane header counts one changed file', async () => {
      for (const label of LABELS) await typeInto(label, 'echo a > a.txt');
      for (const label of LABELS)
        await expect.poll(() => header(label), { timeout: WAIT_MS }).toContain('1 changed file');
      // The user's own checkout is untouched.
      expect(existsSync(join(repo, 'a.txt'))).toBe(false);
      expect(git('status', '--porcelain')).toBe('');
    });

    it('3. Changes shows each agent’s own diff, monospace and coloured, and Escape closes it', async () => {
      for (const label of LABELS) {
        const view = await openChanges(label);
        const patch = view.getByRole('region', { name: 'Patch' });
        await expect.poll(() => patch.innerText().catch(() => ''), { timeout: WAIT_MS }).toContain('+a');
        expect(await patch.innerText()).toContain('a.txt');
        expect(await view.innerText()).toContain(`baton/wt/${label}`);
        expect(await view.innerText()).toContain('1 changed file');
        expect(await patch.locator('.bt-patch-add').count()).toBeGreaterThan(0);
        const font = await patch.evaluate((el) => getComputedStyle(el).fontFamily);
        expect(font).toMatch(/mono|Menlo|Consolas/i);
        if (label === 'one') await screenshot(page, 'wt-changes');
        await page.keyboard.press('Escape');
        await view.waitFor({ state: 'detached' });
      }
    });

    it('4. Merge into main brings the first agent’s commit into the checkout', async () => {
      await typeInto('one', 'git add a.txt && git commit -qm "add a" && echo COMMITTED');
      await waitFor(async () => (await paneText('one')).includes('\nCOMMITTED'), 'the commit in pane one', WAIT_MS);
      const view = await openChanges('one');
      const merge = view.getByRole('button', { name: 'Merge into main' });
      await merge.click();
      const merged = view.getByRole('status').filter({ hasText: 'Merged' });
      await merged.waitFor();
      expect((await merged.innerText()).replace(/\s+/g, ' ')).toContain('Merged baton/wt/one into main');
      expect(git('log', '--format=%s', 'main')).toContain('add a');
      expect(existsSync(join(repo, 'a.txt'))).toBe(true);
      await screenshot(page, 'wt-merged');
    });

    it('5. Remove worktree asks first, stops the agent, removes the directory and the merged branch', async () => {
      const path = (await agentsNow()).find((a) => a.label === 'one')!.worktree!.worktreePath;
      const view = dialog('Changes of one');
      await view.getByRole('button', { name: 'Remove worktree' }).click();
      const confirm = view.getByRole('group', { name: /Remove the worktree/ });
      expect(await confirm.innerText()).toContain('it is stopped first');
      await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
      const done = view.getByRole('status').filter({ hasText: 'Removed the worktree' });
      await done.waitFor();
      expect((await done.innerText()).replace(/\s+/g, ' ')).toContain(
        `Removed the worktree ${path}; deleted branch baton/wt/one`,
      );
      await screenshot(page, 'wt-removed');
      expect(existsSync(path)).toBe(false);
      expect(git('branch', '--list', 'baton/wt/one').trim()).toBe('');
      expect(await view.getByRole('button', { name: /Merge into/ }).count()).toBe(0);
      await page.keyboard.press('Escape');
      await view.waitFor({ state: 'detached' });
      // The pane no longer offers a worktree it does not have; the other agent's is as it was.
      expect(await pane('one').getByRole('button', { name: 'Changes', exact: true }).count()).toBe(0);
      expect(await header('two')).toContain('1 changed file');
    });

    it('5b. a large diff stays readable: only the rows in view are drawn, and scrolling reaches its end', async () => {
      await typeInto('two', 'seq 1 6000 > big.txt');
      await expect.poll(() => header('two'), { timeout: WAIT_MS }).toContain('2 changed files');
      const view = await openChanges('two');
      const patch = view.getByRole('region', { name: 'Patch' });
      await expect.poll(() => patch.innerText().catch(() => ''), { timeout: WAIT_MS }).toContain('+1\n');
      const drawn = await patch.locator('.bt-patch-line').count();
      expect(drawn, 'rows in the page for a 6,000-line patch').toBeLessThan(200);
      await patch.evaluate((el) => (el.scrollTop = el.scrollHeight));
      await expect.poll(() => patch.innerText(), { timeout: WAIT_MS }).toContain('+6000');
      await screenshot(page, 'wt-changes-large');
      await page.keyboard.press('Escape');
      await view.waitFor({ state: 'detached' });
      await typeInto('two', 'rm big.txt');
      await expect.poll(() => header('two'), { timeout: WAIT_MS }).toContain('1 changed file');
    });

    it('6. deleting the run offers its worktrees; one left behind is listed and cleaned up', async () => {
      await typeInto('two', 'rm a.txt');
      await expect.poll(() => header('two'), { timeout: WAIT_MS }).toContain('0 changed files');
      const path = (await agentsNow()).find((a) => a.label === 'two')!.worktree!.worktreePath;

      await page.getByRole('navigation', { name: 'Run history' }).getByRole('button', { name: 'Delete wt' }).click();
      const confirm = dialog('Delete “wt”?');
      const offer = confirm.getByRole('checkbox', { name: 'Also remove its worktree' });
      expect(await offer.isChecked()).toBe(false);
      await confirm.getByRole('button', { name: 'Delete run' }).click();
      await confirm.waitFor({ state: 'detached' });
      expect(existsSync(path), 'left unchecked: the worktree stays').toBe(true);

      await page.getByRole('button', { name: 'Leftover worktrees' }).click();
      const leftovers = dialog('Leftover worktrees');
      const choose = leftovers.getByRole('checkbox', { name: `Choose ${path}` });
      await choose.check();
      await screenshot(page, 'wt-leftovers');
      await leftovers.getByRole('button', { name: 'Clean up' }).click();
      const results = leftovers.getByRole('status', { name: 'Clean-up results' });
      await results.waitFor();
      expect(await results.innerText()).toContain(`${path}: removed`);
      await leftovers.getByText('No leftover worktrees').waitFor();
      expect(existsSync(path)).toBe(false);
      await page.keyboard.press('Escape');
      await leftovers.waitFor({ state: 'detached' });
    });

    it('7. the resume preview says a worktree cannot come back while its repository is elsewhere, and follows a new path for it', async () => {
      await page.locator('.bt-topbar').getByRole('button', { name: 'New run', exact: true }).click();
      const form = dialog('New run');
      await form.getByLabel('Run name').fill('moved');
      const row = form.getByRole('group', { name: 'Agent 1' });
      await row.getByLabel('Vendor').selectOption('shell');
      await row.getByLabel('Working directory').fill(repo);
      await row.getByLabel('Label').fill('solo');
      await row.getByRole('group', { name: 'Isolation' }).waitFor();
      await form.getByRole('button', { name: 'Start', exact: true }).click();
      await form.waitFor({ state: 'detached' });
      await pane('solo').waitFor();
      const toolbar = page.getByRole('toolbar', { name: 'Run actions' });
      await toolbar.getByRole('button', { name: 'Stop', exact: true }).click();
      await expect.poll(() => toolbar.innerText(), { timeout: WAIT_MS }).toContain('0/1 live');
      const { handle } = await client!.call('run.handle', { run: 'moved' });

      const moved = `${repo}-moved`;
      renameSync(repo, moved);
      await page.locator('.bt-topbar').getByRole('button', { name: 'Resume from handle', exact: true }).click();
      const resume = dialog('Resume from handle');
      await resume.getByLabel('Handle').fill(handle);
      const cell = resume
        .locator('tbody tr', { has: page.getByRole('rowheader', { name: 'solo', exact: true }) })
        .getByRole('cell')
        .nth(4);
      await expect.poll(() => cell.innerText().catch(() => ''), { timeout: WAIT_MS }).toContain('failed');
      expect(await cell.innerText()).toContain('baton/moved/solo');
      const where = resume.getByLabel(`Repository ${repo} is now at`);
      await where.fill(moved);
      await expect.poll(() => cell.innerText().catch(() => ''), { timeout: WAIT_MS }).toContain('existing');
      await screenshot(page, 'wt-resume-moved-repo');
      await resume.getByRole('button', { name: 'Cancel', exact: true }).click();
      await resume.waitFor({ state: 'detached' });
      renameSync(moved, repo);
    });

    it('8. removing a worktree with uncommitted work asks again, and only then discards it', async () => {
      const path = (await agentsNow('moved')).find((a) => a.label === 'solo')!.worktree!.worktreePath;
      writeFileSync(join(path, 'draft.txt'), 'unsaved work\n');
      const view = await openChanges('solo');
      await expect
        .poll(
          () =>
            view
              .getByRole('region', { name: 'Patch' })
              .innerText()
              .catch(() => ''),
          { timeout: WAIT_MS },
        )
        .toContain('+unsaved work');
      await view.getByRole('button', { name: 'Remove worktree' }).click();
      await view.getByRole('button', { name: 'Remove', exact: true }).click();
      const refusal = view.getByRole('alert').filter({ hasText: 'uncommitted changes' });
      await refusal.waitFor();
      expect(existsSync(join(path, 'draft.txt')), 'nothing is discarded unasked').toBe(true);
      await screenshot(page, 'wt-remove-dirty');
      await refusal.getByRole('button', { name: 'Remove anyway (discard changes)' }).click();
      await view.getByRole('status').filter({ hasText: 'Removed the worktree' }).waitFor();
      expect(existsSync(path)).toBe(false);
      await view.getByRole('button', { name: 'Close', exact: true }).click();
      await view.waitFor({ state: 'detached' });
      expect(pageErrors).toEqual([]);
    });
  },
);
