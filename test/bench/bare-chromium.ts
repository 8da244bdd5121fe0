// Chromium driven without Playwright (BENCH_BARE, renderer-bare.ts): the same binary with the same switches as the
// Playwright-launched bench browser, spoken to over its DevTools pipe by this file alone, with no Network domain.
// Playwright enables DevTools network reporting on every page, so Chromium copies (and base64-encodes) every
// WebSocket frame to the bench: a cost the product never pays (Electron, a user's browser), and one that falls on the
// pane's side of the throughput ratio only. Here the only domains in use are Fetch (the page's own files swapped for
// the bench build's, HTTP only: a WebSocket is never intercepted) and Emulation (the same viewport); the bench's
// figures come from Runtime.evaluate calls between rounds, which send no events.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, sep } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { BENCH_RENDERER, VIEWPORT, type BenchBrowser } from './renderer-page.js';
import type { ServerProcess } from '../helpers/server.js';

interface CdpMessage {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: { message: string };
  sessionId?: string;
}

/** One process of the bare Chromium, typed as DevTools types it ('browser', 'renderer', 'GPU', 'utility'). */
export interface ChromiumProcess {
  id: number;
  type: string;
}

export interface BareBrowser {
  pid: number;
  /** The browser process and every process below it, typed from its command line. */
  processes(): ChromiumProcess[];
  open(server: ServerProcess): Promise<BarePage>;
  close(): Promise<void>;
}

export interface BarePage {
  /** Evaluates `expression` in the page, awaiting a promise; the result by value. */
  evaluate<T>(expression: string): Promise<T>;
  /** Any other DevTools command on the page's session (the profiler: BENCH_PROFILE=bare). */
  send(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export interface BrowserCommand {
  exe: string;
  args: string[];
}

/**
 * The binary and switches of the Playwright-launched bench browser `b`, from its browser process's command line, without its
 * profile directory and its DevTools pipe (this driver gives its own): the same Chromium in the same configuration.
 */
export async function switchesOf(b: BenchBrowser): Promise<BrowserCommand> {
  const session = await b.browser.newBrowserCDPSession();
  let pid: number | undefined;
  try {
    const { processInfo } = await session.send('SystemInfo.getProcessInfo');
    pid = processInfo.find((p) => p.type === 'browser')?.id;
  } finally {
    await session.detach().catch(() => undefined);
  }
  if (pid === undefined) throw new Error('DevTools names no browser process for the bench browser');
  // Debian's /usr/bin/chromium is a script that adds its own switches: the binary it ran, with the switches it got.
  const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(1);
  const own = (a: string) => a.startsWith('--user-data-dir=') || a === '--remote-debugging-pipe' || a === 'about:blank';
  return { exe: realpathSync(`/proc/${pid}/exe`), args: args.filter((a) => !own(a)) };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

const TYPE_NAMES: Record<string, string> = { 'gpu-process': 'GPU' };
const switchValue = (args: string[], name: string) =>
  args.find((a) => a.startsWith(`${name}=`))?.slice(name.length + 1);

function typeOf(pid: number): string | null {
  try {
    // Chromium's child processes rewrite their title: one string, its switches separated by spaces.
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/);
    const type = switchValue(args, '--type');
    // A utility process by what it serves (the network service), as the budget of the Playwright-driven page names it.
    if (type === 'utility') return switchValue(args, '--utility-sub-type') ?? type;
    return type === undefined ? 'browser' : (TYPE_NAMES[type] ?? type);
  } catch {
    return null; // gone meanwhile
  }
}

function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone meanwhile
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!) ?? []));
  return out;
}

export async function launchBareBrowser(command: BrowserCommand): Promise<BareBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'baton-bare-chromium-'));
  const child = spawn(
    command.exe,
    [...command.args, `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank'],
    {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  let nextId = 1;
  const pending = new Map<number, { resolve(r: Record<string, unknown>): void; reject(e: Error): void }>();
  const listeners = new Set<(m: CdpMessage) => void>();
  let buffered = '';
  fromBrowser.on('data', (d: Buffer) => {
    buffered += d.toString('utf8');
    for (let end; (end = buffered.indexOf('\0')) >= 0;) {
      const message = JSON.parse(buffered.slice(0, end)) as CdpMessage;
      buffered = buffered.slice(end + 1);
      if (message.id !== undefined) {
        const p = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) p?.reject(new Error(message.error.message));
        else p?.resolve(message.result ?? {});
      } else for (const l of listeners) l(message);
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => {
    for (const p of pending.values()) p.reject(new Error(`Chromium exited: ${stderr.trim().slice(-400)}`));
    pending.clear();
  });
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  await send('Browser.getVersion');

  const open = async (server: ServerProcess): Promise<BarePage> => {
    const { targetId } = (await send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    const origin = new URL(server.url).origin;
    // The server's files replaced by the bench build's, with the server's own headers (CSP included), as
    // renderer-page.ts serveBenchBuild does through Playwright.
    listeners.add((m) => {
      if (m.sessionId !== sessionId || m.method !== 'Fetch.requestPaused') return;
      const p = m.params as {
        requestId: string;
        request: { url: string };
        responseHeaders?: { name: string; value: string }[];
      };
      const path = new URL(p.request.url).pathname;
      const file = normalize(join(BENCH_RENDERER, path === '/' ? 'index.html' : decodeURIComponent(path.slice(1))));
      if (!file.startsWith(BENCH_RENDERER + sep) || !existsSync(file)) {
        void send('Fetch.continueRequest', { requestId: p.requestId }, sessionId).catch(() => undefined);
        return;
      }
      const headers = (p.responseHeaders ?? []).filter(
        (h) => !['content-length', 'content-type'].includes(h.name.toLowerCase()),
      );
      headers.push({ name: 'content-type', value: TYPES[extname(file)] ?? 'application/octet-stream' });
      void send(
        'Fetch.fulfillRequest',
        {
          requestId: p.requestId,
          responseCode: 200,
          responseHeaders: headers,
          body: readFileSync(file).toString('base64'),
        },
        sessionId,
      ).catch(() => undefined);
    });
    await send('Fetch.enable', { patterns: [{ urlPattern: `${origin}/*`, requestStage: 'Response' }] }, sessionId);
    await send(
      'Emulation.setDeviceMetricsOverride',
      { width: VIEWPORT.width, height: VIEWPORT.height, deviceScaleFactor: 1, mobile: false },
      sessionId,
    );
    await send('Page.navigate', { url: `${server.url}/#token=${server.token}` }, sessionId);
    const evaluate = async <T>(expression: string): Promise<T> => {
      const r = (await send(
        'Runtime.evaluate',
        { expression, awaitPromise: true, returnByValue: true },
        sessionId,
      )) as { result: { value?: unknown }; exceptionDetails?: { text: string; exception?: { description?: string } } };
      if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
      return r.result.value as T;
    };
    for (const t0 = Date.now(); !(await evaluate<boolean>('globalThis.__batonBench !== undefined'));) {
      if (Date.now() - t0 > 30_000)
        throw new Error(`the bare page has no window.__batonBench: run \`npm run build:renderer-bench\``);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { evaluate, send: (method, params) => send(method, params, sessionId) };
  };

  return {
    pid: child.pid!,
    processes: () =>
      descendants(child.pid!).flatMap((id) => {
        const type = typeOf(id);
        return type === null ? [] : [{ id, type }];
      }),
    open,
    close: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        await send('Browser.close').catch(() => undefined);
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
