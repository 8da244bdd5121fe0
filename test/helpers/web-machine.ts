// A served machine (served-machine.ts: a temp machine, `baton serve` on it, a client) and Chromium for its dashboard:
// what the end-to-end journeys in Chromium share. `close` takes down whatever was started, the browser first.
import type { Page } from 'playwright-core';
import { launchBrowser, type BrowserSession, type LaunchOptions } from '../e2e/browser.js';
import { startServedMachine, type ServedMachine } from './served-machine.js';

export interface WebMachine extends ServedMachine {
  /**
   * Chromium with one page, `timeoutMs` its default timeout. A test that starts agents before the page opens calls it
   * once they are there.
   */
  openBrowser(options?: LaunchOptions & { timeoutMs?: number }): Promise<BrowserSession>;
}

/** See startServedMachine; the browser is launched by `openBrowser`. */
export async function startWebMachine(...args: Parameters<typeof startServedMachine>): Promise<WebMachine> {
  const served = await startServedMachine(...args);
  let session: BrowserSession | null = null;
  return {
    ...served,
    async openBrowser({ timeoutMs = 30_000, ...options } = {}) {
      session = await launchBrowser(options);
      session.page.setDefaultTimeout(timeoutMs);
      return session;
    },
    async close() {
      await session?.close();
      await served.close();
    },
  };
}

/** A pane's rows in view (what the user sees), each with its trailing blanks dropped. */
export function paneRows(page: Page, agentId: string): Promise<string[]> {
  return page.evaluate(
    (id) =>
      (document.querySelector(`[data-agent-id="${id}"] .xterm-rows`) as HTMLElement | null)?.innerText
        .replace(/\u00a0/g, ' ')
        .split('\n')
        .map((l) => l.trimEnd()) ?? [],
    agentId,
  );
}
