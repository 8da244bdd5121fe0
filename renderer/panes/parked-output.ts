// Output the core sends a parked pane (it keeps hidden panes current at a low rate: electron/core/pty/flow.ts) waits
// here unparsed, and is parsed at once when the pane is shown, before the switch's frame: a parked xterm that parsed
// each line as it came scrolled its buffer, and xterm then updated its scroll bar and asked for a selection redraw,
// dirtying the parking lot that the switch's frame laid out (docs/performance.md, switch7). Bounded: beyond
// HELD_MAX_BYTES a parked pane's output goes to its xterm as before.
import type { PaneTerminal } from './pane-terminal.js';

/** A parked pane's output held at most (parsed in the switch's task when shown: about a millisecond a pane). */
const HELD_MAX_BYTES = 16 * 1024;

const held = new WeakMap<PaneTerminal, { chunks: Uint8Array[]; bytes: number }>();

/** Keeps a parked pane's bytes for its show; false if the pane is in view or holds enough already. */
export function holdParked(pane: PaneTerminal, bytes: Uint8Array): boolean {
  if (pane.visible) return false;
  const h = held.get(pane) ?? { chunks: [], bytes: 0 };
  if (h.bytes + bytes.length > HELD_MAX_BYTES) return false;
  h.chunks.push(bytes);
  h.bytes += bytes.length;
  held.set(pane, h);
  return true;
}

/** The bytes held for the pane, in order, and none left; null if none. */
export function takeHeld(pane: PaneTerminal): Uint8Array | null {
  const h = held.get(pane);
  held.delete(pane);
  if (!h || h.bytes === 0) return null;
  if (h.chunks.length === 1) return h.chunks[0]!;
  const all = new Uint8Array(h.bytes);
  let at = 0;
  for (const c of h.chunks) {
    all.set(c, at);
    at += c.length;
  }
  return all;
}

/** The pane's screen is being replaced: what it held is older than that screen. */
export function dropHeld(pane: PaneTerminal): void {
  held.delete(pane);
}

/**
 * The pane is shown: what it held goes to its xterm, parsed in this task, or to `queued` when other output is still
 * queued for it in the page (order first).
 */
export function parseHeld(pane: PaneTerminal, queued: ((bytes: Uint8Array) => void) | null): void {
  const bytes = takeHeld(pane);
  if (!bytes) return;
  if (queued) queued(bytes);
  else parseNow(pane, bytes);
}

/** Parses `bytes` into the pane's xterm now (xterm's private WriteBuffer.writeSync, checked at run time; else a write). */
function parseNow(pane: PaneTerminal, bytes: Uint8Array): void {
  const core: unknown = (pane.term as unknown as Record<string, unknown>)['_core'];
  const buffer = typeof core === 'object' && core !== null ? (core as Record<string, unknown>)['_writeBuffer'] : null;
  const writeSync =
    typeof buffer === 'object' && buffer !== null ? (buffer as Record<string, unknown>)['writeSync'] : null;
  if (typeof writeSync === 'function') (writeSync as (data: Uint8Array) => void).call(buffer, bytes);
  else pane.term.write(bytes);
}
