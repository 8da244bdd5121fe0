// The page's token and its socket's address and subprotocols. Kept apart from the client (and the contract's schemas
// it loads) so that the page can open its socket first, before the rest of its script runs (early-socket.ts).
import { tokenProtocols, WS_PROTOCOL } from '../../shared/ws-protocol.js';

/**
 * The WebSocket address of the server that served this page. Also takes the token from the address: the printed link
 * carries it in the fragment (`#token=…`), which no request sends, so the token reaches only this page's memory and,
 * through the socket's subprotocols, only this server.
 */
export function serverSocketUrl(): string {
  takeToken();
  window.addEventListener('hashchange', takeToken);
  const url = new URL(window.location.href);
  return `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}/ws`;
}

// The token is kept in this tab's sessionStorage so that a reload, whose address no longer has the fragment,
// connects again. sessionStorage is per tab and per origin (the port included, unlike a cookie, which 127.0.0.1
// shares with every local server), is never sent over the network, and is gone when the tab closes. Only this
// page's own scripts run on this origin (the CSP allows no other), so nothing else can read it.
const TOKEN_KEY = 'baton.token';
let pageToken: string | null = null;

export function pageProtocols(): string[] {
  return pageToken === null ? [WS_PROTOCOL] : tokenProtocols(pageToken);
}

function takeToken(): void {
  const fromAddress = tokenFromFragment();
  if (fromAddress !== null) {
    pageToken = fromAddress;
    try {
      window.sessionStorage.setItem(TOKEN_KEY, fromAddress);
    } catch {
      // Storage disabled: the token still works until the page is reloaded.
    }
    return;
  }
  if (pageToken !== null) return;
  try {
    pageToken = window.sessionStorage.getItem(TOKEN_KEY);
  } catch {
    pageToken = null;
  }
}

/** `token=` of the fragment, removed from the address bar and history at once; other fragment parts stay. */
function tokenFromFragment(): string | null {
  const parts = window.location.hash.replace(/^#/, '').split('&');
  const index = parts.findIndex((part) => part.startsWith('token='));
  if (index < 0) return null;
  let token: string | null;
  try {
    token = decodeURIComponent(parts[index]!.slice('token='.length));
  } catch {
    token = null;
  }
  parts.splice(index, 1);
  const url = new URL(window.location.href);
  url.hash = parts.filter((part) => part !== '').join('&');
  window.history.replaceState(window.history.state, '', url.toString());
  return token || null;
}
