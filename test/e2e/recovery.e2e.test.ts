// A core killed without goodbye, seen from the dashboard in a real browser (Debian's Chromium via playwright-core),
// in web mode: two runs are live, `baton serve` is killed with SIGKILL and started again on the same port and token;
// the page reconnects by itself, offers "Resume the 2 runs that were running", and one click brings both panes back
// live (each agent's outcome shown), the Claude agent in its own conversation.
import { spawn } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { connect } from '../../electron/cli/connect.js';
import { ask, BATON_BIN, randomNumber, screenText, tempDir, testEnv, waitFor } from '../helpers/server.js';
import { launchBrowser, screenshot, skipUnlessChromium, type BrowserSession } from './browser.js';

const skipReason = skipUnlessChromium();
if (skipReason) console.warn(`[e2e] ${skipReason}`);

const WAIT_MS = 20_000;
// A fixed token, so the page (which keeps it for the tab) reconnects to the restarted server by itself.
const TOKEN = 'e2e-Recovery-Token-7f3c9a1b2d4e6f80';

interface Served {
  url: string;
  pid: number;
  exited: Promise<unknown>;
  kill(signal: NodeJS.Signals): void;
}

let root = '';
let dataDir = '';
let work = '';
let env: Record<string, string> = {};
let session: BrowserSession | null = null;
let page: Page;
const servers: Served[] = [];
const clients: RpcClient[] = [];

/** `baton serve` on `port` (0: any) with the fixed token; resolves once it prints its address. */
async function serve(port: number): Promise<Served> {
  const child = spawn(process.execPath, [BATON_BIN, 'serve', '--port', String(port), '--data-dir', dataDir], {
    env: { ...env, BATON_TOKEN: TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise((r) => child.once('exit', r));
  const url = await waitFor(
    () => /Open (http:\/\/[^/\s]+)\//.exec(output)?.[1],
    `baton serve to print its address (output so far: ${output})`,
  );
  const served = { url, pid: child.pid!, exited, kill: (signal: NodeJS.Signals) => child.kill(signal) };
  servers.push(served);
  return served;
}

async function rpc(url: string): Promise<RpcClient> {
  const c = await connect({ url, token: TOKEN });
  clients.push(c);
  return c;
}

const pane = (label: string): Locator => page.getByRole('region', { name: label, exact: true });
const banner = (): Locator => page.getByRole('region', { name: 'Interrupted runs' });

async function paneText(label: string): Promise<string> {
  const rows = pane(label).locator('.xterm-rows');
  if ((await rows.count()) === 0) return '';
  return (await rows.innerText()).replace(/\u00a0/g, ' ');
}

const waitForPane = (label: string, expected: string, what: string) =>
  waitFor(async () => (await paneText(label)).includes(expected), `${what} in the pane ${label}`, WAIT_MS);

async function typeInto(label: string, text: string): Promise<void> {
  await pane(label).locator('.xterm-screen').click();
  await page.keyboard.type(text);
  await page.waitForTimeout(500);
  await page.keyboard.press('Enter');
}

describe.skipIf(skipReason !== null)(
  `recovery after the core is killed, in Chromium${skipReason ? ` — ${skipReason}` : ''}`,
  () => {
    beforeAll(async () => {
      root = realpathSync(tempDir('baton-e2e-recovery-'));
      dataDir = join(root, 'data');
      work = join(root, 'work');
      mkdirSync(work, { recursive: true });
      env = testEnv(join(root, 'home'));
      session = await launchBrowser();
      page = session.page;
      page.setDefaultTimeout(WAIT_MS);
    });

    afterEach(async (ctx) => {
      if (ctx.task.result?.state === 'fail' && session)
        await screenshot(page, 'recovery-failed').catch(() => undefined);
    });

    afterAll(async () => {
      await session?.close();
      for (const c of clients.splice(0)) c.close();
      for (const s of servers.splice(0)) {
        s.kill('SIGTERM');
        await s.exited;
      }
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it('kill -9 the server, start it again: the page offers to resume the runs that were running, and one click brings the panes back live', async () => {
      const first = await serve(0);
      const port = Number(new URL(first.url).port);
      const c1 = await rpc(first.url);
      const number = randomNumber();
      const demo = await c1.call('run.start', {
        name: 'demo',
        agents: [{ vendor: 'claude', label: 'planner', cwd: work }],
      });
      const planner = demo.agents[0]!;
      await waitFor(async () => (await screenText(c1, planner.id)).includes('? for shortcuts'), 'the Claude prompt');
      await ask(c1, planner.id, `remember the number ${number}`, `OK, I will remember ${number}.`);
      await c1.call('run.start', {
        name: 'side',
        agents: [{ vendor: 'shell', label: 'console', cwd: work, command: ['/bin/sh'] }],
      });

      await page.goto(`${first.url}/#token=${TOKEN}`);
      await page
        .getByRole('navigation', { name: 'Run history' })
        .getByRole('button', { name: 'demo', exact: true })
        .click();
      await waitForPane('planner', `OK, I will remember ${number}.`, 'the conversation');
      await page
        .locator('.bt-topbar')
        .getByRole('status')
        .filter({ hasText: '2 agents running in the core' })
        .waitFor();

      first.kill('SIGKILL');
      await first.exited;
      await page.getByRole('alert').filter({ hasText: 'Disconnected from the Baton core' }).waitFor();

      await serve(port);
      // The same page, reconnected on its own: no reload, no new link.
      const resume = banner().getByRole('button', { name: 'Resume the 2 runs that were running' });
      await resume.waitFor();
      expect(await banner().innerText()).toMatch(/demo \(1 agent\), side \(1 agent\)/);
      await page
        .locator('.bt-topbar')
        .getByRole('status')
        .filter({ hasText: '0 agents running in the core' })
        .waitFor();
      await screenshot(page, 'recovery-1-offer');

      await resume.click();
      const demoOutcome = banner().getByRole('table', { name: 'Run demo: outcome per agent' });
      await demoOutcome.waitFor();
      expect((await demoOutcome.innerText()).replace(/\s+/g, ' ')).toMatch(/planner claude resumed/);
      const sideOutcome = (
        await banner().getByRole('table', { name: 'Run side: outcome per agent' }).innerText()
      ).replace(/\s+/g, ' ');
      expect(sideOutcome).toMatch(/console shell fresh: a shell has no conversation to resume/);
      expect(await banner().innerText()).toMatch(/1 resumed, 1 started fresh, 0 failed/);
      await page
        .locator('.bt-topbar')
        .getByRole('status')
        .filter({ hasText: '2 agents running in the core' })
        .waitFor();

      // The pane is live again, in its own conversation.
      await waitForPane('planner', '? for shortcuts', 'the resumed prompt');
      await typeInto('planner', 'what number did I ask you to remember');
      await waitForPane('planner', `The number is ${number}.`, 'the remembered number');
      await page
        .getByRole('navigation', { name: 'Run history' })
        .getByRole('button', { name: 'side', exact: true })
        .click();
      await typeInto('console', 'echo recovered-$((6*7))');
      await waitForPane('console', 'recovered-42', 'the shell answering');
      await screenshot(page, 'recovery-2-resumed');

      await banner().getByRole('button', { name: 'Dismiss' }).click();
      await banner().waitFor({ state: 'detached' });
    });
  },
);
