// Typing into one pane while another floods, in Chromium: the flooding pane's output waits behind the keystrokes'
// echoes (renderer/panes/write-pacer.ts) but none of it is lost, reordered or doubled, and every key typed reaches
// its agent and is echoed. The flooding pane is drawn at most 20 times a second (renderer/panes/render-throttle.ts) and
// acks in batches (pane-output.ts): the rows it draws still end on the flood's last lines, and its scrollbar, synced
// only at its draws while it floods (flood-quiet.ts), ends at the bottom and follows a scroll up; a user who scrolls up
// during a flood stays where they scrolled. The figures (echo latency, the flooder's rate) are the renderer bench's.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { waitFor, type ServerProcess } from '../helpers/server.js';
import { paneRows, startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();
const LINES = 200_000;
const SECOND_LINES = 1_500_000;
// Shorter than a pane's width, so it stays on one row.
const TYPED = 'quick brown fox, flood aside';

let web: WebMachine | null = null;
let server: ServerProcess;
let client: RpcClient;
let page: Page;
let typistId = '';
let flooderId = '';

describe.skipIf(skipReason !== null)(`typing while another pane floods${skipReason ? ` — ${skipReason}` : ''}`, () => {
  beforeAll(async () => {
    web = await startWebMachine('baton-pacing-');
    ({ server, client } = web);
    const { work } = web.machine;
    const run = await client.call('run.start', {
      name: 'pacing',
      agents: [
        { vendor: 'shell' as const, label: 'typist', cwd: work, command: ['sh', '-c', 'echo typist ready; exec cat'] },
        {
          vendor: 'shell' as const,
          label: 'flooder',
          cwd: work,
          command: [
            'sh',
            '-c',
            `echo flooder ready; read go; seq 1 ${LINES}; echo flood done; read again; seq 1 ${SECOND_LINES}; echo second done; exec cat`,
          ],
        },
      ],
    });
    [typistId, flooderId] = run.agents.map((a) => a.id) as [string, string];
    page = (await web.openBrowser()).page;
  }, 120_000);

  afterAll(() => web?.close());

  const rows = (agentId: string) => paneRows(page, agentId);

  it('keeps every flooded line, in order, and echoes every key typed meanwhile', async () => {
    await page.goto(`${server.url}/#token=${server.token}`);
    await waitFor(async () => (await rows(typistId)).includes('typist ready'), 'the typist pane', 30_000);
    await waitFor(async () => (await rows(flooderId)).includes('flooder ready'), 'the flooder pane', 30_000);
    await page.locator(`[data-agent-id="${typistId}"] .xterm-screen`).click();
    await client.call('agent.write', { agentId: flooderId, data: '\n' });
    await page.keyboard.type(TYPED, { delay: 10 });
    await page.keyboard.press('Enter');

    await waitFor(async () => (await rows(flooderId)).includes('flood done'), 'the end of the flood', 120_000);
    const flood = await rows(flooderId);
    const end = flood.indexOf('flood done');
    const numbers = flood.slice(0, end).filter((l) => /^\d+$/.test(l));
    expect(numbers.length).toBeGreaterThan(5);
    // The lines above the end are the last of 1…LINES, each once, in order.
    expect(numbers.map(Number)).toEqual(numbers.map((_, i) => LINES - numbers.length + 1 + i));
    // The terminal echoed the line as typed, and cat printed it back once Enter reached it.
    await waitFor(
      async () => (await rows(typistId)).filter((l) => l === TYPED).length === 2,
      'the typed line, echoed and printed back',
      30_000,
    );
  }, 240_000);

  it("leaves the flooded pane's scrollbar at the bottom, and it follows a scroll up", async () => {
    const box = (sel: string) =>
      page.evaluate((q) => {
        const r = document.querySelector(q)?.getBoundingClientRect();
        return r ? { top: r.top, bottom: r.bottom, height: r.height } : null;
      }, sel);
    const bar = `[data-agent-id="${flooderId}"] .xterm-scrollable-element > .scrollbar.vertical`;
    const track = (await box(bar))!;
    const atEnd = (await box(`${bar} > .slider`))!;
    expect(track.height).toBeGreaterThan(50);
    // 200,000 lines flooded: a small slider, at the bottom of its track.
    expect(atEnd.height).toBeLessThan(track.height / 2);
    expect(Math.abs(track.bottom - atEnd.bottom)).toBeLessThanOrEqual(2);

    const screen = (await page.locator(`[data-agent-id="${flooderId}"] .xterm-screen`).boundingBox())!;
    await page.mouse.move(screen.x + screen.width / 2, screen.y + screen.height / 2);
    // A few screens up (the pane keeps thousands of lines: a screen moves the slider by a pixel or two).
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -2000);
    await waitFor(async () => !(await rows(flooderId)).includes('flood done'), 'the pane scrolled up', 30_000);
    await waitFor(
      async () => (await box(`${bar} > .slider`))!.bottom < atEnd.bottom - 4,
      `the slider following the scroll (at the end: ${JSON.stringify(atEnd)}, track ${JSON.stringify(track)})`,
      30_000,
    );
    // The rows in view are earlier lines of the flood, in order.
    const numbers = (await rows(flooderId)).filter((l) => /^\d+$/.test(l)).map(Number);
    expect(numbers.length).toBeGreaterThan(5);
    expect(numbers).toEqual(numbers.map((_, i) => numbers[0]! + i));
    expect(numbers.at(-1)!).toBeLessThan(LINES);
  }, 60_000);

  it('lets the user scroll up while the pane floods, keeps the view there, and a key brings it back to the end', async () => {
    for (let i = 0; i < 20; i++) await page.mouse.wheel(0, 4000);
    await waitFor(async () => (await rows(flooderId)).includes('flood done'), 'back at the bottom', 30_000);
    await client.call('agent.write', { agentId: flooderId, data: '\n' });
    const drawn = () => rows(flooderId).then((r) => r.filter((l) => /^\d+$/.test(l)).map(Number));
    // The second flood is under way: the pane draws its numbers, not yet its end.
    await waitFor(async () => (await drawn()).some((n) => n > 20_000 && n < SECOND_LINES), 'the flood drawn', 60_000);
    for (let i = 0; i < 10; i++) await page.mouse.wheel(0, -2000);
    await waitFor(
      async () => (await client.call('agent.screen', { agentId: flooderId })).text.includes('second done'),
      'the end of the flood (in the core)',
      120_000,
    );
    await new Promise((r) => setTimeout(r, 500));
    // Still scrolled up: earlier lines, in order, not the end.
    const up = await drawn();
    expect(up.length).toBeGreaterThan(5);
    expect(up).toEqual(up.map((_, i) => up[0]! + i));
    expect(await rows(flooderId)).not.toContain('second done');
    // Scrolling down moves the view on (a wheel step is a few lines here), and a key typed into the pane brings it
    // back to the end, as xterm does.
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 4000);
    await waitFor(async () => ((await drawn())[0] ?? 0) > up[0]!, 'the view scrolled down', 30_000);
    await page.locator(`[data-agent-id="${flooderId}"] .xterm-screen`).click();
    await page.keyboard.type('x');
    await waitFor(async () => (await rows(flooderId)).includes('second done'), 'the end, after a key', 30_000);
  }, 240_000);
});
