// The dashboard's entry, small on purpose: its first module opens the socket to the core and asks for the newest
// runs (api/early-socket.ts) while the rest of the page (dashboard.tsx: React, xterm, the contract's schemas, about
// 1 MB) loads as a chunk of its own, fetched at once (renderer/vite.config.ts preloads it). Between the two, the
// socket's events can be dispatched: the core's answer is on its way before the dashboard has run
// (docs/performance.md, "Cold start: the page's share").
import './api/early-socket.js';

void import('./dashboard.js');
