// Panes fitted to their grid cells, in Chromium with a real core: the fit is computed from sizes the page measured
// (a ResizeObserver's report and xterm's cell size, renderer/panes/pane-fit.ts), never from a layout read. Each pane
// must fill its cell exactly (no row or column cut off, no room left for another), and the agent in it must see that
// same size: on a first visit, after the window is resized, and on a run shown again after the window changed while
// it was hidden.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { waitFor, type ServerProcess } from '../helpers/server.js';
import { paneRows, startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();
/** A 2 × 2 grid. */
const AGENTS = 4;
/** xterm's scroll bar, which the fit leaves out of a pane's width (the default the fit addon uses). */
const SCROLL_BAR = 14;

let web: WebMachine | null = null;
let server: ServerProcess;
let client: RpcClient;
let page: Page;
let grid: string[] = [];

/** The agent says the size of its terminal, over and over (the PTY's rows and columns, as a program sees them). */
const sizer = 'while :; do stty size; sleep 0.3; done';

interface Geometry {
  hostWidth: number;
  hostHeight: number;
  screenWidth: number;
  screenHeight: number;
  rows: number;
}

/** The pane's cell (its xterm's host), its xterm's drawn screen and the rows it shows, as laid out now. */
function geometry(id: string): Promise<Geometry | null> {
  return page.evaluate((agentId) => {
    const pane = document.querySelector(`[data-agent-id="${agentId}"]`);
    const host = pane?.querySelector('.bt-pane-body .bt-xterm-host');
    const screen = host?.querySelector('.xterm-screen');
    const rows = host?.querySelector('.xterm-rows');
    if (!host || !screen || !rows) return null;
    const h = host.getBoundingClientRect();
    const s = screen.getBoundingClientRect();
    return {
      hostWidth: h.width,
      hostHeight: h.height,
      screenWidth: s.width,
      screenHeight: s.height,
      rows: rows.childElementCount,
    };
  }, id);
}

/** The size the agent last said, if the pane shows it. */
async function agentSize(id: string): Promise<{ rows: number; cols: number } | null> {
  const said = (await paneRows(page, id)).flatMap((l) => {
    const m = /^(\d+) (\d+)$/.exec(l);
    return m ? [{ rows: Number(m[1]), cols: Number(m[2]) }] : [];
  });
  return said.at(-1) ?? null;
}

/**
 * Whether the pane fills its cell exactly and its agent sees that size: the screen and the scroll bar fit in the cell
 * and one more row or column would not (the cell's size in whole pixels, as the fit addon reads it), and the rows and
 * columns the agent reports are the ones drawn.
 */
async function fitsItsCell(id: string): Promise<boolean> {
  const [g, said] = [await geometry(id), await agentSize(id)];
  if (!g || !said || said.rows !== g.rows) return false;
  const cell = { width: g.screenWidth / said.cols, height: g.screenHeight / g.rows };
  const width = Math.trunc(g.hostWidth) - SCROLL_BAR;
  const height = Math.trunc(g.hostHeight);
  const eps = 0.5;
  return (
    g.screenWidth <= width + eps &&
    g.screenWidth + cell.width > width + eps &&
    g.screenHeight <= height + eps &&
    g.screenHeight + cell.height > height + eps
  );
}

describe.skipIf(skipReason !== null)(`panes fitted to their cells${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    web = await startWebMachine('baton-pane-fit-');
    ({ server, client } = web);
    const { work } = web.machine;
    const run = await client.call('run.start', {
      name: 'grid',
      agents: Array.from({ length: AGENTS }, (_, k) => ({
        vendor: 'shell' as const,
        label: `g${k + 1}`,
        cwd: work,
        command: ['sh', '-c', sizer],
      })),
    });
    grid = run.agents.map((a) => a.id);
    await client.call('run.start', {
      name: 'other',
      agents: [{ vendor: 'shell' as const, label: 'other', cwd: work, command: ['sh', '-c', 'echo other; exec cat'] }],
    });
    page = (await web.openBrowser()).page;
  }, 120_000);

  afterAll(() => web?.close());

  const runButton = (name: string) =>
    page.getByRole('list', { name: 'Runs' }).getByRole('button', { name, exact: true });
  const allFit = async (when: string) => {
    for (const id of grid) await waitFor(() => fitsItsCell(id), `pane ${id} fits its cell ${when}`, 20_000);
    return Promise.all(grid.map((id) => geometry(id)));
  };

  it('fits every pane to its cell on a first visit, after a window resize, and when shown again', async () => {
    await page.goto(`${server.url}/#token=${server.token}`);
    await runButton('grid').click();
    const first = await allFit('on a first visit');

    await page.setViewportSize({ width: 1000, height: 640 });
    const smaller = await allFit('after the window shrank');
    // The cells did change: the fit followed them, not the size it had.
    expect(smaller[0]!.rows).toBeLessThan(first[0]!.rows);

    // Resized while its panes were parked: shown again, each fits its new cell.
    await runButton('other').click();
    await page.locator('.xterm-rows', { hasText: 'other' }).waitFor();
    await page.setViewportSize({ width: 1400, height: 860 });
    await runButton('grid').click();
    const again = await allFit('when shown again in a larger window');
    expect(again[0]!.rows).toBe(first[0]!.rows);
  }, 120_000);
});
