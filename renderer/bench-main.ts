// The bench build's entry (`npm run build:renderer-bench`, dist/renderer-bench; docs/architecture.md §11): the
// dashboard as it ships, plus the measurement hooks test/bench/renderer.ts reads. The product entry (main.tsx) never
// imports the hooks, so the dashboard that `baton serve` and the desktop app load carries none of them.
import './main.js';

// As chunks of their own, as the dashboard is (main.tsx): statically imported, they would bring the dashboard's
// modules into the entry and run them before the page's socket could open.
void import('./bench-hooks.js');
void import('./bench-scale-hooks.js');
