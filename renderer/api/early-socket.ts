// The page's first WebSocket, opened by its first module (main.tsx), before the rest of its script (React, xterm,
// the contract's schemas: about 1 MB, 100-250 ms to evaluate) has loaded. Once open it asks at once for the newest
// runs, as the page's first list would, so that the core's answer is on its way while the rest loads. Messages that
// come before the page takes the socket over (api/connection.ts) are kept for it, in order. The request is written
// by hand (the client and the contract's schemas are in the part that is still loading); its reply is read and
// checked by the client like any other (docs/performance.md, "Cold start: the page's share").
import { FIRST_SCREEN, HISTORY_ROWS } from '../state/first-screen.js';
import { pageProtocols, serverSocketUrl } from './page-token.js';

/** The early request's id: the client numbers its own requests from 1. */
export const EARLY_LIST_ID = 0;

export interface EarlySocket {
  url: string;
  /** Undefined when the socket could not be made (the Connection then retries as for any failed connect). */
  socket: WebSocket | undefined;
  /** Takes the socket over: what came before (in order), and whether the early list was asked. Once. */
  adopt(): { opened: boolean; listAsked: boolean; received: (string | ArrayBuffer)[] };
}

function openEarly(): EarlySocket | null {
  // No page (a test importing the store) or the desktop app (its MessagePort instead): no early socket.
  if (typeof window === 'undefined' || window.baton) return null;
  const url = serverSocketUrl();
  let socket: WebSocket | undefined;
  try {
    socket = new WebSocket(url, pageProtocols());
  } catch {
    return { url, socket: undefined, adopt: () => ({ opened: false, listAsked: false, received: [] }) };
  }
  socket.binaryType = 'arraybuffer';
  let opened = false;
  let listAsked = false;
  const received: (string | ArrayBuffer)[] = [];
  const onOpen = () => {
    opened = true;
    const params = { limit: FIRST_SCREEN, ...HISTORY_ROWS };
    socket.send(JSON.stringify({ t: 'req', id: EARLY_LIST_ID, method: 'run.list', params }));
    listAsked = true;
  };
  const onMessage = (e: MessageEvent<string | ArrayBuffer>) => received.push(e.data);
  socket.addEventListener('open', onOpen);
  socket.addEventListener('message', onMessage);
  return {
    url,
    socket,
    adopt() {
      socket.removeEventListener('open', onOpen);
      socket.removeEventListener('message', onMessage);
      return { opened, listAsked, received: received.splice(0) };
    },
  };
}

export const earlySocket = openEarly();
