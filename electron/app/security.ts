// docs/architecture.md §10 for the desktop app: what a window may load, ask for and open. Everything is denied unless listed here.
import { pathToFileURL } from 'node:url';
import type { Session, WebContents, WebFrameMain } from 'electron';

/**
 * The only permissions a page may have, and only our own page: the dashboard copies handles and pastes into panes
 * with the async Clipboard API, the same code as in web mode. See .electronegativity.json for why this is safe.
 */
const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write', 'clipboard-read']);

/** True when `url` is exactly our index page (a `#fragment` aside). */
export function isIndexUrl(url: string, index: string): boolean {
  try {
    const parsed = new URL(url);
    parsed.hash = '';
    return parsed.href === index;
  } catch {
    return false;
  }
}

/** Requests a window may make: the built renderer's own files, `data:` (the favicon) and the developer tools. */
export function isAllowedRequest(url: string, rendererDir: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol === 'data:' || parsed.protocol === 'devtools:') return true;
  if (parsed.protocol !== 'file:') return false;
  const base = pathToFileURL(rendererDir).href.replace(/\/?$/, '/');
  return parsed.href.startsWith(base) && !parsed.pathname.split('/').includes('..');
}

type SessionLike = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'on'> & {
  webRequest: Pick<Session['webRequest'], 'onBeforeRequest' | 'onHeadersReceived'>;
};

/** CSP on every response, no request outside the renderer's files, no permission beyond the clipboard, no downloads. */
export function installSessionPolicy(session: SessionLike, options: { index: string; rendererDir: string }): void {
  session.webRequest.onBeforeRequest((details, callback) => {
    const allowed = isAllowedRequest(details.url, options.rendererDir);
    if (!allowed)
      process.stderr.write(
        `baton: refused a request for a ${details.url.split(':')[0]}: URL (only the app's own files load)\n`,
      );
    callback({ cancel: !allowed });
  });
  // No network for the page at all: it reaches the core over a MessagePort, which CSP does not govern.
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: {
        ...details.responseHeaders,
        'Content-Security-Policy': [
          "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-src 'none'; frame-ancestors 'none'",
        ],
      },
    });
  });
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    callback(ALLOWED_PERMISSIONS.has(permission) && isIndexUrl(details.requestingUrl, options.index));
  });
  session.setPermissionCheckHandler((_contents, permission, _origin, details) => {
    return ALLOWED_PERMISSIONS.has(permission) && isIndexUrl(details.requestingUrl ?? '', options.index);
  });
  session.on('will-download', (event) => event.preventDefault());
}

/** Every web contents: no new windows, no navigation away from the index, no redirects, no <webview>. */
export function hardenContents(contents: Pick<WebContents, 'on' | 'setWindowOpenHandler'>): void {
  // Terminal links and window.open end here; a link a person wants can be copied from the pane.
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
}

/** An IPC message is ours only from the top frame of our index page; a subframe or any other URL is refused. */
export function isTrustedSender(
  event: { senderFrame: Pick<WebFrameMain, 'url' | 'parent'> | null },
  index: string,
): boolean {
  try {
    const frame = event.senderFrame;
    return frame !== null && frame.parent === null && isIndexUrl(frame.url, index);
  } catch {
    return false; // A frame that is gone throws on access.
  }
}
