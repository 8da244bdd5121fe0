// The panes of live runs the user has not opened yet are loaded in the background, a few at a time when the page is
// idle, so that switching to such a run later shows its current screens as a revisit does (docs/performance.md,
// "Output path and panes"). Measured with 100 agents with 5,000 lines each: a pane seen for the first time spent
// hundreds of milliseconds being fetched from the core and parsed; a loaded pane only catches up on what arrived
// since. A few panes at a time (AT_ONCE), started only in idle time: loading a whole run at once competed with the run
// in view and made its first visits slower. A loaded pane costs what a visited one does (its xterm and its
// scrollback), no more: the page holds it after one visit anyway; hidden, the core keeps it current at a low rate and
// sends none of a flood (electron/core/pty/flow.ts, hiddenBudget).
import { paneShape } from './pane-shape.js';
import { followTerminal, hasPane, paneClient, settled, sizeAhead } from './terminal-registry.js';

const asked = new Set<string>();
/** `shape`: the run's grid, whose cell the pane is sized to while it waits (pane-shape.ts). */
const queue: { agentId: string; terminalId: string; shape: string }[] = [];
/** Panes loaded ahead whose fetch or parse is not done yet. */
let inFlight = 0;
let waitingForIdle = false;

/** How long a pane waits for an idle moment before it is loaded anyway (a busy page is rarely idle). */
const IDLE_TIMEOUT_MS = 5000;
/**
 * Panes loaded ahead at once. Each spends most of its load waiting for the core's answer (a round trip), so one at a
 * time left the page idle most of the while, and loading 100 panes took seconds (docs/performance.md, switch6). More at
 * once would queue a pane the user shows behind more of them, at the core and on the socket.
 */
const AT_ONCE = 4;
/** An idle period with less left than this starts no more panes (opening one is a few milliseconds of the page's). */
const MIN_IDLE_LEFT_MS = 4;

const whenIdle = (run: (deadline: { timeRemaining(): number; didTimeout: boolean }) => void) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(() => run({ timeRemaining: () => 0, didTimeout: true }), IDLE_TIMEOUT_MS / 10);
};

/**
 * Loads the live agents' panes of these runs in the background (each run once a page; later calls add new ones),
 * each sized to the cell its run's grid will give it (`layoutOf`: how the user shows the run).
 */
export function warmRuns(runIds: readonly string[], layoutOf: (runId: string) => 'grid' | 'tabs'): void {
  for (const runId of runIds) {
    if (asked.has(runId)) continue;
    asked.add(runId);
    liveTerminals(runId).then(
      ({ panes, terminals }) => {
        const shape = paneShape(layoutOf(runId), panes);
        queue.push(...terminals.map((t) => ({ ...t, shape })));
        next();
      },
      // A run that ended meanwhile has nothing to load ahead: it is loaded when opened, as before.
      () => undefined,
    );
  }
}

/** The running agents of a run and their terminals, as the core has them now, and how many panes the run shows. */
async function liveTerminals(
  runId: string,
): Promise<{ panes: number; terminals: { agentId: string; terminalId: string }[] }> {
  const c = paneClient();
  if (!c) return { panes: 0, terminals: [] };
  const run = await c.call('run.get', { run: runId });
  const terminals = run.agents.flatMap((a) =>
    a.status === 'running' && a.terminalId !== null ? [{ agentId: a.id, terminalId: a.terminalId }] : [],
  );
  return { panes: run.agents.length, terminals };
}

function next(): void {
  if (waitingForIdle || inFlight >= AT_ONCE || queue.length === 0) return;
  waitingForIdle = true;
  whenIdle((deadline) => {
    waitingForIdle = false;
    // As many as this idle period allows, up to AT_ONCE loading: starting one only queues its xterm to open in a task
    // of its own (pane-opener.ts, after any pane the user is shown) and its fetch after that.
    do {
      const pane = queue.shift();
      if (!pane) break;
      // A pane the user opened meanwhile is the view's; it is not touched here.
      if (hasPane(pane.agentId)) continue;
      inFlight++;
      followTerminal(pane.agentId, pane.terminalId, true);
      sizeAhead(pane.agentId, pane.shape);
      settled(pane.agentId)
        .catch(() => undefined)
        .finally(() => {
          inFlight--;
          next();
        });
    } while (inFlight < AT_ONCE && deadline.timeRemaining() > MIN_IDLE_LEFT_MS);
    next();
  });
}
