// The WebGL pool in Chromium with WebGL on (its software rasterizer): a run of 12 panes in view holds at most 8
// contexts, the others draw with the DOM renderer and show their text; a pane whose context is lost shows its text
// with the DOM renderer again (xterm's addon alone would draw nothing until its 3 s restore timeout).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { waitFor, type ServerProcess } from '../helpers/server.js';
import { startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { screenshot, skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();
const PANES = 12;

let web: WebMachine | null = null;
let server: ServerProcess;
let client: RpcClient;
let page: Page;
let agentIds: string[] = [];

describe.skipIf(skipReason !== null)(`the WebGL pool in Chromium${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    web = await startWebMachine('baton-webgl-');
    ({ server, client } = web);
    const { work } = web.machine;
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
    page = (await web.openBrowser({ webgl: true })).page;
  }, 120_000);

  afterAll(() => web?.close());

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
