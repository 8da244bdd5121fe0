// The panes of live runs the user has not opened yet are loaded in the background, a run at a time while the page is
// idle, so that switching to a run shows its current screens at once (docs/performance.md, "Output path and panes").
// Measured with 100 agents with 5,000 lines each: a pane seen for the first time spent hundreds of milliseconds being
// fetched from the core and parsed; a loaded pane only catches up on what arrived since. A loaded pane costs what a
// visited one does (its xterm and its scrollback), no more: the page holds it after one visit anyway; hidden, it gets
// no output until it is shown.
import { followTerminal, hasPane, liveTerminals, settled } from './terminal-registry.js';

const asked = new Set<string>();
const queue: string[] = [];
let busy = false;

/** How long a run waits for an idle moment before it is loaded anyway (a busy page is rarely idle). */
const IDLE_TIMEOUT_MS = 1000;

const whenIdle = (run: () => void) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(run, IDLE_TIMEOUT_MS / 10);
};

/** Loads the live agents' panes of these runs in the background (each run once a page; later calls add new ones). */
export function warmRuns(runIds: readonly string[]): void {
  for (const runId of runIds) {
    if (asked.has(runId)) continue;
    asked.add(runId);
    queue.push(runId);
  }
  next();
}

function next(): void {
  if (busy) return;
  const runId = queue.shift();
  if (runId === undefined) return;
  busy = true;
  whenIdle(() => {
    void warmRun(runId)
      .catch(() => asked.delete(runId))
      .finally(() => {
        busy = false;
        next();
      });
  });
}

/** A run's panes together: their catch-ups are fetched at once, and parsed by xterm in turns. */
async function warmRun(runId: string): Promise<void> {
  const terminals = await liveTerminals(runId);
  for (const { agentId, terminalId } of terminals)
    // A pane the user opened meanwhile is the view's; it is not touched here.
    if (!hasPane(agentId)) followTerminal(agentId, terminalId, true);
  await Promise.all(terminals.map(({ agentId }) => settled(agentId)));
}
