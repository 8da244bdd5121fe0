// How a pane's output reaches its xterm, when the core hears that it has, and how often a flooding pane is drawn
// (docs/performance.md, "Panes: output at xterm's own speed"). Bytes go to xterm as they come, in order, through the
// write pacer (write-pacer.ts); the core hears once xterm has parsed them, at most once per `ACK_BATCH_BYTES` parsed
// while more is queued, and always when the pane's queue runs dry (so the core's window never waits on an ack the
// page holds back). Acking on receipt instead, while little was queued, was measured slower (the renderer bench's
// throughput scene): the PTY's writer and the core then took the CPU the page needed to parse.
import type { PaneTerminal } from './pane-terminal.js';
import { WritePacer } from './write-pacer.js';
import { throttleRendering, type RenderThrottle } from './render-throttle.js';

/** Parsed bytes a pane acks at once while more is queued for its xterm. */
export const ACK_BATCH_BYTES = 128 * 1024;

/** What the renderer bench switches between rounds to weigh each part in one run (renderer/bench-hooks.ts). */
export interface OutputTuning {
  /** Pace other panes' output while the user types (write-pacer.ts). */
  pacer: boolean;
  /** Ack at most once per this many parsed bytes while more is queued (0: after every write). */
  ackBatchBytes: number;
  /** Draw a flooding pane at most 20 times a second (render-throttle.ts). */
  renderThrottle: boolean;
}

const tuning: OutputTuning = { pacer: true, ackBatchBytes: ACK_BATCH_BYTES, renderThrottle: true };

/** While the user types, the other panes' output waits for the echo and gets the rest of each frame. */
export const pacer = new WritePacer();

interface Queued {
  /** Bumped when the pane's screen is replaced: writes from before no longer count. */
  generation: number;
  /** Received and not yet parsed. */
  bytes: number;
  /** The last offset acked. */
  acked: number;
}
const queued = new WeakMap<PaneTerminal, Queued>();
const throttles = new WeakMap<PaneTerminal, RenderThrottle | null>();

function throttleOf(pane: PaneTerminal): RenderThrottle | null {
  let t = throttles.get(pane);
  if (t === undefined) {
    throttles.set(pane, (t = throttleRendering(pane.term)));
    if (t) t.hold = () => tuning.pacer && pacer.echoPending();
  }
  if (t) t.enabled = tuning.renderThrottle;
  return t;
}

export function setOutputTuning(next: Partial<OutputTuning>): OutputTuning {
  Object.assign(tuning, next);
  if (!tuning.pacer) pacer.release();
  return { ...tuning };
}

/** A key went to `pane`: its echo comes first, and is drawn at the next frame. */
export function typedInto(pane: PaneTerminal): void {
  throttleOf(pane)?.typed();
  if (tuning.pacer) pacer.typed(pane.agentId);
}

/** Bytes ending at `end` go to the pane's xterm, in order; the core hears of them once parsed. */
export function writeOutput(pane: PaneTerminal, bytes: Uint8Array, end: number): void {
  let q = queued.get(pane);
  if (!q) queued.set(pane, (q = { generation: 0, bytes: 0, acked: 0 }));
  const state = q;
  const generation = state.generation;
  state.bytes += bytes.length;
  throttleOf(pane)?.wrote(bytes.length);
  pacer.write(pane.agentId, pane.term, bytes, () => {
    if (state.generation !== generation) return void pane.stream?.ack(end);
    state.bytes -= bytes.length;
    if (state.bytes > 0 && end - state.acked < tuning.ackBatchBytes) return;
    state.acked = end;
    // Looked up now: the catch-up bytes arrive before attach() has returned the stream.
    pane.stream?.ack(end);
  });
}

/** The pane's screen is being replaced: output held for it is older than that screen, and counts no more. */
export function discardOutput(pane: PaneTerminal): void {
  pacer.discard(pane.agentId);
  const q = queued.get(pane);
  if (q) {
    q.generation++;
    q.bytes = 0;
    q.acked = 0;
  }
}

/** Received and not yet parsed (for tests and the bench). */
export function queuedBytes(pane: PaneTerminal): number {
  return queued.get(pane)?.bytes ?? 0;
}
