// The WebGL pool in Chromium with WebGL on (its software rasterizer): a run of 12 panes in view holds at most 8
// contexts, the others draw with the DOM renderer and show their text; a pane whose context is lost shows its text
// with the DOM renderer again (xterm's addon alone would draw nothing until its 3 s restore timeout).
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { launchBrowser, screenshot, skipUnlessChromium, type BrowserSession } from './browser.js';

const skipReason = skipUnlessChromium();
const PANES = 12;

let root = '';
let server: ServerProcess;
let client: RpcClient;
let session: BrowserSession | null = null;
let page: Page;
let agentIds: string[] = [];

describe.skipIf(skipReason !== null)(`the WebGL pool in Chromium${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    root = realpathSync(tempDir('baton-webgl-'));
    const work = join(root, 'work');
    mkdirSync(work, { recursive: true });
    server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
    client = await server.connect();
    const run = await client.call('run.start', {
      name: 'gl',
      agents: Array.from({ length: PANES }, (_, k) => ({
        vendor: 'shell' as const,
        label: `p${k + 1}`,
        cwd: work,
        command: ['sh', '-c', `echo "pane ${k + 1} is ready"; exec cat`],
      })),
    });
    agentIds = run.agents.map((a) => a.id);
    session = await launchBrowser({ webgl: true });
    page = session.page;
    page.setDefaultTimeout(30_000);
  }, 120_000);

  afterAll(async () => {
    await session?.close();
    await client?.call('run.stop', { run: 'gl' }).catch(() => undefined);
    client?.close();
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGTERM');
      await server.exited;
    }
    if (root) rmSync(root, { recursive: true, force: true });
  });

  /** Per pane: whether it draws on a WebGL canvas, and the text its DOM renderer shows (empty while on WebGL). */
  const panes = () =>
    page.evaluate((ids) => {
      return ids.map((id) => {
        const el = document.querySelector(`[data-agent-id="${id}"]`);
        return {
          webgl: el?.querySelector('.xterm-screen canvas') !== null && el !== null,
          text: (el?.querySelector('.xterm-rows') as HTMLElement | null)?.innerText.replace(/\u00a0/g, ' ') ?? '',
        };
      });
    }, agentIds);

  it('holds at most 8 contexts for 12 panes in view; every other pane shows its text with the DOM renderer', async () => {
    await page.goto(`${server.url}/#token=${server.token}`);
    await page
      .locator('.bt-grid .bt-pane')
      .nth(PANES - 1)
      .waitFor();
    const state = await waitFor(
      async () => {
        const s = await panes();
        // Settled: every pane either on WebGL or showing its own text.
        return s.every((p, k) => p.webgl || p.text.includes(`pane ${k + 1} is ready`)) ? s : undefined;
      },
      'every pane drawn',
      30_000,
    );
    const onGl = state.filter((p) => p.webgl).length;
    expect(onGl).toBeGreaterThan(0); // Chromium gave WebGL: the pool is in use
    expect(onGl).toBeLessThanOrEqual(8);
    expect(state.filter((p) => !p.webgl).length).toBe(PANES - onGl);
    await screenshot(page, 'webgl-pool-12-panes');
  });

  it('a pane whose context is lost shows its text with the DOM renderer, not a blank pane', async () => {
    const before = await panes();
    const k = before.findIndex((p) => p.webgl);
    expect(k).toBeGreaterThanOrEqual(0);
    await page.evaluate((id) => {
      // The renderer's own canvas (the addon also draws links on a 2D canvas of its own).
      for (const canvas of document.querySelectorAll<HTMLCanvasElement>(`[data-agent-id="${id}"] .xterm-screen canvas`))
        canvas.getContext('webgl2')?.getExtension('WEBGL_lose_context')?.loseContext();
    }, agentIds[k]!);
    // Handled as the loss is reported, not after the addon's 3 s wait for a restore: two frames later, no canvas.
    const goneNextFrames = await page.evaluate(async (id) => {
      for (let i = 0; i < 2; i++) await new Promise((r) => requestAnimationFrame(r));
      return document.querySelector(`[data-agent-id="${id}"] .xterm-screen canvas`) === null;
    }, agentIds[k]!);
    expect(goneNextFrames).toBe(true);
    const after = await waitFor(
      async () => {
        const s = await panes();
        return !s[k]!.webgl && s[k]!.text.includes(`pane ${k + 1} is ready`) ? s : undefined;
      },
      'the pane to draw its text with the DOM renderer',
      10_000,
    );
    expect(after[k]!.text).toContain(`pane ${k + 1} is ready`);
  });
});
