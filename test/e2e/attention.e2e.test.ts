// "Which agent needs me?" in Chromium, against a real `baton serve` with the fake Claude (which runs the hooks Baton
// passes it): two agents, one waits; its state shows in its pane header and in the run's row of the history list
// ("1 needs you"), one notification names the run, the label and what it asks; "Next agent that needs me" focuses
// its pane; answering clears it. The page's Notification API is replaced by a recorder that has permission (the
// browser's own dialog cannot be clicked headless); the opt-in is still the page's own control.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { waitFor, type ServerProcess } from '../helpers/server.js';
import { startWebMachine, type WebMachine } from '../helpers/web-machine.js';
import { screenshot, skipUnlessChromium } from './browser.js';

const skipReason = skipUnlessChromium();
const WAIT_MS = 20_000;

interface Recorded {
  title: string;
  body: string;
}

/** Stands in for the browser's Notification API: records each notice; `click(i)` is the user clicking it. */
const RECORDER = `
  window.__notices = [];
  class RecordedNotification {
    static permission = 'default';
    static requestPermission() { RecordedNotification.permission = 'granted'; return Promise.resolve('granted'); }
    constructor(title, options) {
      this.title = title; this.body = options?.body ?? ''; this.onclick = null;
      window.__notices.push(this);
    }
    close() {}
  }
  window.Notification = RecordedNotification;
`;

let web: WebMachine | null = null;
let server: ServerProcess;
let client: RpcClient;
let page: Page;

const pane = (label: string): Locator => page.getByRole('region', { name: label, exact: true });
const history = (): Locator => page.getByRole('navigation', { name: 'Run history' });
const toolbar = (): Locator => page.getByRole('toolbar', { name: 'Run actions' });
const notices = async (): Promise<Recorded[]> =>
  (await page.evaluate('window.__notices.map((n) => ({ title: n.title, body: n.body }))')) as Recorded[];
const focusedAgent = async (): Promise<string | null> =>
  (await page.evaluate("document.activeElement?.closest('[data-agent-id]')?.getAttribute('aria-label') ?? null")) as
    string | null;

describe.skipIf(skipReason !== null)('attention in Chromium', () => {
  beforeAll(async () => {
    // A slow model, so "working" after an answer lasts long enough to be seen.
    web = await startWebMachine('baton-e2e-attn-', { FAKE_CLAUDE_DELAY_MS: '1500' });
    ({ server, client } = web);
    const cwd = web.machine.work;
    await client.call('run.start', {
      name: 'duo',
      agents: [
        { vendor: 'claude', label: 'alpha', cwd },
        { vendor: 'claude', label: 'beta', cwd },
      ],
    });
    page = (await web.openBrowser({ timeoutMs: WAIT_MS })).page;
    await page.addInitScript(RECORDER);
  });

  afterAll(async () => {
    if (page) await screenshot(page, 'attention-last').catch(() => undefined);
    await web?.close();
  });

  it('one agent waits: its header, the history list and one notification say so; Next focuses it; answering clears it', async () => {
    await page.goto(`${server.url}/#token=${server.token}`);
    await history().getByRole('button', { name: 'duo', exact: true }).click();
    await pane('alpha').waitFor();
    // Opt in to notifications from the run's own control; then look at alpha only (tabs), so beta is out of view.
    await toolbar().getByText('Notifications', { exact: true }).click();
    await toolbar().getByRole('button', { name: 'Turn on notifications' }).click();
    await toolbar().getByRole('button', { name: 'Turn off notifications on this device' }).waitFor();
    await toolbar().getByText('Notifications', { exact: true }).click();
    await toolbar().getByRole('button', { name: 'Tabs' }).click();
    await expect.poll(() => pane('alpha').locator('header').innerText()).toContain('Idle');
    await waitFor(
      async () => (await client.call('agent.screen', { agentId: await agentId('beta') })).text.includes('❯'),
      'beta ready',
    );

    // beta gets a task that needs approval (as if typed earlier), while the user looks at alpha.
    await client.call('agent.send', { agentId: await agentId('beta'), text: 'please run `ls`' });
    const row = history().getByRole('listitem').filter({ hasText: 'duo' });
    await expect.poll(() => row.innerText(), { timeout: WAIT_MS }).toContain('1 needs you');
    await expect.poll(async () => (await notices()).length, { timeout: WAIT_MS }).toBe(1);
    const [notice] = await notices();
    expect(notice!.title).toBe('beta asks permission (duo)');
    expect(notice!.body).toBe('Claude needs your permission to use Bash');
    await toolbar()
      .getByRole('button', { name: /Next agent that needs me \(1 waiting\)/ })
      .waitFor();
    // beta's tab says it needs the user (its header is out of sight).
    await page.getByRole('tab', { name: /beta.*\(asks permission\)/ }).waitFor();
    expect(await page.getByRole('tab', { name: /alpha/ }).getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'attention-1-beta-asks');

    // The shortcut takes the keyboard to beta's pane, whose header says what it waits for.
    await pane('alpha').locator('.xterm-screen').click();
    expect(await focusedAgent()).toBe('alpha');
    await page.keyboard.press('Alt+Shift+A');
    await expect.poll(focusedAgent).toBe('beta');
    expect(await pane('beta').locator('header').innerText()).toMatch(
      /Asks permission\s*: Claude needs your permission/,
    );

    // Answering (1 = Yes) clears it: beta works, nobody needs the user.
    await page.keyboard.press('1');
    await expect.poll(() => pane('beta').locator('header').innerText()).toContain('Working');
    await expect.poll(() => row.innerText()).not.toContain('need');
    expect(
      await toolbar()
        .getByRole('button', { name: /Next agent that needs me \(0 waiting\)/ })
        .isDisabled(),
    ).toBe(true);
    // Its turn ends while its pane is in view and focused: the state shows, no second notification.
    await expect
      .poll(() => pane('beta').locator('header').innerText(), { timeout: WAIT_MS })
      .toContain('Waiting for you');
    await page.waitForTimeout(500);
    expect(await notices()).toHaveLength(1);
    await screenshot(page, 'attention-2-answered');
  });

  it('clicking a notification focuses the pane it names', async () => {
    // alpha finishes a turn while the user looks at beta's tab.
    await page.getByRole('tab', { name: /beta/ }).click();
    await client.call('agent.send', { agentId: await agentId('alpha'), text: 'remember the number 42' });
    await expect.poll(async () => (await notices()).length, { timeout: WAIT_MS }).toBe(2);
    expect((await notices())[1]!.title).toBe('alpha is waiting for you (duo)');
    await page.evaluate('window.__notices[1].onclick()');
    await expect.poll(focusedAgent).toBe('alpha');
  });
});

async function agentId(label: string): Promise<string> {
  const run = await client.call('run.get', { run: 'duo' });
  return run.agents.find((a) => a.label === label)!.id;
}
