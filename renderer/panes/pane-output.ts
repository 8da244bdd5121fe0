// How a pane's output reaches its xterm, when the core hears that it has, and how often a flooding pane is drawn
// (docs/performance.md, "Panes: output at xterm's own speed"). Bytes go to xterm as they come, in order, through the
// write pacer (write-pacer.ts); the core hears once xterm has parsed them (one ack message per stream per task:
// RpcClient.queueAck). Two other ways were measured in the renderer bench's throughput scene and left out: acking on
// receipt while little was queued in the page (slower: the PTY's writer and the core then took the CPU the page
// needed to parse) and acking once per 128 KiB parsed (no less CPU in the page or the core, no faster).
import type { PaneTerminal } from './pane-terminal.js';
import { FEED_EVERY_MS, PIECE_BYTES, TYPING_PIECE_BYTES, TYPING_SLICE_MS, WritePacer } from './write-pacer.js';
import { quietWhileFlooding, type FloodQuiet } from './flood-quiet.js';
import {
  FLOOD_FRAME_MS,
  TYPED_FLOOD_BYTES,
  TYPING_FLOOD_FRAME_MS,
  throttleRendering,
  type RenderThrottle,
} from './render-throttle.js';
import type { OutputTuning } from '../../shared/output-tuning.js';

export type { OutputTuning };

const tuning: OutputTuning = {
  pacer: true,
  renderThrottle: true,
  floodFrameMs: FLOOD_FRAME_MS,
  quietFlood: true,
  quietSelection: true,
  typedFloodBytes: TYPED_FLOOD_BYTES,
  timers: true,
  pieceBytes: PIECE_BYTES,
  typingSliceMs: TYPING_SLICE_MS,
  typingPieceBytes: TYPING_PIECE_BYTES,
  typingFeedEveryMs: FEED_EVERY_MS,
  typingFloodFrameMs: TYPING_FLOOD_FRAME_MS,
  lazyFloodClock: true,
};

/** While the user types, the other panes' output waits for the echo and gets the rest of each frame. */
export const pacer = new WritePacer();

const throttles = new WeakMap<PaneTerminal, RenderThrottle | null>();
const quiets = new WeakMap<PaneTerminal, FloodQuiet | null>();

function throttleOf(pane: PaneTerminal): RenderThrottle | null {
  let t = throttles.get(pane);
  if (t === undefined) {
    throttles.set(pane, (t = throttleRendering(pane.term)));
    if (t) {
      t.hold = () => tuning.pacer && pacer.echoPending();
      t.floodFrameMs = () => (tuning.pacer && pacer.pacing() ? tuning.typingFloodFrameMs : tuning.floodFrameMs);
      quiets.set(pane, quietWhileFlooding(pane.term, t));
    }
  }
  if (t) {
    t.enabled = tuning.renderThrottle;
    t.timers = tuning.timers;
    t.typedFloodBytes = tuning.typedFloodBytes;
    t.lazyClock = tuning.lazyFloodClock;
    const quiet = quiets.get(pane);
    if (quiet) {
      quiet.enabled = tuning.quietFlood;
      quiet.selection = tuning.quietSelection;
    }
  }
  return t;
}

export function setOutputTuning(next: Partial<OutputTuning>): OutputTuning {
  Object.assign(tuning, next);
  pacer.sliceMs = tuning.typingSliceMs;
  pacer.pieceBytes = tuning.typingPieceBytes;
  pacer.directPieceBytes = tuning.pieceBytes;
  pacer.timers = tuning.timers;
  pacer.feedEveryMs = tuning.typingFeedEveryMs;
  if (!tuning.pacer) pacer.release();
  return { ...tuning };
}

/** A key went to the page outside the panes (or a text field there took focus): the panes' output is paced. */
export function typedElsewhere(): void {
  if (tuning.pacer) pacer.typedElsewhere();
}

/** A key went to `pane`: its echo comes first, and is drawn at the next frame. */
export function typedInto(pane: PaneTerminal): void {
  throttleOf(pane)?.typed();
  if (tuning.pacer) pacer.typed(pane.agentId);
}

/** Bytes ending at `end` go to the pane's xterm, in order; the core hears of them once parsed. */
export function writeOutput(pane: PaneTerminal, bytes: Uint8Array, end: number): void {
  throttleOf(pane)?.wrote(bytes.length);
  pacer.write(pane.agentId, pane.term, bytes, () => {
    // Looked up now: the catch-up bytes arrive before attach() has returned the stream.
    pane.stream?.ack(end);
  });
}

/** The pane's screen is being replaced: output held for it is older than that screen. */
export function discardOutput(pane: PaneTerminal): void {
  pacer.discard(pane.agentId);
}

/** Draws the pane's rows that wait now, in this task (a pane just shown: show-slices.ts). */
export function drawNow(pane: PaneTerminal): void {
  throttleOf(pane)?.drawNow();
}

/** Times the pane has drawn since its output began (for the bench; null if its drawing is not throttled). */
export function drawsOf(pane: PaneTerminal): number | null {
  return throttles.get(pane)?.draws ?? null;
}
