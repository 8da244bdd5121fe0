// The dashboard, loaded by main.tsx: one connection to the core (on the socket main.tsx opened), handed to the store,
// which owns the client and gives it to the panes (their bytes never pass through the store: docs/architecture.md §6)
// and to the core store.
import { earlySocket } from './api/early-socket.js';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Connection } from './api/connection.js';
import { pageProtocols } from './api/page-token.js';
import { desktopConnection } from './api/electron-bridge.js';
import { App } from './components/App.js';
import { setClient } from './panes/terminal-registry.js';
import { watchPageTyping } from './panes/page-typing.js';
import { useCore } from './state/core-store.js';
import { useSearch } from './state/search-store.js';
import { connectAttention } from './state/attention-store.js';
import { provideClientTo, useBaton } from './state/store.js';
import { restCarets } from './state/caret-rest.js';
import './styles.css';

provideClientTo(setClient);
provideClientTo((client) => useCore.getState().connected(client));
provideClientTo((client) => useSearch.getState().connected(client));
provideClientTo(connectAttention);

// The desktop app's preload provides `window.baton` (a MessagePort to the core); a browser uses the WebSocket.
const connection = earlySocket
  ? new Connection(earlySocket.url, pageProtocols, earlySocket)
  : desktopConnection(window.baton!);
connection.subscribe((status, client) => useBaton.getState().setConnection(status, client));
// The app's own version, to tell a background core older than the app (web mode: the page comes from the core).
window.baton
  ?.appVersion()
  .then((version) => useCore.getState().setAppVersion(version))
  .catch(() => undefined);
connection.start();
restCarets(document.documentElement, window);
watchPageTyping();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
