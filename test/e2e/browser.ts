// A real browser for the end-to-end journeys: Debian's Chromium driven by playwright-core (no bundled browser).
// Skips the journeys with a clear reason where there is no Chromium, except on CI (CI=true), where that fails.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from '../helpers/server.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = join(ROOT, 'test-results', 'screenshots');

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
/**
 * Even with --disable-gpu, Chromium gives pages WebGL through its software rasterizer, and the panes then draw their
 * text on a canvas that no test (and no screen reader) can read. Without 3D APIs the panes fall back to xterm's DOM
 * renderer, whose rows hold the text a person reads: the fallback the product takes on any machine without WebGL.
 */
const NO_WEBGL = '--disable-3d-apis';

/**
 * Why the journeys cannot run here, or null when they can. On CI a missing browser is an error, not a skip:
 * a suite that silently runs nothing must not pass there.
 */
export function skipUnlessChromium(): string | null {
  if (existsSync(CHROMIUM)) return null;
  const need = `the end-to-end journeys need Chromium at ${CHROMIUM} (apt-get install chromium)`;
  if (process.env.CI === 'true') throw new Error(`${need}: on CI (CI=true) a missing browser is a failure, not a skip`);
  return `skipped: ${need}`;
}

export interface BrowserSession {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export interface LaunchOptions {
  /** Keep WebGL (panes render to a canvas, unreadable as text). Default false: the DOM renderer. */
  webgl?: boolean;
}

/** Chromium with one page: 1400×860, clipboard read and write allowed for every origin. */
export async function launchBrowser(options: LaunchOptions = {}): Promise<BrowserSession> {
  const args = options.webgl ? ARGS : [...ARGS, NO_WEBGL];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args, timeout: 30_000 });
  try {
    const context = await browser.newContext({
      viewport: { width: 1400, height: 860 },
      permissions: ['clipboard-read', 'clipboard-write'],
    });
    const page = await context.newPage();
    return {
      browser,
      context,
      page,
      close: async () => {
        await context.close().catch(() => undefined);
        await browser.close().catch(() => undefined);
      },
    };
  } catch (err) {
    await browser.close().catch(() => undefined);
    throw err;
  }
}

/** Saves a full-page PNG under test-results/screenshots/ and returns its path. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}
