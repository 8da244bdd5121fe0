// End-to-end journey of forks and bundles (docs/bundles.md) through the dashboard in Chromium, against a real
// `baton serve` running the fake Claude Code CLI: Fork on a run makes a new run with its agents, each continuing its
// own conversation; Export saves an encrypted bundle (a download); Import previews it and brings it back as a run.
import { readFileSync, realpathSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import {
  agentByLabel,
  ask,
  randomNumber,
  startServer,
  tempDir,
  testEnv,
  type ServerProcess,
} from '../helpers/server.js';
import { launchBrowser, screenshot, skipUnlessChromium, type BrowserSession } from './browser.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';

const skipReason = skipUnlessChromium();
if (skipReason) console.warn(`[e2e] ${skipReason}`);

const WAIT_MS = 20_000;
const QUESTION = 'what number did I ask you to remember';
const PASS = 'e2e passphrase, long enough';

let root = '';
let server: ServerProcess | null = null;
let client: RpcClient | null = null;
let session: BrowserSession | null = null;
let page: Page;
let bundleFile = '';
const numbers = { a: 0, b: 0 };
const pageErrors: string[] = [];

const dialog = (name: string): Locator => page.getByRole('dialog', { name });
const history = (): Locator => page.getByRole('navigation', { name: 'Run history' });
const pane = (label: string): Locator => page.getByRole('region', { name: label, exact: true });

describe.skipIf(skipReason !== null)(
  `fork, export and import in Chromium${skipReason ? ` — ${skipReason}` : ''}`,
  () => {
    beforeAll(async () => {
      root = realpathSync(tempDir('baton-e2e-fork-'));
      const work = join(root, 'proj');
      mkdirSync(work);
      server = await startServer(join(root, 'data'), testEnv(join(root, 'home'), { FAKE_CLAUDE_DELAY_MS: '20' }));
      client = await server.connect();
      const run = await client.call('run.start', {
        name: 'demo',
        agents: [
          { vendor: 'claude', label: 'a', cwd: work },
          { vendor: 'claude', label: 'b', cwd: work },
        ],
      });
      numbers.a = randomNumber();
      numbers.b = randomNumber([numbers.a]);
      for (const label of ['a', 'b'] as const)
        await ask(
          client,
          agentByLabel(run.agents, label).id,
          `remember the number ${numbers[label]}`,
          `OK, I will remember ${numbers[label]}.`,
          WAIT_MS,
        );
      await client.call('run.snapshot', { run: 'demo' });
      session = await launchBrowser();
      page = session.page;
      page.setDefaultTimeout(WAIT_MS);
      page.on('pageerror', (err) => pageErrors.push(err.message));
      await page.goto(`${server.url}/#token=${server.token}`);
    });

    afterEach(async (ctx) => {
      if (ctx.task.result?.state === 'fail' && session)
        await screenshot(page, `failed-fork-${ctx.task.name.split('.')[0]}`).catch(() => undefined);
    });

    afterAll(async () => {
      await session?.close();
      client?.close();
      await endServerAndRemove(server, root);
    });

    it('1. Fork on a run makes "demo fork" with its agents, each continuing its own conversation', async () => {
      await history().getByRole('button', { name: 'Fork demo', exact: true }).click();
      const form = dialog('Fork “demo”');
      // The run's snapshot is offered beside "now".
      await expect.poll(() => form.getByLabel('Start from').locator('option').count()).toBe(2);
      await form.getByRole('button', { name: 'Fork', exact: true }).click();
      const table = form.getByRole('table', { name: 'How each agent of the fork continues' });
      await table.waitFor();
      expect(await table.innerText()).toMatch(/a\s+claude\s+the vendor's own fork, from now/);
      await form.getByRole('button', { name: 'Done' }).click();
      // The new run is in the history, selected, with a pane per agent.
      await history().getByRole('button', { name: 'demo fork', exact: true }).waitFor();
      await pane('a').waitFor();
      await pane('b').waitFor();
      const forked = await client!.call('run.get', { run: 'demo fork' });
      for (const label of ['a', 'b'] as const)
        await ask(
          client!,
          agentByLabel(forked.agents, label).id,
          QUESTION,
          `The number is ${numbers[label]}.`,
          WAIT_MS,
        );
      await expect
        .poll(async () => pane('a').locator('.xterm-rows').innerText())
        .toContain(`The number is ${numbers.a}.`);
    });

    it('2. Export asks for the passphrase twice and saves an encrypted bundle', async () => {
      await history().getByRole('button', { name: 'Export demo', exact: true }).click();
      const form = dialog('Export “demo”');
      await form.getByLabel('Passphrase', { exact: true }).fill(PASS);
      await form.getByLabel('Passphrase again').fill('something else');
      expect(await form.getByRole('button', { name: 'Export', exact: true }).isDisabled()).toBe(true);
      await form.getByLabel('Passphrase again').fill(PASS);
      const download = page.waitForEvent('download');
      await form.getByRole('button', { name: 'Export', exact: true }).click();
      const saved = await download;
      expect(saved.suggestedFilename()).toBe('demo.baton-bundle');
      bundleFile = join(root, 'demo.baton-bundle');
      await saved.saveAs(bundleFile);
      const bytes = readFileSync(bundleFile);
      expect(bytes.subarray(0, 8).toString()).toBe('BATONBDL');
      expect(bytes.includes(Buffer.from(String(numbers.a)))).toBe(false);
      await form.getByRole('status').getByText('a (claude): conversation included').waitFor();
      await form.getByRole('button', { name: 'Done' }).click();
    });

    it('3. Import previews each agent and its directory, refuses a wrong passphrase, then resumes the run', async () => {
      await page.locator('.bt-topbar').getByRole('button', { name: 'Import bundle', exact: true }).click();
      const form = dialog('Import a bundle');
      await form.getByLabel('Bundle file').setInputFiles(bundleFile);
      await form.getByLabel('Passphrase').fill('not the passphrase');
      await form.getByRole('button', { name: 'Preview' }).click();
      await form
        .getByRole('alert')
        .getByText(/passphrase is wrong/)
        .waitFor();
      await form.getByLabel('Passphrase').fill(PASS);
      await form.getByRole('button', { name: 'Preview' }).click();
      const agents = form.getByRole('table', { name: 'Agents of the bundle' });
      await agents.waitFor();
      expect(await agents.innerText()).toMatch(/a\s+claude\s+\S+proj\s+included/);
      await form.getByRole('button', { name: 'Import and resume' }).click();
      const outcomes = form.getByRole('table', { name: 'Import outcome per agent' });
      await outcomes.waitFor();
      expect(await outcomes.innerText()).toMatch(/a\s+claude\s+resumed/);
      await form.getByRole('button', { name: 'Done' }).click();
      await history().getByRole('button', { name: 'demo (2)', exact: true }).waitFor();
      const imported = await client!.call('run.get', { run: 'demo (2)' });
      await ask(client!, agentByLabel(imported.agents, 'b').id, QUESTION, `The number is ${numbers.b}.`, WAIT_MS);
      expect(pageErrors).toEqual([]);
    });
  },
);
