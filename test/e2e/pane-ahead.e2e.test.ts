// Loading panes ahead, several at once, in Chromium with a real core and agents that keep printing
// (renderer/panes/pane-warmup.ts, docs/performance.md "Switch p99: loading ahead (switch6)"). The page loads every live
// agent's pane in the background, a few at a time, while the user works: a run the user opens meanwhile keeps its panes
// in view and current while the others load, and every run never opened then shows each pane's screen the moment it is
// switched to (already in the page, not fetched then) and follows its agent. A pane loaded ahead has the size its cell
// will give it, and its agent knows that size, before the pane is shown.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { waitFor, type ServerProcess } from '../helpers/server.js';
import { paneRows, startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();
const RUNS = 4;
const AGENTS = 4;

let web: WebMachine | null = null;
let server: ServerProcess;
let client: RpcClient;
let page: Page;
const runs: { name: string; agents: string[] }[] = [];

const printer = (label: string) =>
  [`seq -f '${label} hist %g' 1 300`, 'i=0', `while :; do i=$((i+1)); echo "${label} tick $i"; sleep 0.2; done`].join(
    '; ',
  );

describe.skipIf(skipReason !== null)(`panes loaded ahead${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    web = await startWebMachine('baton-pane-ahead-');
    ({ server, client } = web);
    for (let r = 1; r <= RUNS; r++) {
      const run = await client.call('run.start', {
        name: `ahead-${r}`,
        agents: Array.from({ length: AGENTS }, (_, k) => ({
          vendor: 'shell' as const,
          label: `a${k + 1}`,
          cwd: web!.machine.work,
          command: ['sh', '-c', printer(`r${r}a${k + 1}`)],
        })),
      });
      runs.push({ name: run.name, agents: run.agents.map((a) => a.id) });
    }
    page = (await web.openBrowser()).page;
  }, 120_000);

  afterAll(() => web?.close());

  const runButton = (name: string) =>
    page.getByRole('list', { name: 'Runs' }).getByRole('button', { name, exact: true });
  const newestTick = (lines: readonly string[]) =>
    lines.reduce((most, l) => Math.max(most, Number(/ tick (\d+)$/.exec(l)?.[1] ?? -1)), -1);
  const coreTick = async (agentId: string) =>
    newestTick((await client.call('agent.screen', { agentId })).text.split('\n'));
  /** Each pane of the run shows output its agent printed after `before` was taken. */
  const current = async (agents: string[]) => {
    const before = new Map<string, number>();
    for (const id of agents) before.set(id, await coreTick(id));
    return async () => {
      for (const id of agents)
        await waitFor(async () => newestTick(await paneRows(page, id)) > before.get(id)!, `pane ${id} current`, 20_000);
    };
  };
  /** The agents whose pane is in its place in the run's grid (not parked off-screen) and has a screen drawn. */
  const inView = (agents: string[]) =>
    page.evaluate(
      (ids) =>
        ids.filter((id) => {
          const rows = document.querySelector<HTMLElement>(`[data-agent-id="${id}"] .xterm-rows`);
          const box = rows?.getBoundingClientRect();
          return !!box && box.width > 0 && box.left >= 0 && (rows?.innerText.trim() ?? '') !== '';
        }),
      agents,
    );
  const xterms = () => page.locator('.bt-xterm-host').count();
  /** The agent's terminal size as the core has it (its PTY's, which its mirror follows). */
  const ptySize = async (agentId: string) => {
    const { cols, rows } = await client.call('agent.screen', { agentId });
    return `${cols}x${rows}`;
  };
  /** The rows the pane draws in its place in the grid. */
  const drawnRows = (agentId: string) =>
    page.evaluate(
      (id) => document.querySelector(`[data-agent-id="${id}"] .bt-pane-body .xterm-rows`)?.childElementCount ?? 0,
      agentId,
    );

  it('keeps the opened run in view while the others load, then shows each never-opened run current at once', async () => {
    await page.goto(`${server.url}/#token=${server.token}`);
    // The oldest run, opened by the user while the page loads the other runs' panes ahead.
    const [opened, ...others] = runs;
    await runButton(opened!.name).click();
    const openedCurrent = await current(opened!.agents);
    await openedCurrent();
    // Until every live agent has its pane in the page, the user's panes stay in view, drawn, and follow their agents.
    await waitFor(
      async () => {
        expect(await inView(opened!.agents)).toEqual(opened!.agents);
        return (await xterms()) === RUNS * AGENTS;
      },
      'every pane loaded ahead',
      30_000,
    );
    await (
      await current(opened!.agents)
    )();
    // The opened run's panes are fitted to their cells, and their agents told that size.
    const cell = await ptySize(opened!.agents[0]!);
    for (const id of opened!.agents) expect(await ptySize(id)).toBe(cell);
    expect(Number(cell.split('x')[1])).toBe(await drawnRows(opened!.agents[0]!));

    // A pane loaded ahead is given the cell its run's grid will give it (the same shape as the opened run's), and its
    // agent is told that size, before the pane is ever shown: the switch then resizes nothing.
    for (const run of others)
      for (const id of run.agents)
        await waitFor(async () => (await ptySize(id)) === cell, `${id}: sized ahead to ${cell}`, 10_000);

    // Each run never opened: its panes are in the page already; switched to, each shows its screen and then its
    // agent's newest output.
    for (const run of others) {
      const follows = await current(run.agents);
      await runButton(run.name).click();
      await waitFor(
        async () => (await inView(run.agents)).length === AGENTS,
        `${run.name}: every pane shows a screen`,
        10_000,
      );
      await follows();
      for (const id of run.agents) {
        expect(await ptySize(id)).toBe(cell);
        expect(await drawnRows(id)).toBe(Number(cell.split('x')[1]));
      }
      // Switching opened no pane: every one was there (one xterm per agent for the life of the page).
      expect(await xterms()).toBe(RUNS * AGENTS);
    }
  }, 180_000);
});
