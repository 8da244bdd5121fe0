// Cost in the dashboard (docs/cost.md), in a real browser against a real `baton serve` and the fake Claude, which
// records 10 input and 5 output tokens per answer in its transcript as the real CLI does. What a person sees: the pane
// header's figure grows with each answer and across /clear, the run's row in the history and the toolbar show the
// run's sum, the cost stays "unknown" while the model has no price, and a prices.json in the data directory prices it.
import { realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { startServer, tempDir, testEnv, type ServerProcess } from '../helpers/server.js';
import { launchBrowser, screenshot, skipUnlessChromium, type BrowserSession } from './browser.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';

const skipReason = skipUnlessChromium();
if (skipReason) console.warn(`[e2e] ${skipReason}`);

const WAIT_MS = 20_000;

let root = '';
let server: ServerProcess | null = null;
let client: RpcClient | null = null;
let session: BrowserSession | null = null;
let page: Page;

const pane = (label: string): Locator => page.getByRole('region', { name: label, exact: true });
const paneCost = (label: string): Locator => pane(label).locator('header .bt-pane-cost');
const history = (): Locator => page.getByRole('navigation', { name: 'Run history' });

async function say(label: string, text: string): Promise<void> {
  await pane(label).locator('.xterm-screen').click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

describe.skipIf(skipReason !== null)(
  `cost in the dashboard, in Chromium${skipReason ? ` — ${skipReason}` : ''}`,
  () => {
    beforeAll(async () => {
      root = realpathSync(tempDir('baton-e2e-cost-'));
      server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
      client = await server.connect();
      session = await launchBrowser();
      page = session.page;
      page.setDefaultTimeout(WAIT_MS);
      await page.goto(`${server.url}/#token=${server.token}`);
    });

    afterEach(async (ctx) => {
      if (ctx.task.result?.state === 'fail' && session) await screenshot(page, 'failed-cost').catch(() => undefined);
    });

    afterAll(async () => {
      await session?.close();
      client?.close();
      await endServerAndRemove(server, root);
    });

    it('shows tokens per pane and per run, follows /clear, says unknown until prices.json prices the model', async () => {
      const work = join(root, 'home');
      await client!.call('run.start', { name: 'spend', agents: [{ vendor: 'claude', label: 'writer', cwd: work }] });
      await history().getByRole('button', { name: 'spend', exact: true }).click();
      await pane('writer').locator('.xterm-rows').filter({ hasText: '? for shortcuts' }).waitFor();
      // Nothing said yet: known to be nothing, not unknown.
      await expect.poll(() => paneCost('writer').innerText(), { timeout: WAIT_MS }).toBe('0 tok · $0.00');

      await say('writer', 'remember the number 4321');
      await expect.poll(() => paneCost('writer').innerText(), { timeout: WAIT_MS }).toBe('15 tok · cost unknown');
      expect(await paneCost('writer').getAttribute('title')).toMatch(/no price for claude-fake/);

      await say('writer', '/clear');
      await say('writer', 'remember the number 8765');
      await expect.poll(() => paneCost('writer').innerText(), { timeout: WAIT_MS }).toBe('30 tok · cost unknown');
      expect(await paneCost('writer').getAttribute('title')).toContain('2 sessions summed');
      await expect.poll(() => page.locator('.bt-toolbar .bt-run-cost').innerText()).toBe('30 tok · cost unknown');
      await expect
        .poll(() => history().locator('.bt-run-row', { hasText: 'spend' }).locator('.bt-run-cost').innerText())
        .toBe('30 tok · cost unknown');

      // The user prices the model: $2 in, $10 out per million tokens.
      writeFileSync(
        join(root, 'data', 'prices.json'),
        JSON.stringify({ asOf: '2026-11-20', families: [{ models: ['claude-fake'], input: 2, output: 10 }] }),
      );
      await expect.poll(() => paneCost('writer').innerText(), { timeout: WAIT_MS }).toBe('30 tok · <$0.01');
      expect(await paneCost('writer').getAttribute('title')).toMatch(/priced with prices as of 2026-11-20/);
      await screenshot(page, 'cost-pane-header');
    });
  },
);
