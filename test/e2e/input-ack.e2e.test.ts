// The page's own connection to this machine's core dying unnoticed, in Chromium (docs/hosts.md, "Keys are never lost
// nor typed twice"): the page reaches `baton serve` through a TCP relay of the test's, which can freeze (it reads on
// and forwards nothing: a network gone quiet, neither end aware) and then cut every connection. Keys typed into a pane
// meanwhile must reach the agent exactly once, in order, after the page reconnected by itself. The agent is `cat` on a
// raw terminal writing what it gets to a file: the file must equal what was typed.
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer, connect as tcpConnect, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { launchBrowser, screenshot, skipUnlessChromium, type BrowserSession } from './browser.js';

const skipReason = skipUnlessChromium();
if (skipReason) console.warn(`[e2e] ${skipReason}`);

const WAIT_MS = 20_000;

interface Relay {
  port: number;
  /** Everything on the open connections is read and dropped from now on. */
  freeze(): void;
  /** Ends every open connection (new ones are relayed normally). */
  cut(): void;
  close(): void;
}

/**
 * A TCP relay to `target`. The server accepts only its own Host and Origin, so the relay's port in the requests the
 * page sends is rewritten to the server's (HTTP headers only: WebSocket frames from a browser are masked).
 */
async function relay(target: number): Promise<Relay> {
  const open = new Set<{ page: Socket; core: Socket; frozen: boolean }>();
  let own = 0;
  const server: Server = createServer((page) => {
    const core = tcpConnect(target, '127.0.0.1');
    const pair = { page, core, frozen: false };
    open.add(pair);
    page.on('data', (d: Buffer) => {
      if (!pair.frozen)
        core.write(d.toString('latin1').replaceAll(`127.0.0.1:${own}`, `127.0.0.1:${target}`), 'latin1');
    });
    core.on('data', (d: Buffer) => {
      if (!pair.frozen) page.write(d);
    });
    const end = () => {
      open.delete(pair);
      page.destroy();
      core.destroy();
    };
    page.on('close', end).on('error', end);
    core.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  own = (server.address() as { port: number }).port;
  return {
    port: own,
    freeze: () => open.forEach((p) => (p.frozen = true)),
    cut: () => open.forEach((p) => (p.page.destroy(), p.core.destroy())),
    close: () => {
      open.forEach((p) => (p.page.destroy(), p.core.destroy()));
      server.close();
    },
  };
}

let root = '';
let server: ServerProcess;
let client: RpcClient;
let session: BrowserSession | null = null;
let page: Page;
let link: Relay;

describe.skipIf(skipReason !== null)(
  `keys typed while the page's connection dies unnoticed, in Chromium${skipReason ? ` — ${skipReason}` : ''}`,
  () => {
    beforeAll(async () => {
      root = realpathSync(tempDir('baton-e2e-input-'));
      server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
      client = await server.connect();
      link = await relay(Number(new URL(server.url).port));
      session = await launchBrowser();
      page = session.page;
      page.setDefaultTimeout(WAIT_MS);
    });

    afterEach(async (ctx) => {
      if (ctx.task.result?.state === 'fail' && session)
        await screenshot(page, 'input-ack-failed').catch(() => undefined);
    });

    afterAll(async () => {
      await session?.close();
      link?.close();
      client?.close();
      if (server && server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it('arrive exactly once, in order, after the page reconnected by itself', async () => {
      const work = join(root, 'work');
      mkdirSync(work, { recursive: true });
      await client.call('run.start', {
        name: 'typing',
        agents: [
          {
            vendor: 'shell',
            label: 'cat',
            cwd: work,
            command: ['/bin/sh', '-c', 'stty raw -echo && exec cat > got.txt'],
          },
        ],
      });
      const file = join(work, 'got.txt');
      await waitFor(() => existsSync(file), 'cat to start');
      const got = () => readFileSync(file, 'utf8');

      await page.goto(`http://127.0.0.1:${link.port}/#token=${server.token}`);
      await page
        .getByRole('navigation', { name: 'Run history' })
        .getByRole('button', { name: 'typing', exact: true })
        .click();
      const pane = page.getByRole('region', { name: 'cat', exact: true });
      await pane.locator('.xterm-screen').click();
      let typed = 'before;';
      await page.keyboard.type(typed);
      await waitFor(() => got() === typed, 'the keys typed before the freeze');

      link.freeze();
      await page.keyboard.type('frozen-one;frozen-two;');
      typed += 'frozen-one;frozen-two;';
      // The keys went into the frozen connection: nothing reached the core.
      expect(got()).toBe('before;');
      link.cut();
      await page.getByRole('alert').filter({ hasText: 'Disconnected from the Baton core' }).waitFor();
      await page.keyboard.type('down;');
      typed += 'down;';
      await page
        .getByRole('alert')
        .filter({ hasText: 'Disconnected from the Baton core' })
        .waitFor({ state: 'detached' });
      await page.keyboard.type('after;');
      typed += 'after;';
      await waitFor(() => got().length >= typed.length, 'every key to arrive', WAIT_MS);
      expect(got()).toBe(typed);
      expect(await pane.locator('.xterm-rows').innerText()).not.toContain('input not delivered');
    });
  },
);
