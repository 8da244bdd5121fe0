// The scene of journeys.e2e.test.ts: one temp data directory with the fake vendor CLIs, the three agents of the run
// "demo", Chromium on the dashboard, and what a person sees there (panes, history, toolbar, dialogs, pane text);
// everything is cleaned up whatever happens.
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { FAKES, startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { launchBrowser, screenshot, skipUnlessChromium, type BrowserSession } from './browser.js';

export const skipReason = skipUnlessChromium();
if (skipReason) console.warn(`[e2e] ${skipReason}`);

export const WAIT_MS = 20_000;
export const QUESTION = 'what number did I ask you to remember';

/** The three agents of the run "demo": three vendors, three directories. */
interface AgentCase {
  label: string;
  vendor: 'claude' | 'gemini' | 'copilot';
  /** Text the vendor's TUI shows once it takes input. */
  ready: string;
  number: number;
  cwd: string;
}

// ---------- the scene, and everything to clean up whatever happens ----------

export let root = '';
let dataDir = '';
let env: Record<string, string> = {};
export const servers: ServerProcess[] = [];
const clients: RpcClient[] = [];
let session: BrowserSession | null = null;
export let page: Page;
export const agents: AgentCase[] = [];
export const pageErrors: string[] = [];

function randomNumbers(n: number): number[] {
  const out = new Set<number>();
  while (out.size < n) out.add(1000 + Math.floor(Math.random() * 9000));
  return [...out];
}

async function stopServer(s: ServerProcess): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000).unref());
  if ((await Promise.race([s.exited, timeout])) === 'timeout') {
    s.child.kill('SIGKILL');
    await s.exited;
  }
}

export async function serve(): Promise<ServerProcess> {
  const s = await startServer(dataDir, env);
  servers.push(s);
  return s;
}

export async function rpc(s: ServerProcess): Promise<RpcClient> {
  const c = await s.connect();
  clients.push(c);
  return c;
}

// ---------- what a person sees ----------

export const pane = (label: string): Locator => page.getByRole('region', { name: label, exact: true });
export const history = (): Locator => page.getByRole('navigation', { name: 'Run history' });
export const toolbar = (): Locator => page.getByRole('toolbar', { name: 'Run actions' });
export const topbar = (): Locator => page.locator('.bt-topbar');
export const dialog = (name: string): Locator => page.getByRole('dialog', { name });

/** The rows of a pane's terminal as the user reads them (xterm's DOM renderer), trailing blanks trimmed. */
export async function paneText(label: string): Promise<string> {
  const rows = pane(label).locator('.xterm-rows');
  if ((await rows.count()) === 0) return '';
  const text = await rows.innerText();
  return text
    .replace(/\u00a0/g, ' ')
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
}

export async function waitForPaneText(
  label: string,
  expected: string | RegExp,
  what: string,
  after?: string,
): Promise<string> {
  return waitFor(
    async () => {
      let text = await paneText(label);
      if (after && text.includes(after)) text = text.slice(text.lastIndexOf(after) + after.length);
      return (typeof expected === 'string' ? text.includes(expected) : expected.test(text)) ? text : undefined;
    },
    `${what} in the pane ${label}`,
    WAIT_MS,
  );
}

/** Clicks into the pane's terminal and types a prompt as a person would: text, a short pause, Enter. */
export async function typeInto(label: string, text: string): Promise<void> {
  await pane(label).locator('.xterm-screen').click();
  await page.keyboard.type(text);
  // Gemini (and Qwen, Codex) take an Enter that follows typed keys too closely as part of a paste.
  await page.waitForTimeout(1000);
  await page.keyboard.press('Enter');
}

/** The numbers of the `line N` rows of a screen, in screen order. */
export const lineNumbers = (text: string): number[] => [...text.matchAll(/^line (\d+)$/gm)].map((m) => Number(m[1]));
export const lastLineNumber = (text: string): number | undefined => lineNumbers(text).at(-1);

export const nonEmptyLines = (text: string): string[] =>
  text
    .split('\n')
    .map((l) => l.replace(/\u00a0/g, ' ').trimEnd())
    .filter((l) => l.trim() !== '');

// ---------- the journeys ----------
export function useJourneyScene(): void {
  beforeAll(async () => {
    root = realpathSync(tempDir('baton-e2e-'));
    dataDir = join(root, 'data');
    // Claude, Gemini and Copilot (and Qwen) are "installed" as fakes; Codex is not, so first launch lists one missing CLI.
    env = testEnv(join(root, 'home'), {
      BATON_GEMINI_BIN: join(FAKES, 'gemini.mjs'),
      BATON_COPILOT_BIN: join(FAKES, 'copilot.mjs'),
      BATON_QWEN_BIN: join(FAKES, 'qwen.mjs'),
      BATON_CODEX_BIN: join(root, 'not-installed', 'codex'),
    });
    const numbers = randomNumbers(3);
    const specs = [
      { label: 'one', vendor: 'claude', ready: '? for shortcuts' },
      { label: 'two', vendor: 'gemini', ready: 'Type your message' },
      { label: 'three', vendor: 'copilot', ready: 'Enter @ to mention files' },
    ] as const;
    specs.forEach((s, i) => {
      const cwd = join(root, `work-${s.label}`);
      mkdirSync(cwd, { recursive: true });
      agents.push({ ...s, number: numbers[i]!, cwd });
    });
    session = await launchBrowser();
    page = session.page;
    page.setDefaultTimeout(WAIT_MS);
    page.on('pageerror', (err) => pageErrors.push(err.message));
  });

  // A failed journey leaves a picture of the page as it was.
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail' && session) {
      const name = `failed-${ctx.task.name.split('.')[0]}`;
      await screenshot(page, name).catch(() => undefined);
    }
  });

  afterAll(async () => {
    await session?.close();
    for (const c of clients.splice(0)) c.close();
    await Promise.all(servers.splice(0).map((s) => stopServer(s)));
    if (root) rmSync(root, { recursive: true, force: true });
  });
}
