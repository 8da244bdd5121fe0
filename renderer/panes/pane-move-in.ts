// A run's panes move in from the parking lot a few per frame, in the order the view shows them (reading order: the
// panes' effects run in the grid's order). A switch shows up to ten parked panes at once; moved in together, the
// frame after the switch laid out every row of all ten xterms (their DOM renderers resume and redraw) on top of
// React's commit of the grid, the page's longest task while switching (docs/performance.md, "Longest task: a
// switch's panes over frames"). A pane not moved in yet is not shown as in view (its body stays empty, its xterm in
// the lot, `visible` false) and asks the core for nothing until it is: once moved in, it catches up as any pane shown.

/** Panes moved in per frame: four of a run's ten land in the switch's own frame, the rest in the next two. */
export const MOVE_IN_PER_FRAME = 4;

const waiting = new Map<string, () => void>();
/** Panes moved in since the last frame began: they are laid out in the next frame. */
let movedForNextFrame = 0;
let frameAsked = false;

/** Moves the pane in now if the next frame has room for it, else in a later frame (before any pane asked later). */
export function moveInSoon(agentId: string, move: () => void): void {
  waiting.delete(agentId);
  waiting.set(agentId, move);
  drain();
}

/** Moves the pane in now if it waits (the user acts on it: focus, a key), whatever the frame holds. */
export function moveInNow(agentId: string): void {
  const move = waiting.get(agentId);
  if (!move) return;
  waiting.delete(agentId);
  movedForNextFrame++;
  askFrame();
  move();
}

/** The pane was parked (or its view went) before it moved in: it does not. */
export function cancelMoveIn(agentId: string): void {
  waiting.delete(agentId);
}

function drain(): void {
  for (const [agentId, move] of waiting) {
    if (movedForNextFrame >= MOVE_IN_PER_FRAME) break;
    waiting.delete(agentId);
    movedForNextFrame++;
    move();
  }
  if (movedForNextFrame > 0 || waiting.size > 0) askFrame();
}

function askFrame(): void {
  if (frameAsked) return;
  frameAsked = true;
  requestAnimationFrame(onFrame);
}

// Runs before the frame's style and layout: what moves in here is laid out in this frame, with what moved in since
// the last one; after it, the count starts again for the next frame.
function onFrame(): void {
  frameAsked = false;
  drain();
  movedForNextFrame = 0;
  if (waiting.size > 0) askFrame();
}
