// A notification click takes the user to exactly the agent it named, in Chromium against a real `baton serve` with the
// fake Claude (which runs the hooks Baton passes it). The browser's own Notification API is used, with the
// permission granted to the page's origin through the browser context; the test keeps each notification the page
// creates (the constructor is wrapped, not replaced) and clicks it by dispatching its `click` event, which runs the
// handler the page set. Two agents wait, in two runs: clicking the newer one's notice goes to it, not to the one that
// waited longest ("Next agent that needs me" would); clicking the other's switches the run and shows its tab.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { RunView } from '../../shared/contract.js';
import { waitFor, type ServerProcess } from '../helpers/server.js';
import { startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { screenshot, skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();
const WAIT_MS = 20_000;

/** Keeps every Notification the page creates (still the browser's own object) in `window.__shown`. */
const KEEP_NOTICES = `
  window.__shown = [];
  const Real = window.Notification;
  window.Notification = new Proxy(Real, {
    construct(target, args) {
      const note = Reflect.construct(target, args);
      window.__shown.push(note);
      return note;
    },
  });
`;

let web: WebMachine | null = null;
let server: ServerProcess;
let client: RpcClient;
let page: Page;
let first: RunView;
let second: RunView;

const pane = (label: string): Locator => page.getByRole('region', { name: label, exact: true });
const history = (): Locator => page.getByRole('navigation', { name: 'Run history' });
const toolbar = (): Locator => page.getByRole('toolbar', { name: 'Run actions' });
const titles = async (): Promise<string[]> => (await page.evaluate('window.__shown.map((n) => n.title)')) as string[];
const focusedAgent = async (): Promise<string | null> =>
  (await page.evaluate("document.activeElement?.closest('[data-agent-id]')?.getAttribute('aria-label') ?? null")) as
    string | null;
const agentId = (run: RunView, label: string): string => run.agents.find((a) => a.label === label)!.id;
/** The user clicks the notification with this title: its `click` event, so the page's own handler runs. */
const clickNotice = (title: string) =>
  page.evaluate((t) => {
    const shown = (window as unknown as { __shown: Notification[] }).__shown;
    shown.find((n) => n.title === t)!.dispatchEvent(new Event('click'));
  }, title);

async function prompted(id: string): Promise<void> {
  await waitFor(async () => (await client.call('agent.screen', { agentId: id })).text.includes('❯'), 'a prompt');
}

describe.skipIf(skipReason !== null)('a notification click in Chromium', () => {
  beforeAll(async () => {
    web = await startWebMachine('baton-e2e-notify-');
    ({ server, client } = web);
    const cwd = web.machine.work;
    const agents = (labels: string[]) => labels.map((label) => ({ vendor: 'claude' as const, label, cwd }));
    first = await client.call('run.start', { name: 'first', agents: agents(['alpha', 'beta']) });
    second = await client.call('run.start', { name: 'second', agents: agents(['gamma']) });
    const session = await web.openBrowser({ timeoutMs: WAIT_MS });
    page = session.page;
    await session.context.grantPermissions(['notifications'], { origin: new URL(server.url).origin });
    await page.addInitScript(KEEP_NOTICES);
  });

  afterAll(async () => {
    if (page) await screenshot(page, 'notify-click-last').catch(() => undefined);
    await web?.close();
  });

  it('goes to the agent the notice names: its run selected, its tab shown, its pane focused', async () => {
    await page.goto(`${server.url}/#token=${server.token}`);
    expect(await page.evaluate('Notification.permission')).toBe('granted');
    await history().getByRole('button', { name: 'first', exact: true }).click();
    await pane('alpha').waitFor();
    await toolbar().getByText('Notifications', { exact: true }).click();
    await toolbar().getByRole('button', { name: 'Turn on notifications' }).click();
    await toolbar().getByRole('button', { name: 'Turn off notifications on this device' }).waitFor();
    await toolbar().getByText('Notifications', { exact: true }).click();
    await toolbar().getByRole('button', { name: 'Tabs' }).click();
    await Promise.all([prompted(agentId(first, 'beta')), prompted(agentId(second, 'gamma'))]);
    await pane('alpha').locator('.xterm-screen').click();
    expect(await focusedAgent()).toBe('alpha');

    // gamma (another run) starts waiting first, then beta (a hidden tab of this run).
    await client.call('agent.send', { agentId: agentId(second, 'gamma'), text: 'remember the number 1' });
    await expect.poll(titles, { timeout: WAIT_MS }).toEqual(['gamma is waiting for you (second)']);
    await client.call('agent.send', { agentId: agentId(first, 'beta'), text: 'remember the number 2' });
    await expect
      .poll(titles, { timeout: WAIT_MS })
      .toEqual(['gamma is waiting for you (second)', 'beta is waiting for you (first)']);
    await toolbar()
      .getByRole('button', { name: /Next agent that needs me \(2 waiting\)/ })
      .waitFor();

    // beta's notice: beta, although gamma has waited longer.
    await clickNotice('beta is waiting for you (first)');
    await expect.poll(focusedAgent).toBe('beta');
    expect(await page.getByRole('tab', { name: /beta/ }).getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'notify-click-1-beta');

    // gamma's notice: its run is selected and its pane focused.
    await clickNotice('gamma is waiting for you (second)');
    await expect.poll(focusedAgent).toBe('gamma');
    expect(await history().getByRole('button', { name: 'second', exact: true }).getAttribute('aria-current')).toBe(
      'true',
    );
    await screenshot(page, 'notify-click-2-gamma');
  });
});
