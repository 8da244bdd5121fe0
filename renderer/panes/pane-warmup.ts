// The panes of live runs the user has not opened yet are loaded in the background, one pane at a time when the page
// is idle, so that switching to such a run later shows its current screens as a revisit does (docs/performance.md,
// "Output path and panes"). Measured with 100 agents with 5,000 lines each: a pane seen for the first time spent
// hundreds of milliseconds being fetched from the core and parsed; a loaded pane only catches up on what arrived
// since. One pane at a time, only in idle time: loading a whole run at once competed with the run in view and made
// its first visits slower. A loaded pane costs what a visited one does (its xterm and its scrollback), no more: the
// page holds it after one visit anyway; hidden, it gets no output until it is shown.
import { followTerminal, hasPane, liveTerminals, settled } from './terminal-registry.js';

const asked = new Set<string>();
const queue: { agentId: string; terminalId: string }[] = [];
let busy = false;

/** How long a pane waits for an idle moment before it is loaded anyway (a busy page is rarely idle). */
const IDLE_TIMEOUT_MS = 5000;

const whenIdle = (run: () => void) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(run, IDLE_TIMEOUT_MS / 10);
};

/** Loads the live agents' panes of these runs in the background (each run once a page; later calls add new ones). */
export function warmRuns(runIds: readonly string[]): void {
  for (const runId of runIds) {
    if (asked.has(runId)) continue;
    asked.add(runId);
    liveTerminals(runId).then(
      (terminals) => {
        queue.push(...terminals);
        next();
      },
      // A run that ended meanwhile has nothing to load ahead: it is loaded when opened, as before.
      () => undefined,
    );
  }
}

function next(): void {
  if (busy) return;
  const pane = queue.shift();
  if (!pane) return;
  busy = true;
  whenIdle(() => {
    // A pane the user opened meanwhile is the view's; it is not touched here.
    if (!hasPane(pane.agentId)) followTerminal(pane.agentId, pane.terminalId, true);
    settled(pane.agentId)
      .catch(() => undefined)
      .finally(() => {
        busy = false;
        next();
      });
  });
}
