// Baton at a hundred agents, as a user sees it in Chromium: 100 fake agents (shells printing agent-like bursts) in 10
// runs, next to a history of 10,000 stopped runs. Every pane is shown once and none is blank; the history list stays
// usable (searching it narrows it to the run typed). Screenshots of a 4×4 grid and of the history go to
// test-results/screenshots/. No time is asserted here: the figures are the renderer bench's (docs/performance.md).
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { writeStoredRuns } from '../helpers/stored-runs.js';
import { launchBrowser, screenshot, skipUnlessChromium, type BrowserSession } from './browser.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';

const skipReason = skipUnlessChromium();
const STORED_RUNS = 10_000;
/** 100 agents: one run of 16 (the 4×4 grid), nine of 9 or 10. */
const RUN_SIZES = [16, 9, 9, 9, 9, 9, 9, 10, 10, 10];
const WAIT_MS = 60_000;

/**
 * A step of work now and then, as an agent prints: a status line, a few lines of output, a pause. In bash, waiting with
 * `read -t 1` on a pipe of its own: a `sleep 1` would fork a process a second per agent, a hundred for the test.
 */
const BURSTY = [
  'exec 3<> <(:)',
  'i=0',
  'while :; do',
  '  i=$((i+1))',
  `  printf '\\033[1;36m● step %d\\033[0m reading files, planning the change\\n' "$i"`,
  `  printf '  ⎿ src/module-%d.ts (+%d −%d)\\n' "$i" "$((i % 7))" "$((i % 3))"`,
  '  read -t 1 -u 3',
  'done',
].join('\n');

let root = '';
let server: ServerProcess;
let client: RpcClient;
let session: BrowserSession | null = null;
let page: Page;
const runs: { name: string; agentIds: string[] }[] = [];

describe.skipIf(skipReason !== null)(`a hundred agents in Chromium${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    root = realpathSync(tempDir('baton-scale-'));
    const work = join(root, 'work');
    mkdirSync(work, { recursive: true });
    writeStoredRuns(join(root, 'data'), STORED_RUNS, work);
    server = await startServer(join(root, 'data'), testEnv(join(root, 'home')));
    client = await server.connect();
    for (const [r, size] of RUN_SIZES.entries()) {
      const name = `live-${String(r + 1).padStart(2, '0')}`;
      const run = await client.call('run.start', {
        name,
        agents: Array.from({ length: size }, (_, k) => ({
          vendor: 'shell' as const,
          label: `a${k + 1}`,
          cwd: work,
          command: ['bash', '-c', BURSTY],
        })),
      });
      runs.push({ name, agentIds: run.agents.map((a) => a.id) });
    }
    session = await launchBrowser();
    page = session.page;
    page.setDefaultTimeout(WAIT_MS);
  }, 600_000);

  afterAll(async () => {
    await session?.close();
    for (const run of runs) await client?.call('run.stop', { run: run.name }).catch(() => undefined);
    client?.close();
    await endServerAndRemove(server, root);
  });

  const search = () => page.getByRole('searchbox', { name: 'Search runs' });
  const list = () => page.getByRole('list', { name: 'Runs' });
  /** What the pane's terminal shows (xterm's DOM renderer), blanks trimmed. */
  const paneText = (agentId: string) =>
    page
      .locator(`[data-agent-id="${agentId}"] .xterm-rows`)
      .innerText()
      .then((t) => t.replace(/\u00a0/g, ' ').trim());

  it('shows every one of the 100 panes, none blank; a 4×4 grid', async () => {
    await page.goto(`${server.url}/#token=${server.token}`);
    await list().waitFor();
    const shown = new Set<string>();
    for (const run of runs) {
      await search().fill(run.name);
      await list().getByRole('button', { name: run.name, exact: true }).click();
      for (const agentId of run.agentIds) {
        await waitFor(
          async () => /step \d+/.test(await paneText(agentId)),
          `pane ${agentId} of ${run.name} to show its agent's output`,
          WAIT_MS,
        );
        shown.add(agentId);
      }
      const blank = [];
      for (const agentId of run.agentIds) if ((await paneText(agentId)) === '') blank.push(agentId);
      expect(blank).toEqual([]);
    }
    expect(shown.size).toBe(100);

    await search().fill(runs[0]!.name);
    await list().getByRole('button', { name: runs[0]!.name, exact: true }).click();
    const panes = page.locator('.bt-grid .bt-pane');
    await expect.poll(() => panes.count()).toBe(16);
    // Four columns: the first four panes share a top edge, the fifth starts the next row.
    const tops = await panes.evaluateAll((els) => els.map((el) => Math.round(el.getBoundingClientRect().top)));
    expect(new Set(tops.slice(0, 4)).size).toBe(1);
    expect(tops[4]).toBeGreaterThan(tops[0]!);
    await screenshot(page, 'scale-grid-4x4');
  });

  it('lists a history of 10,000 runs and narrows it as the user types', async () => {
    await search().fill('');
    await expect.poll(() => list().getAttribute('aria-rowcount')).toBe(String(STORED_RUNS + runs.length));
    // Only a screenful of rows is in the page, not ten thousand.
    expect(await list().getByRole('listitem').count()).toBeLessThan(200);
    await screenshot(page, 'scale-history-10000');
    // Scrolled to the far end, the oldest run is there to click.
    await page.locator('.bt-side').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await list().getByRole('button', { name: 'history-00001', exact: true }).waitFor();
    await search().fill('history-0999');
    await expect
      .poll(() =>
        list()
          .getByRole('button', { name: /^history-0999\d$/ })
          .count(),
      )
      .toBe(10);
    await screenshot(page, 'scale-history-filtered');
  });
});
